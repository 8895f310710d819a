import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { OrderExportStatus } from '@shutu/contracts';
import type { Database, OrderExportTaskTable } from '../../platform/db/schema.ts';

type Db = Kysely<Database>;

export type OrderTaskRow = Selectable<OrderExportTaskTable> & { creator: string | null };
export interface StatusEntry {
  status: number;
  time: string;
  rows: number;
}

function withCreator(db: Db) {
  return db.selectFrom('orderExportTask as t').leftJoin('sysUser as u', 'u.id', 't.userId').selectAll('t').select('u.realName as creator');
}

export async function insertTask(db: Db, values: Omit<Insertable<OrderExportTaskTable>, 'id' | 'createTime' | 'statusLog'>): Promise<number> {
  const log: StatusEntry[] = [{ status: 0, time: new Date().toISOString(), rows: 0 }];
  const row = await db
    .insertInto('orderExportTask')
    .values({ ...values, statusLog: JSON.stringify(log) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function findTask(db: Db, id: number): Promise<OrderTaskRow | undefined> {
  return withCreator(db).where('t.id', '=', id).executeTakeFirst();
}

export interface TaskFilter {
  userId: number;
  name?: string;
  /** Creation days, inclusive (yyyy-MM-dd), compared in UTC+8 (the product's calendar). */
  from?: string;
  to?: string;
}

export async function findTaskPage(db: Db, filter: TaskFilter, offset: number, limit: number): Promise<{ rows: OrderTaskRow[]; total: number }> {
  let query = withCreator(db).where('t.userId', '=', filter.userId);
  if (filter.name) query = query.where('t.mcomment', 'ilike', `%${filter.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  if (filter.from) query = query.where('t.createTime', '>=', new Date(`${filter.from}T00:00:00+08:00`));
  if (filter.to) query = query.where('t.createTime', '<', new Date(new Date(`${filter.to}T00:00:00+08:00`).getTime() + 86_400_000));
  const [rows, count] = await Promise.all([
    query.orderBy('t.createTime', 'desc').orderBy('t.id', 'desc').offset(offset).limit(limit).execute(),
    query
      .clearSelect()
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Updates a task; with `runId`, only while that run still owns it. False when nothing was updated. */
export async function updateTask(db: Db, id: number, values: Updateable<OrderExportTaskTable>, runId?: string | null): Promise<boolean> {
  let query = db
    .updateTable('orderExportTask')
    .set({ ...values, updateTime: new Date() })
    .where('id', '=', id);
  if (runId) query = query.where('runId', '=', runId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Moves the task to `status`, appending { status, time, rows } to its log in the same statement;
 * only while `runId` owns it (when given) and, with `from`, only from one of those statuses.
 */
export async function moveTask(
  db: Db,
  id: number,
  status: OrderExportStatus,
  rows: number,
  runId: string | null,
  extra: Updateable<OrderExportTaskTable> = {},
  from?: readonly OrderExportStatus[],
): Promise<boolean> {
  const entry = JSON.stringify([{ status, time: new Date().toISOString(), rows }]);
  let query = db
    .updateTable('orderExportTask')
    .set({ ...extra, taskStatus1: status, progress: rows, updateTime: new Date(), statusLog: sql<string>`(status_log::jsonb || ${entry}::jsonb)::text` })
    .where('id', '=', id);
  if (runId) query = query.where('runId', '=', runId);
  if (from) query = query.where('taskStatus1', 'in', [...from]);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The run_id of a task whose process died and that waits to be resumed (jobs.ts). */
export const RESUME_RUN = 'resume';

/** Claims a task for the run `runId`: a new task (0, no run yet) or one waiting to be resumed. */
export async function claimTask(db: Db, id: number, runId: string | null): Promise<boolean> {
  const result = await db
    .updateTable('orderExportTask')
    .set({ runId, updateTime: new Date() })
    .where('id', '=', id)
    .where((eb) => eb.or([eb.and([eb('taskStatus1', '=', 0), eb('runId', 'is', null)]), eb('runId', '=', RESUME_RUN)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Tasks whose files are older than `before` and not yet cleaned. */
export function findExpirable(db: Db, before: Date): Promise<OrderTaskRow[]> {
  return withCreator(db).where('t.createTime', '<', before).where('t.expiredAt', 'is', null).where('t.taskStatus1', 'in', [9, 8, 6, 3]).execute();
}

export function findUser(db: Db, id: number) {
  return db.selectFrom('sysUser').select(['id', 'isAdministrator', 'status']).where('id', '=', id).executeTakeFirst();
}
