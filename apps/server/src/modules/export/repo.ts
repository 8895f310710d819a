import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { ExportStatus, TaskKind } from '@shutu/contracts';
import type { Database, ExportTaskTable } from '../../platform/db/schema.ts';

type Db = Kysely<Database>;

/** A task with its board's current title (null once the board is gone). */
export type ExportTaskRow = Selectable<ExportTaskTable> & { boardTitle: string | null };

function withBoard(db: Db) {
  return db.selectFrom('exportTask as t').leftJoin('board as b', 'b.id', 't.boardId').selectAll('t').select('b.title as boardTitle');
}

export async function insertTask(db: Db, values: Omit<Insertable<ExportTaskTable>, 'id' | 'createTime'>): Promise<number> {
  const row = await db.insertInto('exportTask').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findTask(db: Db, id: number): Promise<ExportTaskRow | undefined> {
  return withBoard(db).where('t.id', '=', id).executeTakeFirst();
}

export interface TaskFilter {
  userId: number;
  boardId?: number;
  chartKey?: string;
  status?: ExportStatus;
}

/** The user's tasks (of one chart, of one status), newest first. */
export async function findTaskPage(db: Db, filter: TaskFilter, offset: number, limit: number): Promise<{ rows: ExportTaskRow[]; total: number }> {
  let query = withBoard(db).where('t.userId', '=', filter.userId);
  if (filter.boardId !== undefined) query = query.where('t.boardId', '=', filter.boardId);
  if (filter.chartKey !== undefined) query = query.where('t.chartKey', '=', filter.chartKey);
  if (filter.status !== undefined) query = query.where('t.status', '=', filter.status);
  const [rows, count] = await Promise.all([
    query.orderBy('t.createTime', 'desc').orderBy('t.id', 'desc').offset(offset).limit(limit).execute(),
    query
      .clearSelect()
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/**
 * Updates a task; with `runId`, only while that run still owns it (a run whose task was taken
 * over after its process was presumed dead, or retried since, writes nothing). False when nothing was updated.
 */
export async function updateTask(db: Db, id: number, values: Updateable<ExportTaskTable>, runId?: string | null): Promise<boolean> {
  let query = db.updateTable('exportTask').set(values).where('id', '=', id);
  if (runId) query = query.where('runId', '=', runId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Moves a waiting task to running, owned by the job run `runId`; false when another worker took it or it is gone. */
export async function claimTask(db: Db, id: number, now: Date, runId: string | null = null): Promise<boolean> {
  const result = await db
    .updateTable('exportTask')
    .set({ status: 'running', startTime: now, progress: 0, rowCount: 0, runId })
    .where('id', '=', id)
    .where('status', '=', 'waiting')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The run `runId` died: its task (if that run still owns it — null: a task no run owns — and it
 * is not finished) fails with `errMsg`.
 */
export async function failRunTask(db: Db, id: number, runId: string | null, errMsg: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('exportTask')
    // No owner any more: should the run's process still be alive after all, its writes change nothing.
    .set({ status: 'failed', errMsg, finishTime: now, runId: null })
    .where('id', '=', id)
    .where('runId', runId === null ? 'is' : '=', runId)
    .where('status', 'in', ['waiting', 'running'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The run `runId` died: its task (if that run still owns it and it is not finished) goes back to
 * waiting, unowned, progress cleared, for a new job to claim. Conditional on the run: of two
 * processes recovering the same run, one moves it; a run that comes back writes nothing.
 */
export async function requeueRunTask(db: Db, id: number, runId: string): Promise<boolean> {
  const result = await db
    .updateTable('exportTask')
    .set({ status: 'waiting', progress: 0, rowCount: 0, totalRows: null, startTime: null, runId: null })
    .where('id', '=', id)
    .where('runId', '=', runId)
    .where('status', 'in', ['waiting', 'running'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A failed task back to waiting, as new (its user retries it); false unless it was failed. */
export async function resetFailedTask(db: Db, id: number): Promise<boolean> {
  const result = await db
    .updateTable('exportTask')
    .set({
      status: 'waiting',
      progress: 0,
      rowCount: 0,
      totalRows: null,
      filePath: null,
      fileSize: null,
      errMsg: null,
      startTime: null,
      finishTime: null,
      runId: null,
    })
    .where('id', '=', id)
    .where('status', '=', 'failed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteTask(db: Db, id: number): Promise<void> {
  await db.deleteFrom('exportTask').where('id', '=', id).execute();
}

/** Tasks created before `before` (housekeeping), with their files. */
export function findTasksCreatedBefore(db: Db, before: Date, limit: number) {
  return db.selectFrom('exportTask').select(['id', 'filePath']).where('createTime', '<', before).orderBy('id').limit(limit).execute();
}

export async function deleteTasks(db: Db, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.deleteFrom('exportTask').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Tasks left running by a process that stopped (started before `before`). */
export async function failStaleRunning(db: Db, before: Date, errMsg: string, now: Date): Promise<number> {
  const result = await db
    .updateTable('exportTask')
    .set({ status: 'failed', errMsg, finishTime: now })
    .where('status', '=', 'running')
    .where('startTime', '<', before)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export function findUser(db: Db, id: number) {
  return db.selectFrom('sysUser').select(['id', 'isAdministrator', 'status']).where('id', '=', id).executeTakeFirst();
}

/** A row of 任务管理: an export task or a slideshow PDF task (ppt_pdf_task, the ppt module's table). */
export interface TaskEntryRow {
  kind: TaskKind;
  id: string;
  fileName: string;
  source: string | null;
  sourceId: number;
  rowCount: number | null;
  totalRows: number | null;
  pages: number | null;
  status: ExportStatus;
  progress: number;
  fileSize: string | number | null;
  errMsg: string | null;
  createTime: Date;
  finishTime: Date | null;
}

export interface TaskEntryFilter {
  userId: number;
  status?: ExportStatus;
  kind?: TaskKind;
}

/**
 * The user's export and PDF tasks in one list, newest first: one query over both tables
 * (UNION ALL), so paging and the count span both kinds. Read here rather than in the ppt
 * module because ppt depends on export (attachmentHeader); the PDF rows are only listed, every
 * action on them stays the ppt module's.
 */
export async function findTaskEntryPage(db: Db, filter: TaskEntryFilter, offset: number, limit: number): Promise<{ rows: TaskEntryRow[]; total: number }> {
  const status = filter.status ? sql`and status = ${filter.status}` : sql``;
  const charts = sql`
    select 'chart' as kind, cast(t.id as varchar(36)) as id, t.file_name, b.title as source, t.board_id as source_id,
           t.row_count, t.total_rows, cast(null as integer) as pages, t.status, t.progress,
           t.file_size, t.err_msg, t.create_time, t.finish_time
    from export_task t left join board b on b.id = t.board_id
    where t.user_id = ${filter.userId} ${status}`;
  const pdfs = sql`
    select 'pdf' as kind, p.id, p.file_name, pp.pp_name as source, p.ppt_id as source_id,
           cast(null as integer) as row_count, cast(null as integer) as total_rows, p.pages, p.status,
           case when p.status = 'done' then 100 when p.pages > 0 then floor(p.rendered * 100 / p.pages) else 0 end as progress,
           cast(null as bigint) as file_size, p.err_msg, p.create_time, p.finish_time
    from ppt_pdf_task p left join ppt pp on pp.id = p.ppt_id
    where p.user_id = ${filter.userId} ${status}`;
  const both = filter.kind === 'chart' ? charts : filter.kind === 'pdf' ? pdfs : sql`${charts} union all ${pdfs}`;
  const [rows, count] = await Promise.all([
    sql<TaskEntryRow>`select * from (${both}) u order by create_time desc, id desc offset ${offset} limit ${limit}`.execute(db),
    sql<{ n: string | number }>`select count(*) as n from (${both}) u`.execute(db),
  ]);
  return { rows: rows.rows.map((r) => ({ ...r, progress: Number(r.progress) })), total: Number(count.rows[0]?.n ?? 0) };
}
