import type { ExpressionBuilder, Kysely } from 'kysely';
import type { TableRef } from '@shutu/contracts';
import type { Database } from '../../platform/db/schema.ts';

type Db = Kysely<Database>;

/** An ILIKE pattern matching `text` anywhere, with the wildcards in it taken literally. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// ---------------------------------------------------------------------------------------
// Group types (categories)

const TYPE_COLUMNS = ['id', 'typeName', 'sortNum'] as const;

export function listTypes(db: Db) {
  return db.selectFrom('permType').select(TYPE_COLUMNS).orderBy('sortNum').orderBy('id').execute();
}

export function findType(db: Db, id: number) {
  return db.selectFrom('permType').select(TYPE_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** The type, locked `for share`: it cannot be deleted until the transaction ends. */
export function findTypeForShare(db: Db, id: number) {
  return db.selectFrom('permType').select('id').where('id', '=', id).forShare().executeTakeFirst();
}

/** The type, locked `for update`: no group can be moved into it until the transaction ends. */
export function findTypeForUpdate(db: Db, id: number) {
  return db.selectFrom('permType').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function insertType(db: Db, values: { typeName: string; sortNum: number }): Promise<number> {
  const row = await db.insertInto('permType').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Rows changed: 0 when there is no such type. */
export async function updateType(db: Db, id: number, values: { typeName: string; sortNum?: number }): Promise<number> {
  const result = await db.updateTable('permType').set(values).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteType(db: Db, id: number): Promise<number> {
  const result = await db.deleteFrom('permType').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function countGroupsOfType(db: Db, typeId: number): Promise<number> {
  const row = await db
    .selectFrom('permGroup')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('typeId', '=', typeId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---------------------------------------------------------------------------------------
// Groups

export interface GroupRow {
  id: number;
  permName: string;
  typeId: number;
  typeName: string;
  permJson: string;
  createTime: Date;
  updateTime: Date;
}

function groupQuery(db: Db) {
  return db
    .selectFrom('permGroup as g')
    .innerJoin('permType as t', 't.id', 'g.typeId')
    .select(['g.id', 'g.permName', 'g.typeId', 't.typeName', 'g.permJson', 'g.createTime', 'g.updateTime']);
}

export interface GroupFilter {
  /** Name contains, case-insensitively. */
  permName?: string | undefined;
  /** One type; undefined or -1: every type. */
  typeId?: number | undefined;
}

function groupFilter(filter: GroupFilter) {
  return (eb: ExpressionBuilder<Database & { g: Database['permGroup'] }, 'g'>) => {
    const conditions = [];
    if (filter.permName) conditions.push(eb('g.permName', 'ilike', containsPattern(filter.permName)));
    if (filter.typeId !== undefined && filter.typeId !== -1) conditions.push(eb('g.typeId', '=', filter.typeId));
    return eb.and(conditions);
  };
}

/** A page of groups, newest first. */
export async function pageGroups(db: Db, filter: GroupFilter, offset: number, limit: number): Promise<{ rows: GroupRow[]; total: number }> {
  const where = groupFilter(filter);
  const [rows, count] = await Promise.all([
    groupQuery(db).where(where).orderBy('g.id', 'desc').offset(offset).limit(limit).execute(),
    db
      .selectFrom('permGroup as g')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where(where)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export function findGroup(db: Db, id: number): Promise<GroupRow | undefined> {
  return groupQuery(db).where('g.id', '=', id).executeTakeFirst();
}

/** The group, locked `for share`: it cannot be deleted until the transaction ends. */
export async function groupExistsForShare(db: Db, id: number): Promise<boolean> {
  return (await db.selectFrom('permGroup').select('id').where('id', '=', id).forShare().executeTakeFirst()) !== undefined;
}

/** Groups by id, ordered as "my groups" lists them: by their type's order, then by name. */
export function listGroupsByIds(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('permGroup as g')
    .innerJoin('permType as t', 't.id', 'g.typeId')
    .select(['g.id', 'g.permName', 'g.typeId', 't.typeName'])
    .where('g.id', 'in', [...ids])
    .orderBy('t.sortNum')
    .orderBy('t.id')
    .orderBy('g.permName')
    .orderBy('g.id')
    .execute();
}

export interface GroupValues {
  permName: string;
  typeId: number;
  /** PermJson as JSON text. */
  permJson: string;
}

export async function insertGroup(db: Db, values: GroupValues): Promise<number> {
  const row = await db.insertInto('permGroup').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Rows changed: 0 when there is no such group. */
export async function updateGroup(db: Db, id: number, values: GroupValues): Promise<number> {
  const result = await db
    .updateTable('permGroup')
    .set({ ...values, updateTime: new Date() })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes the group; its table and resource grants go with it (on delete cascade). */
export async function deleteGroup(db: Db, id: number): Promise<number> {
  const result = await db.deleteFrom('permGroup').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---------------------------------------------------------------------------------------
// Members: current names of the departments, roles and users a group lists

/** Department names by id, for the ids that exist. */
export async function deptNames(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('sysDept')
    .select(['id', 'deptName'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, r.deptName]));
}

export async function roleNames(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('sysRole')
    .select(['id', 'roleName'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, r.roleName]));
}

/** A user's shown name: the real name when there is one, else the name. */
export async function userNames(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('sysUser')
    .select(['id', 'name', 'realName'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, r.realName || r.name]));
}

// ---------------------------------------------------------------------------------------
// Data-source table grants

export interface TableGrantRow {
  datasourceId: number;
  dsName: string;
  type: Database['dataSource']['type'];
  tableSchema: string;
  tableName: string;
}

/** The tables granted to a group, with their source's name and engine, by source then table. */
export function listTableGrants(db: Db, permId: number): Promise<TableGrantRow[]> {
  return db
    .selectFrom('permGrantTable as g')
    .innerJoin('dataSource as s', 's.id', 'g.datasourceId')
    .select(['g.datasourceId', 's.dsName', 's.type', 'g.tableSchema', 'g.tableName'])
    .where('g.permId', '=', permId)
    .orderBy('g.datasourceId')
    .orderBy('g.tableSchema')
    .orderBy('g.tableName')
    .execute();
}

export type ReplaceOutcome = 'ok' | 'noGroup' | 'noSource';

/**
 * Replaces the tables of one source granted to a group, in one transaction: the old list
 * goes, the new one comes (an empty list just removes the source). The group and the
 * source are locked `for share` first, so neither can vanish half-way.
 */
export function replaceTableGrants(db: Db, permId: number, datasourceId: number, tables: readonly TableRef[]): Promise<ReplaceOutcome> {
  return db.transaction().execute(async (trx) => {
    if (!(await groupExistsForShare(trx, permId))) return 'noGroup';
    const source = await trx.selectFrom('dataSource').select('id').where('id', '=', datasourceId).forShare().executeTakeFirst();
    if (!source) return 'noSource';
    await trx.deleteFrom('permGrantTable').where('permId', '=', permId).where('datasourceId', '=', datasourceId).execute();
    if (tables.length > 0) {
      await trx
        .insertInto('permGrantTable')
        .values(tables.map((t) => ({ permId, datasourceId, tableSchema: t.schema, tableName: t.name })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    return 'ok';
  });
}

// ---------------------------------------------------------------------------------------
// Generic grants (datasets, slides, screens, reports, apps, links)

/** Ids of one kind of resource granted to a group, in id order. */
export async function listGrantIds(db: Db, permId: number, kind: string): Promise<number[]> {
  const rows = await db.selectFrom('permGrant').select('resourceId').where('permId', '=', permId).where('kind', '=', kind).orderBy('resourceId').execute();
  return rows.map((r) => r.resourceId);
}

/**
 * Replaces a group's grants of one kind by `ids`, in one transaction. With `within`, only
 * grants among those ids are replaced (e.g. the reports of one category) and the others
 * stay; ids outside `within` are ignored. False when there is no such group.
 */
export function replaceGrants(db: Db, permId: number, kind: string, ids: readonly number[], within?: readonly number[]): Promise<boolean> {
  const scope = within && new Set(within);
  const wanted = [...new Set(ids)].filter((id) => !scope || scope.has(id));
  return db.transaction().execute(async (trx) => {
    if (!(await groupExistsForShare(trx, permId))) return false;
    if (scope?.size === 0) return true;
    let remove = trx.deleteFrom('permGrant').where('permId', '=', permId).where('kind', '=', kind);
    if (scope) remove = remove.where('resourceId', 'in', [...scope]);
    await remove.execute();
    if (wanted.length > 0) {
      await trx
        .insertInto('permGrant')
        .values(wanted.map((resourceId) => ({ permId, kind, resourceId })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    return true;
  });
}

/** The groups a resource is granted to. */
export async function listGroupIdsOf(db: Db, kind: string, resourceId: number): Promise<number[]> {
  const rows = await db.selectFrom('permGrant').select('permId').where('kind', '=', kind).where('resourceId', '=', resourceId).orderBy('permId').execute();
  return rows.map((r) => r.permId);
}

/** The groups a resource is granted to become exactly `permIds`, in one transaction (the groups must exist). */
export async function setGroupsOf(db: Db, kind: string, resourceId: number, permIds: readonly number[]): Promise<void> {
  const wanted = [...new Set(permIds)];
  const write = async (trx: Db) => {
    await trx.deleteFrom('permGrant').where('kind', '=', kind).where('resourceId', '=', resourceId).execute();
    if (wanted.length > 0)
      await trx
        .insertInto('permGrant')
        .values(wanted.map((permId) => ({ permId, kind, resourceId })))
        .execute();
  };
  // Inside the caller's transaction (grants saved with their resource), or in one of its own.
  if (db.isTransaction) await write(db);
  else await db.transaction().execute(write);
}

/** Removes every grant of a resource (its module calls this when deleting it); returns how many went. */
export async function removeGrantsOf(db: Db, kind: string, resourceId: number): Promise<number> {
  const result = await db.deleteFrom('permGrant').where('kind', '=', kind).where('resourceId', '=', resourceId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
