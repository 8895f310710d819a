import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { ORDER_EXPORT_STATUS as S, orderExportMessages, orderQuerySchema, type OrderExportStatus, type OrderQueryParsed } from '@shutu/contracts';
import { ConnectorError } from '@shutu/connectors';
import type { Logger } from 'pino';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../platform/http/errors.ts';
import { findBuiltinRow } from '../datasource/index.ts';
import type { Caller } from '../perm/index.ts';
import { streamBoundSql } from '../read/index.ts';
import { CsvWriter, csvLine } from './csv-lines.ts';
import { cellText, orderDataStatement, outputColumns, type Phones } from './query.ts';
import { claimTask, findTask, findUser, moveTask, updateTask, type OrderTaskRow } from './repo.ts';

/**
 * The order-export job (spec 3 §4 "Order-data export task status"; docs/order-export.md): one
 * task through 0 → 1 selecting users → 2 / 3, → 4 extracting → 5 / 6, → 7 generating the file →
 * 9 / 8. Each move is stored with its time and the rows so far (moveTask). Rows stream from
 * the warehouse into an NDJSON result file (what pageresult pages through) and from it into
 * the CSV; neither is ever held in memory. Only the run that claimed the task writes to it.
 */

/** Rows between two progress writes. */
export const PROGRESS_EVERY_ROWS = 10_000;
export const ORDER_QUERY_TIMEOUT_MS = 6 * 3600_000;

export const taskDir = (userId: number) => path.join('orderexport', String(userId));
export const resultFile = (task: Pick<OrderTaskRow, 'id' | 'userId'>) => path.join(taskDir(task.userId), `${task.id}.ndjson`);
export const csvFile = (task: Pick<OrderTaskRow, 'id' | 'userId'>) => path.join(taskDir(task.userId), `${task.id}.csv`);

/** Tests make a task slow on purpose (the page's 10-poll reminder): milliseconds to wait per step. */
export const slowSteps = { ms: Number(process.env.SHUTU_ORDER_EXPORT_STEP_DELAY_MS ?? 0) };
const pause = () => (slowSteps.ms > 0 ? new Promise((r) => setTimeout(r, slowSteps.ms)) : Promise.resolve());

async function callerOf(ctx: AppContext, userId: number): Promise<Caller> {
  const user = await findUser(ctx.db, userId);
  if (!user || user.status !== 1) throw new AppError(403, orderExportMessages.taskNotFound);
  return { userId: user.id, isAdministrator: user.isAdministrator };
}

/** Step 1: the users asked for. A batch is read, trimmed and de-duplicated from its uploaded txt. */
async function selectPhones(ctx: AppContext, task: OrderTaskRow, form: OrderQueryParsed): Promise<{ phones: Phones; count: number }> {
  if (task.utype === 1) return { phones: { kind: 'one', phone: form.userId! }, count: 1 };
  if (task.utype === 3) return { phones: { kind: 'all' }, count: 0 };
  const seen = new Set<string>();
  const lines = readline.createInterface({ input: fs.createReadStream(path.join(ctx.config.dataDir, task.phonesPath!), 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    const phone = line.replace(/^\ufeff/, '').trim();
    if (/^\d{1,11}$/.test(phone)) seen.add(phone);
  }
  return { phones: { kind: 'batch', joined: [...seen].join(',') }, count: seen.size };
}

/** Step 4: every row into the NDJSON result file; the row count. */
async function extract(
  ctx: AppContext,
  caller: Caller,
  form: OrderQueryParsed,
  phones: Phones,
  file: string,
  progress: (rows: number) => Promise<unknown>,
): Promise<number> {
  const source = await findBuiltinRow(ctx.db);
  if (!source) throw new AppError(404, orderExportMessages.failedExtract);
  const columns = outputColumns(form);
  const rows = await streamBoundSql(ctx, caller, source.id, (dialect) => orderDataStatement(dialect, form, phones), {
    timeoutMs: ORDER_QUERY_TIMEOUT_MS,
    field: 'conditionJson',
  });
  const out = new CsvWriter(file, false);
  let count = 0;
  for await (const row of rows) {
    await out.write(`${JSON.stringify(columns.map((c) => cellText(row[c.column])))}\n`);
    count += 1;
    if (count % PROGRESS_EVERY_ROWS === 0) await progress(count);
  }
  await out.close();
  return count;
}

/** Step 7: the CSV (UTF-8 with BOM, Chinese headers) from the result file. */
async function generate(form: OrderQueryParsed, from: string, to: string): Promise<void> {
  const columns = outputColumns(form);
  const text = columns.map((c) => c.column !== 'vipnums' && c.column !== 'flows' && c.column !== 'cnums');
  const out = new CsvWriter(to, true);
  await out.write(csvLine(columns.map((c) => c.title)));
  const lines = readline.createInterface({ input: fs.createReadStream(from, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) if (line) await out.write(csvLine(JSON.parse(line) as (string | number | null)[], text));
  await out.close();
}

const reason = (error: unknown, fallback: string) => (error instanceof AppError || error instanceof ConnectorError ? error.message : fallback).slice(0, 1000);

export async function runOrderExport(ctx: AppContext, log: Logger, taskId: number, runId: string | null = null): Promise<void> {
  if (!(await claimTask(ctx.db, taskId, runId, [S.waitingUsers]))) return;
  const task = (await findTask(ctx.db, taskId))!;
  const move = (status: OrderExportStatus, rows: number, extra = {}) => moveTask(ctx.db, taskId, status, rows, runId, extra);
  const form = orderQuerySchema.parse(JSON.parse(task.conditionJson));
  const dir = path.join(ctx.config.dataDir, taskDir(task.userId));
  await fs.promises.mkdir(dir, { recursive: true });

  let phones: Phones;
  let caller: Caller;
  try {
    await move(S.selectingUsers, 0);
    await pause();
    caller = await callerOf(ctx, task.userId);
    const selected = await selectPhones(ctx, task, form);
    phones = selected.phones;
    await move(S.usersDone, selected.count);
  } catch (error) {
    log.warn({ err: error, taskId }, 'order export: selecting users failed');
    await move(S.usersFailed, 0, { errorMsg: reason(error, orderExportMessages.failedSelect) });
    return;
  }

  const result = path.join(ctx.config.dataDir, resultFile(task));
  let rows: number;
  try {
    await move(S.extracting, 0);
    await pause();
    rows = await extract(ctx, caller, form, phones, result, (n) => updateTask(ctx.db, taskId, { progress: n }, runId));
    await move(S.extracted, rows, { resultPath: resultFile(task) });
  } catch (error) {
    if (!(error instanceof AppError)) log.error({ err: error, taskId }, 'order export: extraction failed');
    await fs.promises.rm(result, { force: true });
    await move(S.extractFailed, 0, { errorMsg: reason(error, orderExportMessages.failedExtract) });
    return;
  }

  const csv = path.join(ctx.config.dataDir, csvFile(task));
  try {
    await move(S.generating, 0);
    await pause();
    await generate(form, result, csv);
    await move(S.fileDone, rows, { filePath: csvFile(task), fetchedNums: rows });
  } catch (error) {
    log.error({ err: error, taskId }, 'order export: file generation failed');
    await fs.promises.rm(csv, { force: true });
    await move(S.fileFailed, 0, { errorMsg: reason(error, orderExportMessages.failedFile) });
  }
}

/** The failed status of the step a task was in when its process died. */
export const FAILED_STEP: Partial<Record<number, OrderExportStatus>> = {
  [S.waitingUsers]: S.usersFailed,
  [S.selectingUsers]: S.usersFailed,
  [S.usersDone]: S.usersFailed,
  [S.extracting]: S.extractFailed,
  [S.extracted]: S.extractFailed,
  [S.generating]: S.fileFailed,
};
