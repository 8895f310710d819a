import { cancelledError, ConnectorError, timeoutError } from './errors.ts';
import type { DriverCapabilities, ResultColumn, Row, QueryStream } from './types.ts';

/** How long after the statement timeout the driver steps in when the server should have. */
export const SERVER_TIMEOUT_GRACE_MS = 2_000;

/** What a driver's executor gets for one query. */
export interface Execution {
  /** Aborted when the query is cancelled or runs out of time. */
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  /** Reports the result header (names already unique). */
  setColumns(columns: ResultColumn[]): void;
  /**
   * Registers how to stop the statement on the server; called once, on cancel or timeout.
   * A stop that lands between statements does nothing, so executors also check `signal`
   * before each statement that may run long.
   */
  onCancel(stop: () => unknown): void;
}

/**
 * Runs the statement and yields batches of normalised rows. Its `finally` must release the
 * connection, stopping the statement first when the loop was left early.
 */
export type Executor = (execution: Execution) => AsyncGenerator<Row[], void, undefined>;

/** Turns an engine error into a ConnectorError (timeout, read-only, query failed …). */
export type ErrorMapper = (error: unknown, timeoutMs: number) => ConnectorError;

type StopReason = 'timeout' | 'cancelled';

/**
 * The one streaming skeleton of every driver: statement timeout (the server's, with the
 * driver as a backstop, or the driver's alone when the capability is missing), cancellation
 * by signal, by `cancel()` or by leaving the loop, and error mapping.
 */
export class GuardedQueryStream implements QueryStream {
  columns: readonly ResultColumn[] | null = null;
  private reason: StopReason | null = null;
  private readonly controller = new AbortController();
  private readonly stops: (() => unknown)[] = [];
  private started = false;

  constructor(
    private readonly capabilities: DriverCapabilities,
    private readonly timeoutMs: number,
    private readonly signal: AbortSignal | undefined,
    private readonly executor: Executor,
    private readonly mapError: ErrorMapper,
  ) {}

  cancel(): void {
    this.stop('cancelled');
  }

  private stop(reason: StopReason): void {
    if (this.reason) return;
    this.reason = reason;
    this.controller.abort();
    for (const stop of this.stops.splice(0)) {
      try {
        void Promise.resolve(stop()).catch(() => undefined);
      } catch {
        // best effort: the read that is waiting fails on its own
      }
    }
  }

  private failure(): ConnectorError {
    return this.reason === 'timeout' ? timeoutError(this.timeoutMs) : cancelledError();
  }

  [Symbol.asyncIterator](): AsyncIterator<Row> {
    return this.rows(this.batches());
  }

  /** Row by row: a cancel or timeout during a batch stops at the next row, as the batches do at the next batch. */
  private async *rows(batches: AsyncIterable<Row[]>): AsyncGenerator<Row, void, undefined> {
    for await (const batch of batches)
      for (const row of batch) {
        if (this.reason) throw this.failure();
        yield row;
      }
  }

  batches(): AsyncIterable<Row[]> {
    if (this.started) throw new Error('a query stream can be iterated once');
    this.started = true;
    return this.run();
  }

  private async *run(): AsyncGenerator<Row[], void, undefined> {
    if (this.signal?.aborted) throw cancelledError();
    if (this.reason) throw this.failure();
    const onAbort = () => this.stop('cancelled');
    this.signal?.addEventListener('abort', onAbort, { once: true });
    const limit = this.capabilities.serverStatementTimeout ? this.timeoutMs + SERVER_TIMEOUT_GRACE_MS : this.timeoutMs;
    const timer = setTimeout(() => this.stop('timeout'), limit);
    const execution: Execution = {
      signal: this.controller.signal,
      timeoutMs: this.timeoutMs,
      setColumns: (columns) => {
        this.columns = columns;
      },
      onCancel: (stop) => {
        if (this.reason)
          void Promise.resolve()
            .then(stop)
            .catch(() => undefined);
        else this.stops.push(stop);
      },
    };
    try {
      for await (const batch of this.executor(execution)) {
        if (this.reason) throw this.failure();
        if (batch.length > 0) yield batch;
        if (this.reason) throw this.failure();
      }
      if (this.reason) throw this.failure();
    } catch (error) {
      if (this.reason) throw this.failure();
      throw this.mapError(error, this.timeoutMs);
    } finally {
      clearTimeout(timer);
      this.signal?.removeEventListener('abort', onAbort);
    }
  }
}

/** All rows of a stream (for small results: previews, tests). */
export async function collect(stream: QueryStream): Promise<{ columns: ResultColumn[]; rows: Row[] }> {
  const rows: Row[] = [];
  for await (const batch of stream.batches()) for (const row of batch) rows.push(row);
  return { columns: [...(stream.columns ?? [])], rows };
}
