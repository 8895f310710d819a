import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';

type Db = Kysely<Database>;
type DictEb = ExpressionBuilder<Database, 'sysDict'>;

/** An ILIKE pattern matching `text` anywhere, with the wildcards in it taken literally. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const COLUMNS = ['id', 'parentId', 'code', 'dictKey', 'dictValue', 'sort', 'isSealed', 'remark'] as const;

export interface DictRow {
  id: number;
  parentId: number;
  code: string;
  dictKey: number;
  dictValue: string;
  sort: number;
  isSealed: number;
  remark: string | null;
}

const childCount = (eb: DictEb) =>
  eb
    .selectFrom('sysDict as c')
    .select((e) => e.fn.countAll<string>().as('n'))
    .whereRef('c.parentId', '=', 'sysDict.id')
    .as('childCount');

/** Parents whose code or name contains `query`. */
function parentFilter(query: string | undefined) {
  return (eb: DictEb) => {
    const conditions = [eb('parentId', '=', 0)];
    if (query) {
      const p = containsPattern(query);
      conditions.push(eb.or([eb('code', 'ilike', p), eb('dictValue', 'ilike', p)]));
    }
    return eb.and(conditions);
  };
}

/** Entries of one parent whose name or key contains `query` (all share the parent's code). */
function childFilter(parentId: number, query: string | undefined) {
  return (eb: DictEb) => {
    const conditions = [eb('parentId', '=', parentId)];
    if (query) {
      const p = containsPattern(query);
      conditions.push(eb.or([eb('dictValue', 'ilike', p), eb(eb.cast('dictKey', 'text'), 'ilike', p)]));
    }
    return eb.and(conditions);
  };
}

async function countWhere(db: Db, where: (eb: DictEb) => ReturnType<DictEb['and']>): Promise<number> {
  const row = await db
    .selectFrom('sysDict')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where(where)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listParents(db: Db, query: string | undefined, offset: number, limit: number) {
  const where = parentFilter(query);
  const [rows, total] = await Promise.all([
    db.selectFrom('sysDict').select(COLUMNS).select(childCount).where(where).orderBy('sort').orderBy('id').offset(offset).limit(limit).execute(),
    countWhere(db, where),
  ]);
  return { rows: rows.map((r) => ({ ...r, childCount: Number(r.childCount) })), total };
}

export async function listChildren(db: Db, parentId: number, query: string | undefined, offset: number, limit: number) {
  const where = childFilter(parentId, query);
  const [rows, total] = await Promise.all([
    db.selectFrom('sysDict').select(COLUMNS).where(where).orderBy('sort').orderBy('id').offset(offset).limit(limit).execute(),
    countWhere(db, where),
  ]);
  return { rows, total };
}

export async function findDict(db: Db, id: number): Promise<(DictRow & { childCount: number }) | undefined> {
  const row = await db.selectFrom('sysDict').select(COLUMNS).select(childCount).where('id', '=', id).executeTakeFirst();
  return row && { ...row, childCount: Number(row.childCount) };
}

/** A parent entry, locked `for share`: it cannot be deleted or recoded until the transaction ends. */
export function findParentForShare(db: Db, id: number) {
  return db.selectFrom('sysDict').select(['id', 'code']).where('id', '=', id).where('parentId', '=', 0).forShare().executeTakeFirst();
}

export function findDictForUpdate(db: Db, id: number) {
  return db.selectFrom('sysDict').select(['id', 'parentId', 'code']).where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function parentCodeTaken(db: Db, code: string, exceptId?: number): Promise<boolean> {
  let query = db.selectFrom('sysDict').select('id').where('parentId', '=', 0).where('code', '=', code);
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function childKeyTaken(db: Db, parentId: number, dictKey: number, exceptId?: number): Promise<boolean> {
  let query = db.selectFrom('sysDict').select('id').where('parentId', '=', parentId).where('dictKey', '=', dictKey);
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export type DictValues = Omit<DictRow, 'id'>;

export async function insertDict(db: Db, values: DictValues): Promise<number> {
  const row = await db.insertInto('sysDict').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateDict(db: Db, id: number, values: Omit<DictValues, 'parentId'>): Promise<void> {
  await db
    .updateTable('sysDict')
    .set({ ...values, updateTime: new Date() })
    .where('id', '=', id)
    .execute();
}

export async function updateChildrenCode(db: Db, parentId: number, code: string): Promise<void> {
  await db.updateTable('sysDict').set({ code, updateTime: new Date() }).where('parentId', '=', parentId).execute();
}

/**
 * The rows of `ids` that exist, locked until the transaction ends. In id order: a parent
 * is always older than its children, so this locks parents first, like every other writer.
 */
export function lockDicts(db: Db, ids: number[]) {
  return db.selectFrom('sysDict').select(['id', 'parentId']).where('id', 'in', ids).orderBy('id').forUpdate().execute();
}

/** How many children of `parentIds` are not themselves among `ids`. */
export async function countChildrenOutside(db: Db, parentIds: number[], ids: number[]): Promise<number> {
  if (parentIds.length === 0) return 0;
  const row = await db
    .selectFrom('sysDict')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('parentId', 'in', parentIds)
    .where('id', 'not in', ids)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteDicts(db: Db, ids: number[]): Promise<number> {
  const result = await db.deleteFrom('sysDict').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}
