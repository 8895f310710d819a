import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { ORDER_EXPORT_STATUS as S, orderExportMessages, orderQuerySchema, type OrderExportStatus, type OrderQueryParsed } from '@shutu/contracts';
import { ConnectorError } from '@shutu/connectors';
import type { Logger } from 'pino';
import type { AppContext } from '../../context.ts';
import { fileStorage, keyOfPath } from '../../platform/files/storage.ts';
import { AppError } from '../../platform/http/errors.ts';
import { findOwnWarehouseRow } from '../datasource/index.ts';
import type { Caller } from '../perm/index.ts';
import { copyBoundSqlToCsvFile, streamBoundSql, writesCsvFiles } from '../read/index.ts';
import { CsvWriter, csvLine, plainSliceToCsv, statsRuleOutFormula } from './csv-lines.ts';
import {
  csvCopyStatement,
  csvSliceStatement,
  FIELD_MARK,
  isTimeColumn,
  ORDER_ID_SPAN_SQL,
  outputColumns,
  textColumns,
  textColumnStatsStatement,
  type OrderIdRange,
  type Phones,
} from './query.ts';
import { claimTask, findTask, findUser, moveTask, updateTask, type OrderTaskRow } from './repo.ts';

/**
 * The order-export job (spec 3 §4 "Order-data export task status"; docs/order-export.md): one
 * task through 0 → 1 selecting users → 2 / 3, → 4 extracting → 5 / 6, → 7 generating the file →
 * 9 / 8. Each move is stored with its time and the rows so far (moveTask). Where the engine
 * writes CSV files itself, the whole file is one statement (a killed task extracts again);
 * otherwise, or when slices are asked for (`extraction`), it is written slice by slice of order
 * ids into a partial file, and after each slice its last order id, the rows and the file's length
 * are stored (the checkpoint), so a task whose process died resumes after its last slice
 * (jobs.ts). The working file is local (a resume cuts it back and appends, which an object store
 * cannot do); step 7 moves the finished file into the file storage (a directory or an S3 bucket,
 * docs/storage.md), so any process serves its download. Only the run that claimed the task
 * writes to it.
 */

export const ORDER_QUERY_TIMEOUT_MS = 6 * 3600_000;
const configuredSliceIds = Number(process.env.SHUTU_ORDER_EXPORT_SLICE_IDS ?? 0) || null;

/**
 * How the extraction is cut. Where the engine writes the CSV itself (capability writesCsvFile),
 * the whole file is one statement by default — header and all, moved into place without a byte
 * copied: at 10M orders slices cost more than the engine's own COPY (each builds its joins'
 * tables again, and each part is appended to the file), for a resume point a 3 s extraction does
 * not need (a killed one starts over). `engineSliceIds` (SHUTU_ORDER_EXPORT_SLICE_IDS) slices it
 * by order ids instead, each slice a resume point and a progress step — for very large
 * warehouses on a slow engine, and the kill test. The row path holds one slice in memory at a
 * time: `sliceIds` order ids, two DuckDB row groups (122,880 rows each; the demo's ids follow
 * the row order), ≈ 18 MiB of CSV at the default output fields.
 */
export const extraction = { sliceIds: configuredSliceIds ?? 245_760, engineSliceIds: configuredSliceIds as number | null };

/**
 * A large batch of phones is one value of every slice's statement, which the engine takes seconds
 * to plan and join each time (1M phones: ≈ 5 s a slice, 41 slices at 10M orders; ≈ 60 s as one):
 * where the engine writes the file itself, such a batch is never sliced (a resume starts it over).
 */
export const BATCH_ONE_SLICE_PHONES = 100_000;
const WHOLE = Number.MAX_SAFE_INTEGER;
function sliceIdsFor(phones: Phones, engineWrites: boolean): number {
  if (!engineWrites) return extraction.sliceIds;
  const bigBatch = phones.kind === 'batch' && phones.joined.split(',', BATCH_ONE_SLICE_PHONES + 1).length > BATCH_ONE_SLICE_PHONES;
  return bigBatch ? WHOLE : (extraction.engineSliceIds ?? WHOLE);
}

/** Renames a finished file into place; across file systems (the engine's directory elsewhere), copies it. */
async function moveFile(from: string, to: string): Promise<void> {
  try {
    await fs.promises.rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await fs.promises.copyFile(from, to);
    await fs.promises.rm(from, { force: true });
  }
}

export const taskDir = (userId: number) => path.join('orderexport', String(userId));
export const partFile = (task: Pick<OrderTaskRow, 'id' | 'userId'>) => path.join(taskDir(task.userId), `${task.id}.part.csv`);
export const csvFile = (task: Pick<OrderTaskRow, 'id' | 'userId'>) => path.join(taskDir(task.userId), `${task.id}.csv`);

/**
 * Tests make a task slow on purpose: `ms` held per step (the page's 10-poll reminder), `blockMs`
 * held after each written slice (a kill with rows already written).
 */
export const slowSteps = { ms: Number(process.env.SHUTU_ORDER_EXPORT_STEP_DELAY_MS ?? 0), blockMs: Number(process.env.SHUTU_ORDER_EXPORT_BLOCK_DELAY_MS ?? 0) };
const hold = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());
const pause = () => hold(slowSteps.ms);

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
  // Stored at creation (service.ts startTask), so the process that runs the job need not be the one that received it.
  const body = await fileStorage(ctx).get(keyOfPath(task.phonesPath!));
  if (!body) throw new AppError(404, orderExportMessages.failedSelect);
  const lines = readline.createInterface({ input: body.setEncoding('utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    const phone = line.replace(/^\ufeff/, '').trim();
    if (/^\d{1,11}$/.test(phone)) seen.add(phone);
  }
  return { phones: { kind: 'batch', joined: [...seen].join(',') }, count: seen.size };
}

/** Where an interrupted extraction goes on: the last order id, rows and partial file's length at the last checkpoint. */
interface Checkpoint {
  key: number;
  rows: number;
  bytes: number;
}

/** A checkpoint the partial file still holds (it may be longer: rows after it are written again); else none. */
async function usableCheckpoint(task: OrderTaskRow, file: string): Promise<Checkpoint | null> {
  const bytes = task.resumeBytes === null ? null : Number(task.resumeBytes);
  // A checkpoint without a key is an older task's (blocks of sorted rows): it starts over.
  if (bytes === null || bytes <= 0 || task.resumeKey === null) return null;
  const size = await fs.promises.stat(file).then(
    (s) => s.size,
    () => -1,
  );
  return size >= bytes ? { key: Number(task.resumeKey), rows: Number(task.progress), bytes } : null;
}

type Read = (statement: Parameters<typeof streamBoundSql>[3], signal?: AbortSignal) => Promise<Record<string, unknown> | undefined>;

/**
 * The slices from `after` on: ranges of `size` order ids up to the orders' largest id, read
 * through the read module like the extraction. When that read is refused or fails the whole
 * extraction is one slice (still correct; it resumes from the start).
 */
async function slicesAfter(read: Read, after: number | null, size: number, log: Logger): Promise<(OrderIdRange | null)[]> {
  const span = await read(() => ({ sql: ORDER_ID_SPAN_SQL, params: [] })).catch((error: unknown) => {
    log.warn({ err: error }, 'order export: the order id span was not readable, one slice');
    return null;
  });
  if (!span) return [null];
  if (span.hi === null || span.hi === undefined) return [];
  const hi = Number(span.hi);
  const slices: OrderIdRange[] = [];
  for (let from = after === null ? Number(span.lo) : after + 1; from <= hi; from += size) slices.push({ from, to: Math.min(hi, from + size - 1) });
  return slices;
}

/**
 * The text columns of the file that get the formula guard in the engine's statement: those whose
 * statistics do not rule a formula start out (csv-lines.ts statsRuleOutFormula). When the
 * statistics are not readable, every one.
 */
async function columnsToGuard(read: Read, form: OrderQueryParsed, log: Logger): Promise<Set<string>> {
  const columns = textColumns(form);
  const stats = await read(() => textColumnStatsStatement(form)).catch((error: unknown) => {
    log.warn({ err: error }, 'order export: column statistics not readable, every text column guarded');
    return undefined;
  });
  return new Set(columns.filter((c, i) => !statsRuleOutFormula(stats?.[`c${i}`], isTimeColumn(c) ? 'time' : 'text')));
}

/**
 * Step 4: the CSV (UTF-8 with BOM, Chinese headers) — whole, or slice by slice after `from`; the
 * row count. Sliced, the next slice's statement runs while this one is checked and written (the
 * engine's threads and the event loop at once).
 */
async function extract(
  ctx: AppContext,
  log: Logger,
  caller: Caller,
  form: OrderQueryParsed,
  phones: Phones,
  file: string,
  from: Checkpoint | null,
  checkpoint: (key: number | null, rows: number, bytes: number) => Promise<unknown>,
): Promise<number> {
  const source = await findOwnWarehouseRow(ctx);
  if (!source) throw new AppError(404, orderExportMessages.failedExtract);
  const stop = new AbortController();
  const read: Read = async (statement, signal) => {
    const rows = await streamBoundSql(ctx, caller, source.id, statement, { timeoutMs: ORDER_QUERY_TIMEOUT_MS, field: 'conditionJson', signal, rawBytes: true });
    for await (const row of rows) return row;
    return undefined;
  };
  const columns = outputColumns(form).length;
  // The engine writes the CSV itself where it can (capability writesCsvFile): no value per line
  // in this process.
  const engineWrites = await writesCsvFiles(ctx, source.id);
  const guarded = engineWrites ? await columnsToGuard(read, form, log) : new Set<string>();
  const copy = (range: OrderIdRange | null, whole: boolean) =>
    copyBoundSqlToCsvFile(ctx, caller, source.id, (dialect) => csvCopyStatement(dialect, form, phones, range, guarded, whole), {
      timeoutMs: ORDER_QUERY_TIMEOUT_MS,
      field: 'conditionJson',
      signal: stop.signal,
      header: whole,
    });
  const sliceIds = sliceIdsFor(phones, engineWrites);
  if (engineWrites && sliceIds === WHOLE) {
    // One statement: the engine writes the whole file (BOM, header, lines); nothing to resume from.
    const whole = (await copy(null, true))!;
    await moveFile(whole.file, file);
    return whole.rows;
  }
  const slice = async (range: OrderIdRange | null): Promise<{ n: number; bytes: Uint8Array | null; file?: string }> => {
    if (engineWrites) {
      const part = await copy(range, false);
      return { n: part?.rows ?? 0, bytes: null, file: part?.file };
    }
    const plain = await read((dialect) => csvSliceStatement(dialect, form, phones, range, false), stop.signal);
    const n = Number(plain?.n ?? 0);
    const bytes = (plain?.bytes ?? null) as Uint8Array | null;
    if (n === 0 || !bytes) return { n: 0, bytes: null };
    if (plainSliceToCsv(bytes, n, columns, FIELD_MARK)) return { n, bytes };
    // Quotes or the formula guard needed somewhere in this slice: every field looked at.
    const careful = await read((dialect) => csvSliceStatement(dialect, form, phones, range, true), stop.signal);
    return { n: Number(careful?.n ?? 0), bytes: (careful?.bytes ?? null) as Uint8Array | null };
  };
  const slices = await slicesAfter(read, from?.key ?? null, sliceIds, log);

  // Rows written after the checkpoint are cut off and written again.
  if (from) await fs.promises.truncate(file, from.bytes);
  const out = new CsvWriter(file, from ? { bom: false, appendAt: from.bytes } : { bom: true });
  let count = from?.rows ?? 0;
  const pending = slices.map(() => null as ReturnType<typeof slice> | null);
  try {
    if (!from) await out.write(csvLine(outputColumns(form).map((c) => c.title)));
    const start = (k: number) => {
      if (k < slices.length) (pending[k] = slice(slices[k]!)).catch(() => undefined); // awaited below; not unhandled meanwhile
    };
    start(0);
    for (let k = 0; k < slices.length; k++) {
      const current = await pending[k]!;
      pending[k] = null;
      start(k + 1);
      if (current.file) {
        try {
          await out.writeFile(current.file);
        } finally {
          await fs.promises.rm(current.file, { force: true });
        }
      } else if (current.bytes) {
        await out.writeBytes(current.bytes);
        await out.write('\n');
      }
      count += current.n;
      await checkpoint(slices[k]?.to ?? null, count, await out.checkpoint());
      await hold(slowSteps.blockMs);
    }
    await out.close();
  } catch (error) {
    stop.abort();
    // A slice already running may still leave its engine-written file: removed when it ends.
    for (const running of pending) void running?.then((p) => (p.file ? fs.promises.rm(p.file, { force: true }) : undefined)).catch(() => undefined);
    await out.close().catch(() => undefined);
    throw error;
  }
  return count;
}

const reason = (error: unknown, fallback: string) => (error instanceof AppError || error instanceof ConnectorError ? error.message : fallback).slice(0, 1000);

export async function runOrderExport(ctx: AppContext, log: Logger, taskId: number, runId: string | null = null): Promise<void> {
  if (!(await claimTask(ctx.db, taskId, runId))) return;
  const task = (await findTask(ctx.db, taskId))!;
  const move = (status: OrderExportStatus, rows: number, extra = {}) => moveTask(ctx.db, taskId, status, rows, runId, extra);
  const form = orderQuerySchema.parse(JSON.parse(task.conditionJson));
  const dir = path.join(ctx.config.dataDir, taskDir(task.userId));
  await fs.promises.mkdir(dir, { recursive: true });
  const part = path.join(ctx.config.dataDir, partFile(task));
  const files = fileStorage(ctx);
  const key = keyOfPath(csvFile(task));
  // A resumed task goes on in the step it was in (jobs.ts): selecting users is quick and done
  // again. The working file is on the disk of the process that died: a resume on another
  // process (or after the disk was lost) finds neither it nor a stored file, and extracts again.
  let resumeAt = task.taskStatus1;
  if (resumeAt >= S.extracted && !fs.existsSync(part) && !(await files.stat(key))) resumeAt = S.extracting;

  let phones: Phones;
  let caller: Caller;
  try {
    if (resumeAt < S.extracting) await move(S.selectingUsers, 0);
    await pause();
    caller = await callerOf(ctx, task.userId);
    const selected = await selectPhones(ctx, task, form);
    phones = selected.phones;
    if (resumeAt < S.extracting) await move(S.usersDone, selected.count);
  } catch (error) {
    log.warn({ err: error, taskId }, 'order export: selecting users failed');
    await move(S.usersFailed, 0, { errorMsg: reason(error, orderExportMessages.failedSelect) });
    return;
  }

  let rows = Number(task.progress);
  if (resumeAt < S.extracted) {
    try {
      const from = resumeAt === S.extracting ? await usableCheckpoint(task, part) : null;
      await move(S.extracting, from?.rows ?? 0, { resumeBytes: from?.bytes ?? null, resumeKey: from?.key ?? null });
      await pause();
      // A whole-extraction slice (no key) cannot be gone on from: its checkpoint is the start.
      const checkpoint = (key: number | null, n: number, bytes: number) =>
        updateTask(ctx.db, taskId, key === null ? { progress: n } : { progress: n, resumeBytes: bytes, resumeKey: key }, runId);
      rows = await extract(ctx, log, caller, form, phones, part, from, checkpoint);
      await move(S.extracted, rows);
    } catch (error) {
      if (!(error instanceof AppError)) log.error({ err: error, taskId }, 'order export: extraction failed');
      await fs.promises.rm(part, { force: true });
      await move(S.extractFailed, 0, { errorMsg: reason(error, orderExportMessages.failedExtract), resumeBytes: null, resumeKey: null });
      return;
    }
  }

  try {
    await move(S.generating, rows);
    await pause();
    // The local working file goes into the storage whole (a reader sees it complete or not at
    // all): renamed into a storage directory on the same disk, else copied or uploaded and
    // removed. A resumed step 7 whose working file is gone had stored it already.
    if (fs.existsSync(part) || !(await files.stat(key))) await files.putFile(key, part, { contentType: 'text/csv; charset=utf-8' });
    await move(S.fileDone, rows, { filePath: key, fetchedNums: rows, resumeBytes: null, resumeKey: null });
  } catch (error) {
    log.error({ err: error, taskId }, 'order export: file generation failed');
    await files.delete(key).catch(() => undefined);
    await fs.promises.rm(part, { force: true });
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
