import type { AuthCubeDetail, CubeCategory, CubeCategorySave, DatasetField, DatasetListItem, Page, UsableDataSource } from '@shutu/contracts';
import { API, apiPath, MAX_PAGE_SIZE } from '@shutu/contracts';
import { http, request } from '../../shared/api.ts';

/** cubeList: by category (its sub-categories included; absent: all), name contains, paged. */
export interface DatasetListParams {
  current: number;
  size: number;
  workspaceId?: number;
  cubeName?: string;
}

export const datasetKeys = {
  all: ['dataset'] as const,
  categories: ['dataset', 'categories'] as const,
  listAll: ['dataset', 'list'] as const,
  list: (p: DatasetListParams) => ['dataset', 'list', p] as const,
  fields: (id: number) => ['dataset', 'fields', id] as const,
  usableSources: ['dataset', 'usable-sources'] as const,
  /** Group-level authorisation (the 数据集 tab of 权限设置). */
  authAll: ['dataset', 'auth'] as const,
  authList: (groupId: number, workspaceId: number) => ['dataset', 'auth', groupId, 'list', workspaceId] as const,
  authDetail: (groupId: number, cubeId: number) => ['dataset', 'auth', groupId, 'detail', cubeId] as const,
};

export const fetchCategories = () => http.get<CubeCategory[]>(API.dataset.categories);
/** Writes keep the whole result: `msg` is the server's success message. */
export const saveCategory = (body: CubeCategorySave) => request<CubeCategory>(API.dataset.categories, { method: 'POST', body });
export const deleteCategory = (id: number) => request<null>(apiPath(API.dataset.category, { id }), { method: 'DELETE' });

export const fetchDatasets = (p: DatasetListParams) => http.get<Page<DatasetListItem>>(API.dataset.cubes, { ...p });
/** cubeList of a category (its sub-categories included; 0: all) as one page (size 10000). */
export const fetchAllDatasets = (workspaceId: number) =>
  http.get<Page<DatasetListItem>>(API.dataset.cubes, { workspaceId, current: 1, size: MAX_PAGE_SIZE }).then((p) => p.records);
export const deleteDataset = (id: number) => request<null>(apiPath(API.dataset.cube, { id }), { method: 'DELETE' });
export const fetchDatasetFields = (id: number) => http.get<DatasetField[]>(apiPath(API.dataset.fields, { id }));

/** The sources the caller may build datasets on. */
export const fetchUsableSources = () => http.get<UsableDataSource[]>(API.datasource.usable);

export const fetchAuthCubeIds = (groupId: number, cubeWorkspaceId: number) =>
  http.get<number[]>(apiPath(API.dataset.authCubes, { dataPermId: groupId }), { cubeWorkspaceId });
export const fetchAuthCubeDetail = (groupId: number, cubeDataId: number) =>
  http.get<AuthCubeDetail>(apiPath(API.dataset.authCube, { dataPermId: groupId, cubeDataId }));
/** Replaces the group's grants among the datasets of the category (sub-categories included). */
export const saveAuthCubes = (groupId: number, cubeWorkspaceId: number, dataIdList: number[]) =>
  request<number[]>(apiPath(API.dataset.authCubes, { dataPermId: groupId }), { method: 'PUT', body: { cubeWorkspaceId, dataIdList } });

/** Where 打开 and 新建数据集 go: the editor (full screen). */
export const editorPath = (q: { id: number } | { sourceid: number; ws: number }) =>
  'id' in q ? `/newbi/dataset/edit?id=${q.id}` : `/newbi/dataset/edit?sourceid=${q.sourceid}&ws=${q.ws}`;
