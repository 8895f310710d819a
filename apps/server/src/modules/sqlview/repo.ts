import { sql, type Kysely } from 'kysely';
import type { SqlView } from '@shutu/contracts';
import type { Database } from '../../platform/db/schema.ts';

type Db = Kysely<Database>;

const COLUMNS = ['id', 'datasourceId', 'sqlName', 'viewName', 'sqlStatement', 'createUserId', 'createTime', 'updateTime'] as const;

interface Row {
  id: number;
  datasourceId: number;
  sqlName: string;
  viewName: string;
  sqlStatement: string;
  createUserId: number | null;
  createTime: Date;
  updateTime: Date;
}

const toSqlView = (r: Row): SqlView => ({ ...r, createTime: new Date(r.createTime).toISOString(), updateTime: new Date(r.updateTime).toISOString() });

export interface SqlViewValues {
  datasourceId: number;
  sqlName: string;
  viewName: string;
  sqlStatement: string;
}

export async function listSqlViews(db: Db, datasourceId: number): Promise<SqlView[]> {
  const rows = await db.selectFrom('sqlView').select(COLUMNS).where('datasourceId', '=', datasourceId).orderBy('id', 'desc').execute();
  return rows.map(toSqlView);
}

export async function findSqlView(db: Db, id: number): Promise<SqlView | undefined> {
  const row = await db.selectFrom('sqlView').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row && toSqlView(row);
}

/** Whether another view of the data source has this name (ignoring case). */
export async function viewNameTaken(db: Db, datasourceId: number, viewName: string, exceptId?: number): Promise<boolean> {
  let query = db
    .selectFrom('sqlView')
    .select('id')
    .where('datasourceId', '=', datasourceId)
    .where(sql<string>`lower(view_name)`, '=', viewName.toLowerCase());
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertSqlView(db: Db, values: SqlViewValues & { createUserId: number | null }): Promise<number> {
  const row = await db.insertInto('sqlView').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateSqlView(db: Db, id: number, values: SqlViewValues): Promise<boolean> {
  const result = await db
    .updateTable('sqlView')
    .set({ ...values, updateTime: new Date() })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteSqlView(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('sqlView').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
