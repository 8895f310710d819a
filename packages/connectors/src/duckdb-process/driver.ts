import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { loadFailed } from '../bulk.ts';
import { defaultCapabilities } from '../capabilities.ts';
import { cancelledError, connectorError, ConnectorError, queryFailed } from '../errors.ts';
import { DriverBase } from '../driver-base.ts';
import { GuardedQueryStream, type Execution } from '../stream.ts';
import type {
  BulkLoadOptions,
  BulkLoadResult,
  ColumnInfo,
  CsvFileSource,
  DataSourceConfig,
  DriverInfo,
  LoadColumn,
  LoadRow,
  ParamValue,
  QueryOptions,
  QueryStream,
  Row,
  RowCondition,
  SqlInspection,
  TableInfo,
  TableOptions,
  TableRef,
} from '../types.ts';
import { acquireEngine, releaseEngine, type EngineProcess } from './engine-process.ts';
import { fromWire, LOAD_WINDOW, type FromEngine } from './protocol.ts';

/** Rows per batch sent to the engine during a load. */
const LOAD_BATCH_ROWS = 2048;

/** Options without their AbortSignal (it cannot cross to the engine; `cancel` messages do its work). */
function withoutSignal<T extends { signal?: AbortSignal }>(options: T): Omit<T, 'signal'> {
  const { signal: _signal, ...rest } = options;
  return rest;
}

/**
 * Embedded DuckDB run in an engine process of its own (duckdb-host.ts): the same driver, each
 * call forwarded. The server's memory then holds only what it asked for; the engine's buffer
 * pool and working sets grow in the engine process (issue 20's server RSS goal,
 * docs/architecture.md "The DuckDB engine process").
 */
export class DuckDBProcessDriver extends DriverBase {
  readonly type = 'duckdb' as const;
  protected readonly defaultSchemaSql = 'SELECT current_schema()';
  private readonly key: string;
  private engine: EngineProcess | null = null;
  private closed = false;
  private infoCache: Promise<DriverInfo> | null = null;

  constructor(private readonly config: DataSourceConfig) {
    super();
    const file = config.path && config.path !== '' ? config.path : ':memory:';
    this.key = file === ':memory:' ? `:memory:${randomUUID()}` : path.resolve(file);
  }

  private process(): EngineProcess {
    if (this.closed) throw connectorError('closed', 'closed');
    this.engine ??= acquireEngine(this.config, this.key);
    return this.engine;
  }

  private call<T>(method: Parameters<EngineProcess['call']>[0], args: unknown[], signal?: AbortSignal): Promise<T> {
    try {
      return this.process().call<T>(method, args, signal);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  info(): Promise<DriverInfo> {
    this.infoCache ??= this.call<DriverInfo>('info', []).catch((error: unknown) => {
      this.infoCache = null;
      throw error;
    });
    return this.infoCache;
  }

  listTables(): Promise<TableInfo[]> {
    return this.call('listTables', []);
  }

  listColumns(table: TableRef): Promise<ColumnInfo[]> {
    return this.call('listColumns', [table]);
  }

  inspectSql(sql: string): Promise<SqlInspection> {
    return this.call('inspectSql', [sql]);
  }

  query(sql: string, params: readonly ParamValue[] = [], options: QueryOptions = {}): QueryStream {
    const timeoutMs = this.timeoutOf(options, this.config.defaultTimeoutMs);
    // The engine enforces the timeout itself; this side steps in only when the engine does not answer.
    const capabilities = { ...defaultCapabilities('duckdb'), serverStatementTimeout: true };
    return new GuardedQueryStream(
      capabilities,
      timeoutMs,
      options.signal,
      (execution) => this.stream(sql, params, timeoutMs, { rawBytes: options.rawBytes === true, rowLimit: options.rowLimit }, execution),
      (error) => (error instanceof ConnectorError ? error : queryFailed(error)),
    );
  }

  /** The engine's batches of one query, read with back-pressure: one `pull` per batch taken. */
  private async *stream(
    sql: string,
    params: readonly ParamValue[],
    timeoutMs: number,
    read: { rawBytes: boolean; rowLimit: number | undefined },
    execution: Execution,
  ): AsyncGenerator<Row[], void, undefined> {
    const engine = this.process();
    const inbox: FromEngine[] = [];
    let wake: (() => void) | null = null;
    const id = await engine.open(
      (message) => {
        inbox.push(message);
        wake?.();
        wake = null;
      },
      (id) => ({
        t: 'query',
        id,
        sql,
        params: [...params],
        timeoutMs,
        rawBytes: read.rawBytes,
        ...(read.rowLimit === undefined ? {} : { rowLimit: read.rowLimit }),
      }),
    );
    let done = false;
    execution.onCancel(() => {
      if (!done) engine.post({ t: 'cancel', id });
    });
    const stopWaiting = () => {
      wake?.();
      wake = null;
    };
    execution.signal.addEventListener('abort', stopWaiting, { once: true });
    try {
      for (;;) {
        execution.signal.throwIfAborted();
        const message = inbox.shift();
        if (!message) {
          await new Promise<void>((resolve) => (wake = resolve));
          continue;
        }
        if (message.t === 'rows') {
          if (message.columns) execution.setColumns(message.columns);
          if (message.last) {
            done = true;
            yield message.rows;
            return;
          }
          engine.post({ t: 'pull', id });
          yield message.rows;
        } else if (message.t === 'error') {
          done = true;
          throw fromWire(message.error);
        }
      }
    } finally {
      // Left early (a consumer's break, a cancel): the engine stops the statement.
      execution.signal.removeEventListener('abort', stopWaiting);
      if (!done) engine.post({ t: 'cancel', id });
      engine.finish(id);
    }
  }

  async bulkLoad(
    table: string,
    columns: readonly LoadColumn[],
    rows: AsyncIterable<LoadRow> | Iterable<LoadRow>,
    options: BulkLoadOptions = {},
  ): Promise<BulkLoadResult> {
    const engine = this.process();
    let credit = LOAD_WINDOW;
    let wake: (() => void) | null = null;
    let done = false;
    let sourceFailure: ConnectorError | null = null;
    const outcome = new Promise<BulkLoadResult>((resolve, reject) => {
      void engine
        .open(
          (message) => {
            if (message.t === 'need') credit += 1;
            else if (message.t === 'result' || message.t === 'error') {
              done = true;
              engine.finish(message.id);
              if (message.t === 'result') resolve(message.value as BulkLoadResult);
              else reject(fromWire(message.error));
            } else return;
            wake?.();
            wake = null;
          },
          (id) => ({ t: 'load', id, table, columns: [...columns], options: withoutSignal(options) }),
        )
        .then((id) => feed(id))
        .catch(reject);
    });
    // The rows are read here and sent in batches, never more than LOAD_WINDOW ahead of the engine.
    const feed = async (id: number): Promise<void> => {
      const onAbort = () => engine.post({ t: 'cancel', id });
      options.signal?.addEventListener('abort', onAbort, { once: true });
      let batch: LoadRow[] = [];
      const send = async () => {
        while (credit === 0 && !done) await new Promise<void>((resolve) => (wake = resolve));
        if (done) return;
        credit -= 1;
        engine.post({ t: 'chunk', id, rows: batch });
        batch = [];
      };
      try {
        for await (const row of rows) {
          if (done) return;
          batch.push(row);
          if (batch.length >= LOAD_BATCH_ROWS) await send();
        }
        if (batch.length > 0) await send();
        engine.post({ t: 'chunkEnd', id });
      } catch (error) {
        // The rows' own failure (a bad value the server found): the engine drops the table, the
        // caller gets this error as the in-process driver would give it.
        sourceFailure = loadFailed(error);
        engine.post({ t: 'cancel', id });
      } finally {
        options.signal?.removeEventListener('abort', onAbort);
      }
    };
    try {
      return await outcome;
    } catch (error) {
      if (sourceFailure) throw sourceFailure;
      if (options.signal?.aborted && error instanceof ConnectorError && error.kind === 'cancelled') throw cancelledError();
      throw error;
    }
  }

  bulkLoadCsvFile(table: string, columns: readonly LoadColumn[], file: CsvFileSource, options: BulkLoadOptions = {}): Promise<BulkLoadResult> {
    return this.call('bulkLoadCsvFile', [table, columns, file, withoutSignal(options)], options.signal);
  }

  bulkLoadSelect(
    table: string,
    columns: readonly LoadColumn[],
    select: { sql: string; params: readonly ParamValue[] },
    options: BulkLoadOptions = {},
  ): Promise<BulkLoadResult> {
    return this.call('bulkLoadSelect', [table, columns, select, withoutSignal(options)], options.signal);
  }

  copySelectToCsvFile(
    select: { sql: string; params: readonly ParamValue[] },
    options: { timeoutMs?: number; signal?: AbortSignal; header?: boolean } = {},
  ): Promise<{ file: string; rows: number }> {
    return this.call('copySelectToCsvFile', [select, withoutSignal(options)], options.signal);
  }

  appendRows(table: string, columns: readonly LoadColumn[], rows: readonly LoadRow[], options: TableOptions = {}): Promise<BulkLoadResult> {
    return this.call('appendRows', [table, columns, rows, options]);
  }

  deleteRows(table: string, where: readonly RowCondition[], options: TableOptions = {}): Promise<BulkLoadResult> {
    return this.call('deleteRows', [table, where, options]);
  }

  tableExists(table: string, options: TableOptions = {}): Promise<boolean> {
    return this.call('tableExists', [table, options]);
  }

  renameTable(from: string, to: string, options: TableOptions = {}): Promise<void> {
    return this.call('renameTable', [from, to, options]);
  }

  dropTable(table: string, options: TableOptions = {}): Promise<void> {
    return this.call('dropTable', [table, options]);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.engine) await releaseEngine(this.key);
  }
}
