import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, PptPdfTaskTable } from '../../platform/db/schema.ts';

/** SQL of slideshow PDF tasks (ppt_pdf_task, migration 0011). */
type Db = Kysely<Database>;

export type PdfTaskRow = Selectable<PptPdfTaskTable>;

export async function insertPdfTask(db: Db, values: Omit<Insertable<PptPdfTaskTable>, 'createTime'>): Promise<void> {
  await db.insertInto('pptPdfTask').values(values).execute();
}

export function findPdfTask(db: Db, id: string): Promise<PdfTaskRow | undefined> {
  return db.selectFrom('pptPdfTask').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Updates a task; with `runId`, only while that run still owns it (a run whose process was presumed dead writes nothing). */
export async function updatePdfTask(db: Db, id: string, values: Updateable<PptPdfTaskTable>, runId?: string | null): Promise<void> {
  let query = db.updateTable('pptPdfTask').set(values).where('id', '=', id);
  if (runId) query = query.where('runId', '=', runId);
  await query.execute();
}

export async function deletePdfTask(db: Db, id: string): Promise<void> {
  await db.deleteFrom('pptPdfTask').where('id', '=', id).execute();
}

/** Moves a waiting task to running, owned by the job run `runId`; false when another worker took it or it is gone. */
export async function claimPdfTask(db: Db, id: string, now: Date, runId: string | null = null): Promise<boolean> {
  const result = await db
    .updateTable('pptPdfTask')
    .set({ status: 'running', startTime: now, rendered: 0, runId })
    .where('id', '=', id)
    .where('status', '=', 'waiting')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The run `runId` died: its task (if that run still owns it and it is not finished) fails with `errMsg`. */
export async function failRunPdfTask(db: Db, id: string, runId: string, errMsg: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('pptPdfTask')
    // No owner any more: should the run's process still be alive after all, its writes change nothing.
    .set({ status: 'failed', errMsg, finishTime: now, runId: null })
    .where('id', '=', id)
    .where('runId', '=', runId)
    .where('status', 'in', ['waiting', 'running'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Tasks created before `before` (housekeeping), oldest first. */
export function findPdfTasksCreatedBefore(db: Db, before: Date, limit: number): Promise<Pick<PdfTaskRow, 'id' | 'filePath'>[]> {
  return db.selectFrom('pptPdfTask').select(['id', 'filePath']).where('createTime', '<', before).orderBy('createTime').limit(limit).execute();
}

export async function deletePdfTasks(db: Db, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.deleteFrom('pptPdfTask').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Tasks still running since before `startedBefore` belong to a stopped process: failed. */
export async function failStalePdfTasks(db: Db, startedBefore: Date, errMsg: string, now: Date): Promise<number> {
  const result = await db
    .updateTable('pptPdfTask')
    .set({ status: 'failed', errMsg, finishTime: now })
    .where('status', '=', 'running')
    .where('startTime', '<', startedBefore)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A failed task back to waiting, as new (its user retries it from 任务管理); false unless it was failed. */
export async function resetFailedPdfTask(db: Db, id: string): Promise<boolean> {
  const result = await db
    .updateTable('pptPdfTask')
    .set({ status: 'waiting', rendered: 0, filePath: null, errMsg: null, startTime: null, finishTime: null, runId: null })
    .where('id', '=', id)
    .where('status', '=', 'failed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
