import { sql, type Kysely } from 'kysely';
import type { FileColumn, FileTable } from '@shutu/contracts';
import type { Database } from '../../platform/db/schema.ts';

type Db = Kysely<Database>;

const COLUMNS = ['id', 'datasourceId', 'tableName', 'tableComment', 'fileName', 'columnsJson', 'rowCount', 'createTime'] as const;

interface Row {
  id: number;
  datasourceId: number;
  tableName: string;
  tableComment: string;
  fileName: string;
  columnsJson: string;
  rowCount: string | number;
  createTime: Date;
}

const toFileTable = (r: Row): FileTable => ({
  id: r.id,
  datasourceId: r.datasourceId,
  tableName: r.tableName,
  tableComment: r.tableComment,
  fileName: r.fileName,
  rowCount: Number(r.rowCount),
  columns: JSON.parse(r.columnsJson) as FileColumn[],
  createTime: new Date(r.createTime).toISOString(),
});

/** Loaded file tables of a data source, newest first. */
export async function listFileTables(db: Db, datasourceId: number): Promise<FileTable[]> {
  const rows = await db
    .selectFrom('fileTable')
    .select(COLUMNS)
    .where('datasourceId', '=', datasourceId)
    .where('status', '=', 'ready')
    .orderBy('createTime', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toFileTable);
}

export async function findFileTable(db: Db, id: number): Promise<FileTable | undefined> {
  const row = await db.selectFrom('fileTable').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row && toFileTable(row);
}

/** Loads that never finished (the process died mid-load) stop reserving their name after this long. */
const STALE_LOAD = '1 day';

/**
 * Reserves the name before rows are loaded: a 'loading' row. A second upload of the same name
 * (also a simultaneous one) fails on the unique index. Returns the id.
 */
export async function reserveFileTable(
  db: Db,
  values: { datasourceId: number; tableName: string; tableComment: string; fileName: string; columns: FileColumn[]; createUserId: number | null },
): Promise<number> {
  await db
    .deleteFrom('fileTable')
    .where('datasourceId', '=', values.datasourceId)
    .where(sql<string>`lower(table_name)`, '=', values.tableName.toLowerCase())
    .where('status', '=', 'loading')
    .where('createTime', '<', sql<Date>`now() - ${STALE_LOAD}::interval`)
    .execute();
  const { columns, ...rest } = values;
  const row = await db
    .insertInto('fileTable')
    .values({ ...rest, columnsJson: JSON.stringify(columns), status: 'loading' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function markFileTableReady(db: Db, id: number, rowCount: number): Promise<void> {
  await db.updateTable('fileTable').set({ status: 'ready', rowCount, updateTime: new Date() }).where('id', '=', id).execute();
}

export async function deleteFileTableRow(db: Db, id: number): Promise<void> {
  await db.deleteFrom('fileTable').where('id', '=', id).execute();
}
