/**
 * The DuckDB engine process: a child of the server that owns one database file and answers the
 * server's driver calls (client.ts) with a DuckDBDriver of its own. The engine's buffer pool and
 * working memory live here, not in the web process; the server's memory stays its own
 * (docs/architecture.md "The DuckDB engine process").
 *
 * It lives exactly as long as its server: it exits when the IPC channel closes (the server
 * exited or was killed) and ignores SIGINT / SIGTERM, which the server handles by closing it.
 */
import { DuckDBDriver } from '../duckdb.ts';
import { openWhenUnlocked } from '../duckdb/file-lock.ts';
import { cancelledError } from '../errors.ts';
import type { DataSourceConfig, LoadRow, QueryStream, Row } from '../types.ts';
import { QUERY_BATCH_ROWS, QUERY_WINDOW, toWire, type FromEngine, type ToEngine, type UnaryMethod } from './protocol.ts';

let driver: DuckDBDriver | null = null;
let opened: Promise<void> | null = null;
const aborts = new Map<number, AbortController>();
const queries = new Map<number, QueryState>();
const loads = new Map<number, LoadFeed>();

interface QueryState {
  stream: QueryStream | null;
  credit: number;
  wake: (() => void) | null;
  cancelled: boolean;
}

function send(message: FromEngine): void {
  if (process.connected) process.send!(message);
}

/**
 * Opens the file, waiting while a previous engine process of it still holds its lock. Anything
 * else (a missing directory, a damaged file) is answered to each call as it is.
 */
async function open(config: DataSourceConfig): Promise<void> {
  driver = await openWhenUnlocked(async () => {
    const candidate = new DuckDBDriver(config);
    try {
      await candidate.info();
      return candidate;
    } catch (error) {
      await candidate.close().catch(() => undefined);
      throw error;
    }
  }).catch(() => new DuckDBDriver(config));
}

function ready(): Promise<DuckDBDriver> {
  if (!opened) throw new Error('engine process used before open');
  return opened.then(() => driver!);
}

/** Puts a cancellable call's signal into its options argument (the last one). */
function withSignal(args: unknown[], signal: AbortSignal): unknown[] {
  const copy = [...args];
  const last = copy.length - 1;
  copy[last] = { ...(copy[last] as object | undefined), signal };
  return copy;
}

async function call(id: number, method: UnaryMethod, args: unknown[], cancellable: boolean): Promise<void> {
  const controller = cancellable ? new AbortController() : null;
  if (controller) aborts.set(id, controller);
  try {
    const engine = await ready();
    const fn = engine[method] as (...a: unknown[]) => Promise<unknown>;
    const value = await fn.apply(engine, controller ? withSignal(args, controller.signal) : args);
    send({ t: 'result', id, value });
  } catch (error) {
    send({ t: 'error', id, error: toWire(error) });
  } finally {
    aborts.delete(id);
  }
}

/** Waits until the server has room for one more batch (or the query was cancelled). */
async function takeCredit(state: QueryState): Promise<void> {
  while (state.credit === 0 && !state.cancelled) await new Promise<void>((resolve) => (state.wake = resolve));
  state.credit -= 1;
}

async function query(message: Extract<ToEngine, { t: 'query' }>): Promise<void> {
  const { id } = message;
  const state: QueryState = { stream: null, credit: QUERY_WINDOW, wake: null, cancelled: false };
  queries.set(id, state);
  try {
    const engine = await ready();
    const options = {
      rawBytes: message.rawBytes,
      ...(message.timeoutMs === undefined ? {} : { timeoutMs: message.timeoutMs }),
      ...(message.rowLimit === undefined ? {} : { rowLimit: message.rowLimit }),
    };
    const stream = engine.query(message.sql, message.params, options);
    state.stream = stream;
    if (state.cancelled) stream.cancel();
    // A batch is held until the next one arrives or the result ends, so the last one goes out
    // marked as last (no separate end message); small batches are gathered up to QUERY_BATCH_ROWS.
    let held: Row[] = [];
    let first = true;
    const sendHeld = async (last: boolean) => {
      await takeCredit(state);
      if (state.cancelled) throw cancelledError();
      send({ t: 'rows', id, rows: held, last, ...(first ? { columns: [...(stream.columns ?? [])] } : {}) });
      first = false;
      held = [];
    };
    for await (const batch of stream.batches()) {
      if (held.length >= QUERY_BATCH_ROWS) await sendHeld(false);
      held = held.length === 0 ? batch : held.concat(batch);
    }
    await sendHeld(true);
  } catch (error) {
    send({ t: 'error', id, error: toWire(error) });
  } finally {
    queries.delete(id);
  }
}

/** The rows of one load as they arrive from the server, asking for the next batch as it reads. */
class LoadFeed implements AsyncIterable<LoadRow> {
  private readonly chunks: LoadRow[][] = [];
  private ended = false;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;

  constructor(private readonly id: number) {}

  push(rows: LoadRow[]): void {
    this.chunks.push(rows);
    this.notify();
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  fail(error: Error): void {
    this.failure = error;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<LoadRow> {
    for (;;) {
      if (this.failure) throw this.failure;
      const chunk = this.chunks.shift();
      if (chunk) {
        send({ t: 'need', id: this.id });
        yield* chunk;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

async function load(message: Extract<ToEngine, { t: 'load' }>): Promise<void> {
  const { id } = message;
  const feed = new LoadFeed(id);
  const controller = new AbortController();
  loads.set(id, feed);
  aborts.set(id, controller);
  try {
    const engine = await ready();
    const value = await engine.bulkLoad(message.table, message.columns as Parameters<DuckDBDriver['bulkLoad']>[1], feed, {
      ...message.options,
      signal: controller.signal,
    });
    send({ t: 'result', id, value });
  } catch (error) {
    send({ t: 'error', id, error: toWire(error) });
  } finally {
    loads.delete(id);
    aborts.delete(id);
  }
}

function cancel(id: number): void {
  aborts.get(id)?.abort();
  loads.get(id)?.fail(cancelledError());
  const state = queries.get(id);
  if (state) {
    state.cancelled = true;
    state.stream?.cancel();
    state.wake?.();
  }
}

/** Set once `close` has shut the driver down: the disconnect that follows is an orderly exit. */
let closedInOrder = false;

async function close(): Promise<void> {
  await opened?.catch(() => undefined);
  await driver?.close().catch(() => undefined);
  send({ t: 'closed' });
  closedInOrder = true;
  process.disconnect();
}

process.on('message', (message: ToEngine) => {
  switch (message.t) {
    case 'open':
      opened ??= open(message.config).then(() => send({ t: 'ready' }));
      return;
    case 'call':
      void call(message.id, message.method, message.args, message.cancellable);
      return;
    case 'query':
      void query(message);
      return;
    case 'pull': {
      const state = queries.get(message.id);
      if (!state) return;
      state.credit += 1;
      state.wake?.();
      return;
    }
    case 'load':
      void load(message);
      return;
    case 'chunk':
      loads.get(message.id)?.push(message.rows);
      return;
    case 'chunkEnd':
      loads.get(message.id)?.end();
      return;
    case 'cancel':
      cancel(message.id);
      return;
    case 'close':
      void close();
      return;
  }
});

// The server is gone (exited, killed): so is its engine, at once, releasing the file for the next
// start. Killed as the server was, not exited: an exit runs DuckDB's shutdown, which checkpoints
// the WAL into the file first (seconds after a large load) while a restart waits for the lock.
// After `close` the exit is orderly; the private CSV directory of a killed engine is swept at the
// next start (sweepDeadCsvOutputDirs).
process.on('disconnect', () => (closedInOrder ? process.exit(0) : process.kill(process.pid, 'SIGKILL')));
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);
