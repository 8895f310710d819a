import type { DataSource, DataSourceGrant, MyPermGroup, Page, PermGroup, PermGroupSave, PermType, PermTypeSave, TableRef, User } from '@shutu/contracts';
import { API, apiPath, MAX_PAGE_SIZE } from '@shutu/contracts';
import { http, request } from '../../shared/api.ts';

export interface PermGroupListParams {
  current: number;
  size: number;
  permName?: string;
  /** Absent: every type. */
  typeId?: number;
}

export const permKeys = {
  all: ['perm'] as const,
  types: ['perm', 'types'] as const,
  groupsAll: ['perm', 'groups'] as const,
  groups: (p: PermGroupListParams) => ['perm', 'groups', p] as const,
  group: (id: number) => ['perm', 'groups', 'one', id] as const,
  myGroups: ['perm', 'my-groups'] as const,
  grantsAll: ['perm', 'grants'] as const,
  dataSourceGrants: (groupId: number) => ['perm', 'grants', 'datasource', groupId] as const,
  /** The whole lists the group dialog and the grant panel pick from. */
  allSources: ['perm', 'pick', 'sources'] as const,
  allUsers: ['perm', 'pick', 'users'] as const,
};

export const fetchPermTypes = () => http.get<PermType[]>(API.perm.types);
/** Writes keep the whole result: `msg` is the server's success message. */
export const savePermType = (body: PermTypeSave) => request<PermType>(API.perm.types, { method: 'POST', body });
export const deletePermType = (id: number) => request<null>(apiPath(API.perm.type, { id }), { method: 'DELETE' });

export const fetchPermGroups = (p: PermGroupListParams) => http.get<Page<PermGroup>>(API.perm.groups, { ...p });
export const fetchPermGroup = (id: number) => http.get<PermGroup>(apiPath(API.perm.group, { id }));
export const savePermGroup = (body: PermGroupSave) => request<unknown>(API.perm.groups, { method: 'POST', body });
export const deletePermGroup = (id: number) => request<null>(apiPath(API.perm.group, { id }), { method: 'DELETE' });
export const fetchMyPermGroups = () => http.get<MyPermGroup[]>(API.perm.myGroups);

export const fetchDataSourceGrants = (groupId: number) => http.get<DataSourceGrant[]>(apiPath(API.perm.dataSourceGrants, { id: groupId }));
/** Replaces the group's tables of one source; an empty list removes the source from the group. */
export const saveDataSourceGrant = (groupId: number, datasourceId: number, tableNames: TableRef[], writable?: boolean) =>
  request<unknown>(apiPath(API.perm.dataSourceGrant, { id: groupId, datasourceId }), {
    method: 'PUT',
    body: writable === undefined ? { tableNames } : { tableNames, writable },
  });

/** Every data source (the spec's large list fetch: page 1, size 10000). */
export const fetchAllDataSources = () => http.get<Page<DataSource>>(API.datasource.sources, { current: 1, size: MAX_PAGE_SIZE }).then((p) => p.records);
export const fetchAllUsers = () => http.get<Page<User>>(API.org.users, { current: 1, size: MAX_PAGE_SIZE }).then((p) => p.records);

/** `{schema}.{name}`-like key of a table that cannot collide (names may hold dots). */
export const tableKey = (t: TableRef) => `${t.schema}\u0000${t.name}`;
