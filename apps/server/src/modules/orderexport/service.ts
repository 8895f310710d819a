import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import {
  formatMessage,
  ORDER_EXPORT_JOB,
  ORDER_EXPORT_STATUS as S,
  ORDER_EXPORT_STATUS_LABELS,
  orderExportMessages,
  type OrderExportJobData,
  type OrderExportSettings,
  type OrderExportStatus,
  type OrderExportTask,
  type OrderQueryParsed,
} from '@shutu/contracts';
import type { Logger } from 'pino';
import type { AppContext } from '../../context.ts';
import type { Readable } from 'node:stream';
import { parseRange } from '../../platform/files/range.ts';
import { fileStorage, keyOfPath } from '../../platform/files/storage.ts';
import type { Upload } from '../../platform/files/upload.ts';
import { AppError, conflict, fieldError, notFound } from '../../platform/http/errors.ts';
import { csvRecords, shownField } from './csv-lines.ts';
import { NUMBER_COLUMNS, outputColumns } from './query.ts';
import { findExpirable, findTask, findTaskPage, insertTask, updateTask, type OrderTaskRow, type StatusEntry, type TaskFilter } from './repo.ts';
import { partFile, taskDir } from './run.ts';

/** Order-data export: tasks, their results and files (docs/order-export.md). */

export const ORDER_EXPORT_CLEANUP_JOB = 'order-export-cleanup';

export async function getSettings(ctx: AppContext): Promise<OrderExportSettings> {
  const row = await ctx.db.selectFrom('orderExportSetting').select(['maxRows', 'retentionDays']).executeTakeFirst();
  return { maxRows: row?.maxRows ?? 1_000_000, retentionDays: row?.retentionDays ?? 7 };
}

export async function saveSettings(ctx: AppContext, input: OrderExportSettings): Promise<OrderExportSettings> {
  await ctx.db.updateTable('orderExportSetting').set(input).execute();
  return getSettings(ctx);
}

export function toTask(row: OrderTaskRow): OrderExportTask {
  const status = row.taskStatus1 as OrderExportStatus;
  return {
    taskId: row.id,
    mcomment: row.mcomment,
    fetchedNums: row.fetchedNums === null ? null : Number(row.fetchedNums),
    createTime: row.createTime.toISOString(),
    creator: row.creator ?? '',
    taskStatus1: status,
    statusLabel: ORDER_EXPORT_STATUS_LABELS[status],
    progress: Number(row.progress),
    utype: row.utype,
    cusertype: row.cusertype,
    conditionJson: row.conditionJson,
    errorMsg: row.errorMsg,
    history: JSON.parse(row.statusLog) as StatusEntry[],
    fileExpired: row.expiredAt !== null,
  };
}

/** The caller's own task, else 404. */
async function ownTask(ctx: AppContext, userId: number, taskId: number): Promise<OrderTaskRow> {
  const row = await findTask(ctx.db, taskId);
  if (!row || row.userId !== userId) throw notFound(orderExportMessages.taskNotFound);
  return row;
}

/**
 * Inserts the task and queues its job; the batch's txt (already checked) goes into the file
 * storage, where the job reads it on whichever process takes it. Nothing is left behind on failure.
 */
async function startTask(ctx: AppContext, userId: number, form: OrderQueryParsed, phonesFile: string | null): Promise<number> {
  const jobs = ctx.jobs;
  if (!jobs) throw new AppError(503, orderExportMessages.jobsOff);
  const condition = { ...form, ...(phonesFile ? { userId: null } : {}) };
  const id = await insertTask(ctx.db, {
    userId,
    mcomment: form.mcomment || null,
    utype: form.utype,
    cusertype: form.CUsertype,
    conditionJson: JSON.stringify(condition),
    phonesPath: null,
  });
  const phonesKey = keyOfPath(path.join(taskDir(userId), `${id}.txt`));
  try {
    if (phonesFile) {
      await fileStorage(ctx).put(phonesKey, fs.createReadStream(phonesFile), { contentType: 'text/plain; charset=utf-8' });
      await updateTask(ctx.db, id, { phonesPath: phonesKey });
    }
    await jobs.send(ORDER_EXPORT_JOB, { taskId: id } satisfies OrderExportJobData, { retryLimit: 1 });
  } catch (error) {
    await ctx.db.deleteFrom('orderExportTask').where('id', '=', id).execute();
    if (phonesFile)
      await fileStorage(ctx)
        .delete(phonesKey)
        .catch(() => undefined);
    throw error;
  }
  return id;
}

/** add: one phone (utype 1) or every user (utype 3); a batch comes through addtxt. */
export async function addTask(ctx: AppContext, userId: number, form: OrderQueryParsed): Promise<number> {
  if (form.utype === 2) throw fieldError('file', orderExportMessages.txtOnly);
  return startTask(ctx, userId, form, null);
}

/** Lines with something on them, counted while streaming; stops one past `max`. */
async function countLines(file: string, max: number): Promise<number> {
  let count = 0;
  const lines = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.replace(/^\ufeff/, '').trim()) count += 1;
    if (count > max) {
      lines.close();
      break;
    }
  }
  return count;
}

/** addtxt: a batch of phone numbers, one a line, at most the server's maxrows lines. */
export async function addTxtTask(ctx: AppContext, userId: number, form: OrderQueryParsed, upload: Upload): Promise<number> {
  if (upload.file.extension !== 'txt' || !upload.file.utf8) throw fieldError('file', orderExportMessages.txtOnly);
  const { maxRows } = await getSettings(ctx);
  const lines = await countLines(upload.file.path, maxRows);
  if (lines === 0) throw fieldError('file', orderExportMessages.noPhones);
  if (lines > maxRows) throw fieldError('file', formatMessage(orderExportMessages.tooManyPhones, { max: maxRows }));
  return startTask(ctx, userId, { ...form, utype: 2 }, upload.file.path);
}

export async function listTasks(ctx: AppContext, filter: TaskFilter, current: number, size: number) {
  const { rows, total } = await findTaskPage(ctx.db, filter, (current - 1) * size, size);
  return { records: rows.map(toTask), total, current, size };
}

export async function taskDetails(ctx: AppContext, userId: number, taskId: number): Promise<OrderExportTask> {
  return toTask(await ownTask(ctx, userId, taskId));
}

/** updatename: the name asked for in the 数据计算提醒 modal (and the condition the page shows). */
export async function renameTask(
  ctx: AppContext,
  userId: number,
  input: { taskId: number; taskName: string; conditionJson?: string },
): Promise<OrderExportTask> {
  await ownTask(ctx, userId, input.taskId);
  await updateTask(ctx.db, input.taskId, { mcomment: input.taskName });
  return toTask((await findTask(ctx.db, input.taskId))!);
}

/** A finished task whose files are still kept, else 409 文件还未生成 / 410 expired. */
async function readyTask(ctx: AppContext, userId: number, taskId: number): Promise<OrderTaskRow> {
  const row = await ownTask(ctx, userId, taskId);
  if (row.taskStatus1 !== S.fileDone) throw conflict(orderExportMessages.fileNotReady);
  if (row.expiredAt) {
    const { retentionDays } = await getSettings(ctx);
    throw new AppError(410, formatMessage(orderExportMessages.fileExpired, { days: retentionDays }));
  }
  return row;
}

/** pageresult: a page of the result rows, read from the task's CSV (never the whole file in memory). */
export async function resultPage(ctx: AppContext, userId: number, query: { taskId: number; current: number; size: number }) {
  const row = await readyTask(ctx, userId, query.taskId);
  const form = JSON.parse(row.conditionJson) as OrderQueryParsed;
  const columns = outputColumns(form).map(({ column, title }) => ({ column, title }));
  const skip = (query.current - 1) * query.size;
  const records: Record<string, string | number | null>[] = [];
  const body = await fileStorage(ctx).get(keyOfPath(row.filePath!));
  if (!body) throw conflict(orderExportMessages.fileNotReady);
  const input = body.setEncoding('utf8');
  let index = -1; // the header is record -1
  try {
    for await (const fields of csvRecords(input)) {
      if (index >= skip) {
        records.push(Object.fromEntries(columns.map((c, i) => [c.column, cellOf(c.column, fields[i])])));
        if (records.length >= query.size) break;
      }
      index += 1;
    }
  } finally {
    input.destroy();
  }
  return { columns, records, total: Number(row.fetchedNums ?? 0), current: query.current, size: query.size };
}

/** A field of the file as the result table shows it: add-on counts as numbers, empty as null. */
function cellOf(column: string, field: string | undefined): string | number | null {
  if (field === undefined || field === '') return null;
  return NUMBER_COLUMNS.has(column) ? Number(field) : shownField(field);
}

/**
 * download: the CSV named by the task name or fetch_order_{id}, streamed from the file storage
 * (any process serves it); with a `Range` header only those bytes (a resumed download), or
 * 'unsatisfiable' past the end (nothing opened).
 */
export async function downloadFile(
  ctx: AppContext,
  userId: number,
  taskId: number,
  rangeHeader?: string,
): Promise<{ body: Readable | null; fileName: string; size: number; range: ReturnType<typeof parseRange> }> {
  const row = await readyTask(ctx, userId, taskId);
  const files = fileStorage(ctx);
  const key = keyOfPath(row.filePath!);
  const stat = await files.stat(key);
  if (!stat) throw conflict(orderExportMessages.fileNotReady);
  const base = (row.mcomment || `fetch_order_${row.id}`).replace(/[\\/:*?"<>|]/g, '_');
  const fileName = `${base}.csv`;
  const range = parseRange(rangeHeader, stat.size);
  if (range === 'unsatisfiable') return { body: null, fileName, size: stat.size, range };
  const body = await files.get(key, range ?? undefined);
  if (!body) throw conflict(orderExportMessages.fileNotReady);
  return { body, fileName, size: stat.size, range };
}

/**
 * The hourly sweep: files of tasks older than the retention period are removed (the CSV and the
 * phone list from the file storage, a working file left locally) and the task says so.
 */
export async function cleanupExpired(ctx: AppContext, log: Logger, now = new Date()): Promise<number> {
  const { retentionDays } = await getSettings(ctx);
  const rows = await findExpirable(ctx.db, new Date(now.getTime() - retentionDays * 86_400_000));
  for (const row of rows) {
    for (const relative of [row.filePath, row.resultPath, row.phonesPath]) {
      if (relative) await fileStorage(ctx).delete(keyOfPath(relative));
    }
    await fs.promises.rm(path.join(ctx.config.dataDir, partFile(row)), { force: true });
    await updateTask(ctx.db, row.id, { expiredAt: now });
  }
  if (rows.length) log.info({ count: rows.length }, 'order export files expired');
  return rows.length;
}
