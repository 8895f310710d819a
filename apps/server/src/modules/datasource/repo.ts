import type { Kysely, Selectable } from 'kysely';
import type { Database, DataSourceTable } from '../../platform/db/schema.ts';

type Db = Kysely<Database>;

/** A data_source row, password ciphertext included: never send it as is. */
export type DataSourceRow = Selectable<DataSourceTable>;

/** The columns a save writes (name, connection settings, remark). */
export type DataSourceValues = Pick<DataSourceRow, 'dsName' | 'type' | 'host' | 'port' | 'database' | 'username' | 'passwordEncrypted' | 'path' | 'remark'>;

/** An ILIKE pattern matching `text` anywhere, with the wildcards in it taken literally. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listDataSources(db: Db, keyword: string | undefined, offset: number, limit: number): Promise<{ rows: DataSourceRow[]; total: number }> {
  let query = db.selectFrom('dataSource');
  if (keyword) {
    const p = containsPattern(keyword);
    query = query.where((eb) => eb.or([eb('dsName', 'ilike', p), eb('remark', 'ilike', p), eb('host', 'ilike', p), eb('database', 'ilike', p)]));
  }
  const [rows, count] = await Promise.all([
    // The built-in warehouse first, then in order of creation.
    query.selectAll().orderBy('isBuiltin', 'desc').orderBy('id').offset(offset).limit(limit).execute(),
    query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Sources by id (all when `ids` is undefined), the built-in warehouse first. */
export function listDataSourcesByIds(db: Db, ids: readonly number[] | undefined): Promise<DataSourceRow[]> {
  let query = db.selectFrom('dataSource').selectAll();
  if (ids) query = query.where('id', 'in', ids);
  return query.orderBy('isBuiltin', 'desc').orderBy('id').execute();
}

export function findDataSourceRow(db: Db, id: number): Promise<DataSourceRow | undefined> {
  return db.selectFrom('dataSource').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findDataSourceRowForUpdate(db: Db, id: number): Promise<DataSourceRow | undefined> {
  return db.selectFrom('dataSource').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function findBuiltinRow(db: Db): Promise<DataSourceRow | undefined> {
  return db.selectFrom('dataSource').selectAll().where('isBuiltin', '=', true).executeTakeFirst();
}

/** A process's own embedded warehouse row (not the built-in one), by its owner. */
export function findLocalRow(db: Db, localOwner: string): Promise<DataSourceRow | undefined> {
  return db.selectFrom('dataSource').selectAll().where('localOwner', '=', localOwner).where('isBuiltin', '=', false).executeTakeFirst();
}

/** Whether another source (not `exceptId`) already has this name, compared case-insensitively. */
export async function nameTaken(db: Db, name: string, exceptId?: number): Promise<boolean> {
  let query = db
    .selectFrom('dataSource')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['dsName']), '=', name.toLowerCase()));
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertDataSource(db: Db, values: DataSourceValues & { isBuiltin?: boolean; localOwner?: string | null }): Promise<number> {
  const row = await db.insertInto('dataSource').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateDataSource(db: Db, id: number, values: Partial<DataSourceValues & { localOwner: string | null }>): Promise<void> {
  await db
    .updateTable('dataSource')
    .set({ ...values, updateTime: new Date() })
    .where('id', '=', id)
    .execute();
}

/** Names of the datasets built on the source (first `limit`, by id) and how many there are. */
export async function datasetsOfSource(db: Db, id: number, limit = 5): Promise<{ count: number; names: string[] }> {
  const [rows, count] = await Promise.all([
    db.selectFrom('cube').select('cubeName').where('datasourceId', '=', id).orderBy('id').limit(limit).execute(),
    db
      .selectFrom('cube')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('datasourceId', '=', id)
      .executeTakeFirstOrThrow(),
  ]);
  return { count: Number(count.n), names: rows.map((r) => r.cubeName) };
}

export async function deleteDataSource(db: Db, id: number): Promise<number> {
  const result = await db.deleteFrom('dataSource').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}
