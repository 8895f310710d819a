import type { App, AppContext } from '../../context.ts';
import { insertCallLogs, type CallLogValues } from './runtime-repo.ts';

/**
 * The call log is written in batches (docs/dataapi.md "Call log"): a published call adds its
 * row to this process's buffer, written every FLUSH_MS or at FLUSH_ROWS rows in one insert, so a
 * call does not wait for its log row. The log and the statistics flush before they read, and the
 * app flushes on close; a process killed outright loses at most the last FLUSH_MS of rows.
 */

const FLUSH_MS = 250;
const FLUSH_ROWS = 500;

interface Writer {
  rows: (CallLogValues & { createTime: Date })[];
  timer: NodeJS.Timeout | null;
  flushing: Promise<void>;
}

const writers = new WeakMap<AppContext, Writer>();

function writerOf(ctx: AppContext): Writer {
  let writer = writers.get(ctx);
  if (!writer) writers.set(ctx, (writer = { rows: [], timer: null, flushing: Promise.resolve() }));
  return writer;
}

/** Writes what is buffered (after any write in progress). */
export function flushCallLog(ctx: AppContext): Promise<void> {
  const writer = writerOf(ctx);
  if (writer.timer) clearTimeout(writer.timer);
  writer.timer = null;
  const rows = writer.rows.splice(0);
  writer.flushing = writer.flushing.then(async () => {
    if (rows.length > 0) await insertCallLogs(ctx.db, rows);
  });
  return writer.flushing;
}

/** Buffers one call's row; `onError` hears of a batch that could not be written. */
export function logCall(ctx: AppContext, values: CallLogValues, onError: (error: unknown) => void): void {
  const writer = writerOf(ctx);
  writer.rows.push({ ...values, createTime: new Date() });
  const flush = () => void flushCallLog(ctx).catch(onError);
  if (writer.rows.length >= FLUSH_ROWS) flush();
  else if (!writer.timer) {
    writer.timer = setTimeout(flush, FLUSH_MS);
    writer.timer.unref();
  }
}

/** Writes the rest when the app closes. */
export function flushCallLogOnClose(app: App, ctx: AppContext): void {
  app.addHook('onClose', async () => flushCallLog(ctx).catch((error: unknown) => app.log.error({ err: error }, 'data-API call log not written')));
}
