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

/** How often a loading process renews its reservation's heartbeat. */
export const HEARTBEAT_MS = 5_000;
/** A reservation whose heartbeat is older than this belongs to a dead process (as for jobs: platform/jobs/recovery.ts). */
export const STALE_AFTER_MS = 30_000;

/** The time `ms` ago by the database's clock (processes on several hosts compare one clock). */
const dbAgo = (ms: number) => sql<Date>`now() - ${ms / 1000} * interval '1 second'`;

/** A reservation of a load that has not been published yet. */
export interface PendingLoad {
  id: number;
  datasourceId: number;
  tableName: string;
  status: 'loading' | 'publishing';
  /** Null on rows from before 0014: those loaded under the table's own name. */
  stagingName: string | null;
  ownerInstance: string | null;
  /** No heartbeat for STALE_AFTER_MS (or none at all). */
  stale: boolean;
}

/**
 * Reserves the name before rows are loaded: a 'loading' row owned by `ownerInstance`, naming
 * the staging table. A second upload of the same name (also a simultaneous one) fails on the
 * unique index. Returns the id.
 */
export async function reserveFileTable(
  db: Db,
  values: {
    datasourceId: number;
    tableName: string;
    tableComment: string;
    fileName: string;
    columns: FileColumn[];
    createUserId: number | null;
    stagingName: string;
    ownerInstance: string;
  },
): Promise<number> {
  const { columns, ...rest } = values;
  const row = await db
    .insertInto('fileTable')
    .values({ ...rest, columnsJson: JSON.stringify(columns), status: 'loading', heartbeatTime: sql<Date>`now()` })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Unpublished reservations, of one source and name (ignoring case) when given. */
export async function pendingLoads(db: Db, where: { datasourceId?: number; tableName?: string } = {}): Promise<PendingLoad[]> {
  let query = db
    .selectFrom('fileTable')
    .select(['id', 'datasourceId', 'tableName', 'status', 'stagingName', 'ownerInstance'])
    .select(sql<boolean>`coalesce(heartbeat_time < ${dbAgo(STALE_AFTER_MS)}, true)`.as('stale'))
    .where('status', '!=', 'ready');
  if (where.datasourceId !== undefined) query = query.where('datasourceId', '=', where.datasourceId);
  if (where.tableName !== undefined) query = query.where(sql<string>`lower(table_name)`, '=', where.tableName.toLowerCase());
  const rows = await query.orderBy('id').execute();
  return rows.map((r) => ({ ...r, status: r.status as PendingLoad['status'] }));
}

/** Renews the heartbeat while the load is still this owner's. False when it is not (taken over, deleted). */
export async function renewFileTableHeartbeat(db: Db, id: number, ownerInstance: string): Promise<boolean> {
  const result = await db
    .updateTable('fileTable')
    .set({ heartbeatTime: sql<Date>`now()` })
    .where('id', '=', id)
    .where('ownerInstance', '=', ownerInstance)
    .where('status', '!=', 'ready')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Takes over a dead owner's reservation: atomic, so of two processes recovering it one wins.
 * `from` is the owner the caller saw (null: abandoned).
 */
export async function claimFileTable(db: Db, id: number, from: string | null, to: string): Promise<boolean> {
  const result = await db
    .updateTable('fileTable')
    .set({ ownerInstance: to, heartbeatTime: sql<Date>`now()` })
    .where('id', '=', id)
    .where('status', '!=', 'ready')
    .where(sql<boolean>`owner_instance is not distinct from ${from}`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Leaves a reservation to recovery (its staging table could not be dropped, its publishing not settled). */
export async function abandonFileTable(db: Db, id: number, ownerInstance: string): Promise<void> {
  await db.updateTable('fileTable').set({ ownerInstance: null }).where('id', '=', id).where('ownerInstance', '=', ownerInstance).execute();
}

/** All rows are loaded: the rename comes next. False when the reservation is no longer this owner's. */
export async function markFileTablePublishing(db: Db, id: number, ownerInstance: string, rowCount: number): Promise<boolean> {
  const result = await db
    .updateTable('fileTable')
    .set({ status: 'publishing', rowCount, updateTime: new Date() })
    .where('id', '=', id)
    .where('ownerInstance', '=', ownerInstance)
    .where('status', '=', 'loading')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The table has its name: the file table is visible. */
export async function markFileTableReady(db: Db, id: number): Promise<void> {
  await db
    .updateTable('fileTable')
    .set({ status: 'ready', stagingName: null, ownerInstance: null, heartbeatTime: null, updateTime: new Date() })
    .where('id', '=', id)
    .execute();
}

/** Drops an unpublished reservation (of `ownerInstance` only, when given). */
export async function deleteFileTableRow(db: Db, id: number, ownerInstance?: string): Promise<void> {
  let query = db.deleteFrom('fileTable').where('id', '=', id).where('status', '!=', 'ready');
  if (ownerInstance !== undefined) query = query.where('ownerInstance', '=', ownerInstance);
  await query.execute();
}
