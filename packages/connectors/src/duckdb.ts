import {
  DuckDBBlobValue,
  DuckDBDateValue,
  DuckDBInstance,
  DuckDBMaterializedResult,
  DuckDBTimestampValue,
  DuckDBTypeId,
  JsonDuckDBValueConverter,
  StatementType,
  type DuckDBAppender,
  type DuckDBConnection,
  type DuckDBDataChunk,
  type DuckDBPreparedStatement,
  type DuckDBResult,
  type DuckDBValue,
} from '@duckdb/node-api';
import { getDialect } from '@shutu/query';
import { duckdbAppendRows, duckdbDeleteRows } from './append.ts';
import { checkColumns, loadFailed, newIdentifier, runLoad, runRename, withoutStagingTables, type CanonicalValue } from './bulk.ts';
import { defaultCapabilities } from './capabilities.ts';
import { appendCsvFile, insertCsvFile, nonFiniteCheck, SerialReadNeeded, withFileIn } from './csv-file.ts';
import { copySelectToCsv, duckdbCsvOutputDir, openDuckDBInstance, type CopyCsvOptions } from './duckdb/copy-csv.ts';
import { KeptStatements } from './duckdb/kept-statements.ts';
import { inspectionOf } from './duckdb-inspect.ts';
import { connectorError, ConnectorError, errorText, queryFailed, readOnlyError } from './errors.ts';
import { normalise, uniqueNames, viewDataTypeOf, type ValueKind } from './normalise.ts';
import { DriverBase } from './driver-base.ts';
import { GuardedQueryStream, type Execution } from './stream.ts';
import type {
  BulkLoadOptions,
  BulkLoadResult,
  ColumnInfo,
  CsvFileSource,
  DataSourceConfig,
  DriverInfo,
  LoadColumn,
  LoadColumnType,
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
} from './types.ts';

const dialect = getDialect('duckdb');

const KIND_BY_TYPE: Partial<Record<DuckDBTypeId, ValueKind>> = {
  [DuckDBTypeId.BOOLEAN]: 'bool',
  [DuckDBTypeId.TINYINT]: 'int',
  [DuckDBTypeId.SMALLINT]: 'int',
  [DuckDBTypeId.INTEGER]: 'int',
  [DuckDBTypeId.BIGINT]: 'int',
  [DuckDBTypeId.UTINYINT]: 'int',
  [DuckDBTypeId.USMALLINT]: 'int',
  [DuckDBTypeId.UINTEGER]: 'int',
  [DuckDBTypeId.UBIGINT]: 'int',
  [DuckDBTypeId.HUGEINT]: 'int',
  [DuckDBTypeId.UHUGEINT]: 'int',
  [DuckDBTypeId.BIGNUM]: 'int',
  [DuckDBTypeId.FLOAT]: 'float',
  [DuckDBTypeId.DOUBLE]: 'float',
  [DuckDBTypeId.DECIMAL]: 'decimal',
  [DuckDBTypeId.DATE]: 'date',
  [DuckDBTypeId.TIMESTAMP]: 'timestamp',
  [DuckDBTypeId.TIMESTAMP_S]: 'timestamp',
  [DuckDBTypeId.TIMESTAMP_MS]: 'timestamp',
  [DuckDBTypeId.TIMESTAMP_NS]: 'timestamp',
  [DuckDBTypeId.TIMESTAMP_TZ]: 'timestamptz',
  [DuckDBTypeId.TIME]: 'time',
  [DuckDBTypeId.TIME_TZ]: 'time',
  [DuckDBTypeId.TIME_NS]: 'time',
  [DuckDBTypeId.BLOB]: 'binary',
  [DuckDBTypeId.LIST]: 'json',
  [DuckDBTypeId.STRUCT]: 'json',
  [DuckDBTypeId.MAP]: 'json',
  [DuckDBTypeId.ARRAY]: 'json',
  [DuckDBTypeId.UNION]: 'json',
  [DuckDBTypeId.VARIANT]: 'json',
};

const LOAD_TYPES: Record<LoadColumnType, string> = { STRING: 'VARCHAR', NUMBER: 'DOUBLE', INTEGER: 'BIGINT', DATETIME: 'TIMESTAMP', DATE: 'DATE' };

function rawValue(kind: ValueKind, value: DuckDBValue): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (kind === 'binary' && value instanceof DuckDBBlobValue) return value.bytes;
  return String(value);
}

const DAY_MS = 86_400_000;

/** Canonical 'YYYY-MM-DD[ HH:mm:ss[.ffffff]]' → microseconds since the epoch (wall clock as UTC). */
function epochMicros(text: string): bigint {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?)?$/.exec(text)!;
  const d = new Date(0);
  d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  d.setUTCHours(Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0), 0);
  return BigInt(d.getTime()) * 1000n + BigInt((m[7] ?? '').padEnd(6, '0') || '0');
}

function append(appender: DuckDBAppender, type: LoadColumnType, value: CanonicalValue): void {
  if (value === null) return appender.appendNull();
  switch (type) {
    case 'STRING':
      return appender.appendVarchar(String(value));
    case 'NUMBER':
      return appender.appendDouble(Number(value));
    case 'INTEGER':
      return appender.appendBigInt(BigInt(value));
    case 'DATETIME':
      return appender.appendTimestamp(new DuckDBTimestampValue(epochMicros(String(value))));
    case 'DATE':
      return appender.appendDate(new DuckDBDateValue(Math.floor(Number(epochMicros(String(value)) / 1000n) / DAY_MS)));
  }
}

/** Creates a new table with its comments. */
async function createTable(connection: DuckDBConnection, qualified: string, names: string[], columns: readonly LoadColumn[], comment?: string): Promise<void> {
  await connection.run(`CREATE TABLE ${qualified} (${names.map((n, i) => `${n} ${LOAD_TYPES[columns[i]!.type]}`).join(', ')})`);
  if (comment) await connection.run(`COMMENT ON TABLE ${qualified} IS ${dialect.escapeString(comment)}`);
  for (const [i, c] of columns.entries()) {
    if (c.comment) await connection.run(`COMMENT ON COLUMN ${qualified}.${names[i]} IS ${dialect.escapeString(c.comment)}`);
  }
}

/** A table or view of this name (DuckDB matches names ignoring case, so this does too). */
async function existsOn(connection: DuckDBConnection, schema: string | undefined, name: string): Promise<boolean> {
  const found = await connection.runAndReadAll(
    `SELECT 1 FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = COALESCE($1, current_schema()) AND lower(table_name) = lower($2)
     UNION ALL SELECT 1 FROM duckdb_views() WHERE database_name = current_database() AND schema_name = COALESCE($1, current_schema()) AND lower(view_name) = lower($2)`,
    [schema ?? null, name],
  );
  return found.currentRowCount > 0;
}

/**
 * A data source's SQL may read its own database and nothing else: no read_csv('/etc/…'),
 * ATTACH or COPY to the server's files. Locked so a query cannot switch it back on.
 */
export const DUCKDB_LOCKED_DOWN = { enable_external_access: 'false', lock_configuration: 'true' } as const;

/** Idle connections a driver keeps for its next reads (opening one costs ≈ 1–2 ms per query). */
const IDLE_CONNECTIONS = 4;

/**
 * A result its statement's LIMIT bounds to this many rows is read whole (`run`): one trip to
 * DuckDB's thread pool instead of one to start the stream, one per chunk and one more to find
 * the end (≈ 0.3–0.5 ms each on a 2-core box; docs/board-speed.md "Per-request overhead").
 */
const WHOLE_RESULT_MAX_ROWS = 16_384;

/** The result's chunks: a materialized one's from memory, a streamed one's fetched until the empty chunk. */
async function* chunksOf(result: DuckDBResult): AsyncGenerator<DuckDBDataChunk, void, undefined> {
  if (result instanceof DuckDBMaterializedResult) {
    for (let i = 0; i < result.chunkCount; i++) {
      const chunk = result.getChunk(i);
      if (chunk.rowCount > 0) yield chunk;
    }
    return;
  }
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) yield chunk;
}

/**
 * DuckDB, embedded. One connection per query (so interrupting one stops only that one); a
 * read that ran to its end hands its connection back for the next read, every other use
 * (loads, a cancelled or failed read) closes it. Read-only: a statement that is not a single
 * SELECT is refused before it runs. Statement timeout: the driver interrupts the connection
 * (no server to do it).
 */
export class DuckDBDriver extends DriverBase {
  protected readonly defaultSchemaSql = 'SELECT current_schema()';
  readonly type = 'duckdb' as const;
  private instance: Promise<DuckDBInstance> | null = null;
  private readonly connections = new Set<DuckDBConnection>();
  /** Connections of reads that finished, reused before a new one is opened. */
  private readonly idle: DuckDBConnection[] = [];
  /** Reads' prepared statements, kept on their connection for the same SQL's next read. */
  private readonly kept = new KeptStatements();
  private closed = false;
  private readonly path: string;
  private infoCache: Promise<DriverInfo> | null = null;

  constructor(private readonly config: DataSourceConfig) {
    super();
    this.path = config.path && config.path !== '' ? config.path : ':memory:';
  }

  private async connect(): Promise<DuckDBConnection> {
    if (this.closed) throw connectorError('closed', 'closed');
    this.instance ??= openDuckDBInstance(this.path, this.config, DUCKDB_LOCKED_DOWN).catch((error: unknown) => {
      this.instance = null;
      throw connectorError('unreachable', 'fileUnavailable', { path: this.path, detail: errorText(error) }, errorText(error), error);
    });
    const connection = this.idle.pop() ?? (await (await this.instance).connect());
    this.connections.add(connection);
    return connection;
  }

  /**
   * Closes the connection, or keeps it for the next read when `reusable`: only after a SELECT
   * ran to its end, so no statement, transaction or interrupt of its own is left on it.
   */
  private release(connection: DuckDBConnection, reusable = false): void {
    this.connections.delete(connection);
    if (reusable && !this.closed && this.idle.length < IDLE_CONNECTIONS) this.idle.push(connection);
    else this.closeConnection(connection);
  }

  private closeConnection(connection: DuckDBConnection): void {
    this.kept.drop(connection);
    connection.closeSync();
  }

  private async withConnection<T>(fn: (c: DuckDBConnection) => Promise<T>): Promise<T> {
    const connection = await this.connect();
    try {
      return await fn(connection);
    } finally {
      this.release(connection);
    }
  }

  info(): Promise<DriverInfo> {
    this.infoCache ??= this.withConnection(async (c) => {
      const version = (await c.runAndReadAll('SELECT version()')).getRows()[0]?.[0];
      const capabilities = { ...defaultCapabilities('duckdb'), writesCsvFile: this.config.csvOutput === true };
      return { dialect: 'duckdb' as const, capabilities, serverVersion: String(version) };
    }).catch((error: unknown) => {
      this.infoCache = null;
      throw error instanceof ConnectorError ? error : queryFailed(error);
    });
    return this.infoCache;
  }

  async listTables(): Promise<TableInfo[]> {
    const rows = await this.rows(
      `SELECT schema_name AS "schema", table_name AS "name", 'TABLE' AS "type", comment FROM duckdb_tables()
         WHERE database_name = current_database() AND NOT internal AND NOT temporary
       UNION ALL
       SELECT schema_name, view_name, 'VIEW', comment FROM duckdb_views()
         WHERE database_name = current_database() AND NOT internal AND NOT temporary
       ORDER BY 1, 2`,
    );
    return withoutStagingTables(
      rows.map((r) => ({ schema: String(r.schema), name: String(r.name), type: r.type === 'VIEW' ? 'VIEW' : 'TABLE', comment: String(r.comment ?? '') })),
    );
  }

  async listColumns(table: TableRef): Promise<ColumnInfo[]> {
    const { schema, name } = typeof table === 'string' ? { schema: null, name: table } : table;
    const rows = await this.rows(
      `SELECT column_name AS "name", data_type AS "type", comment FROM duckdb_columns()
         WHERE database_name = current_database() AND schema_name = COALESCE($1, current_schema()) AND table_name = $2
         ORDER BY column_index`,
      [schema ?? null, name],
    );
    if (rows.length === 0) throw connectorError('tableNotFound', 'tableNotFound', { name });
    return rows.map((r) => ({
      name: String(r.name),
      comment: String(r.comment ?? ''),
      databaseType: String(r.type),
      viewDataType: viewDataTypeOf(String(r.type)),
    }));
  }

  /** The statement as DuckDB's own parser reads it (json_serialize_sql), without running it. */
  async inspectSql(sql: string): Promise<SqlInspection> {
    const serialized = await this.withConnection(async (c) => (await c.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR)', [sql])).getRows()[0]?.[0]).catch(
      (error: unknown) => {
        throw error instanceof ConnectorError ? error : queryFailed(error);
      },
    );
    return inspectionOf(sql, String(serialized));
  }

  query(sql: string, params: readonly ParamValue[] = [], options: QueryOptions = {}): QueryStream {
    const timeoutMs = this.timeoutOf(options, this.config.defaultTimeoutMs);
    return new GuardedQueryStream(
      defaultCapabilities('duckdb'),
      timeoutMs,
      options.signal,
      (execution) =>
        this.execute(sql, params, execution, options.rawBytes === true, options.rowLimit !== undefined && options.rowLimit <= WHOLE_RESULT_MAX_ROWS),
      (error) => (error instanceof ConnectorError ? error : queryFailed(error)),
    );
  }

  private async *execute(
    sql: string,
    params: readonly ParamValue[],
    execution: Execution,
    rawBytes: boolean,
    whole: boolean,
  ): AsyncGenerator<Row[], void, undefined> {
    const connection = await this.connect();
    // Once released, the connection may be running another read: a late cancel must not reach it.
    let owned = true;
    let finished = false;
    execution.onCancel(() => {
      if (owned) connection.interrupt();
    });
    let prepared: DuckDBPreparedStatement | null = null;
    try {
      prepared =
        this.kept.take(connection, sql) ??
        (await connection.prepare(sql).catch((error: unknown) => {
          if (/multiple statements/i.test(errorText(error))) throw connectorError('readOnly', 'singleStatement', {}, errorText(error), error);
          throw error;
        }));
      if (prepared.statementType !== StatementType.SELECT) throw readOnlyError();
      if (params.length > 0) prepared.bind([...params]);
      execution.signal.throwIfAborted();
      const result = whole ? await prepared.run() : await prepared.stream();
      const count = result.columnCount;
      const kinds = Array.from({ length: count }, (_, i) => KIND_BY_TYPE[result.columnTypeId(i)] ?? 'string');
      const names = uniqueNames(result.columnNames());
      execution.setColumns(
        names.map((name, i) => {
          const databaseType = result.columnType(i).toString();
          return { name, databaseType, viewDataType: viewDataTypeOf(databaseType) };
        }),
      );
      for await (const chunk of chunksOf(result)) {
        const columns = kinds.map((kind, i) =>
          kind === 'json' ? chunk.convertColumnValues(i, JsonDuckDBValueConverter) : chunk.getColumnValues(i).map((v) => rawValue(kind, v)),
        );
        const batch: Row[] = [];
        for (let r = 0; r < chunk.rowCount; r++) {
          const row: Row = {};
          for (let c = 0; c < count; c++) {
            const raw = columns[c]![r];
            row[names[c]!] = rawBytes && raw instanceof Uint8Array ? (raw as unknown as Row[string]) : normalise(kinds[c]!, raw);
          }
          batch.push(row);
        }
        yield batch;
      }
      finished = !execution.signal.aborted;
    } finally {
      owned = false;
      if (prepared && finished && !this.closed) this.kept.keep(connection, sql, prepared);
      else prepared?.destroySync();
      this.release(connection, finished);
    }
  }

  async bulkLoad(table: string, columns: readonly LoadColumn[], rows: AsyncIterable<LoadRow> | Iterable<LoadRow>, options: BulkLoadOptions = {}) {
    const names = checkColumns(dialect, columns);
    const qualified = `${options.schema ? `${dialect.quoteIdentifier(options.schema)}.` : ''}${newIdentifier(dialect, table)}`;
    const connection = await this.connect();
    let appender: DuckDBAppender | null = null;
    try {
      return await runLoad(
        table,
        columns,
        rows,
        options.batchSize ?? 2048,
        {
          exists: () => existsOn(connection, options.schema, table),
          create: async () => {
            await createTable(connection, qualified, names, columns, options.comment);
            appender = await connection.createAppender(table, options.schema ?? null);
          },
          insert: async (batch) => {
            for (const row of batch) {
              for (const [i, c] of columns.entries()) append(appender!, c.type, row[i]!);
              appender!.endRow();
            }
          },
          finish: async () => {
            appender?.closeSync();
            appender = null;
          },
          drop: async () => {
            try {
              appender?.closeSync();
            } catch {
              // the appender's buffered rows are discarded with the table
            }
            appender = null;
            await connection.run(`DROP TABLE IF EXISTS ${qualified}`);
          },
        },
        options.signal,
      );
    } finally {
      this.release(connection);
    }
  }

  /**
   * The file read by DuckDB itself (csv-file.ts): by this instance when it may read its private
   * directory (`csvOutput`), else by a private reader through the appender. The new table is
   * dropped again when anything fails; a loaded one is checkpointed into the database file.
   */
  async bulkLoadCsvFile(table: string, columns: readonly LoadColumn[], file: CsvFileSource, options: BulkLoadOptions = {}): Promise<BulkLoadResult> {
    if (this.config.csvOutput === true)
      return withFileIn(duckdbCsvOutputDir(), file.path, (readable) => this.loadCsvFile(table, columns, { ...file, path: readable }, options, true));
    return this.loadCsvFile(table, columns, file, options, false);
  }

  private async loadCsvFile(
    table: string,
    columns: readonly LoadColumn[],
    file: CsvFileSource,
    options: BulkLoadOptions,
    byInstance: boolean,
  ): Promise<BulkLoadResult> {
    const names = checkColumns(dialect, columns);
    const qualified = `${options.schema ? `${dialect.quoteIdentifier(options.schema)}.` : ''}${newIdentifier(dialect, table)}`;
    const connection = await this.connect();
    try {
      if (await existsOn(connection, options.schema, table)) throw connectorError('tableExists', 'tableExists', { name: table });
      for (const parallel of [true, false]) {
        await createTable(connection, qualified, names, columns, options.comment).catch((error: unknown) => {
          throw loadFailed(error);
        });
        let appender: DuckDBAppender | null = null;
        try {
          let rows: number;
          if (byInstance) rows = await insertCsvFile(connection, qualified, columns, file, { parallel, signal: options.signal });
          else {
            appender = await connection.createAppender(table, options.schema ?? null);
            rows = await appendCsvFile(appender, columns, file, { parallel, signal: options.signal });
            appender.closeSync();
            appender = null;
          }
          const check = nonFiniteCheck(qualified, columns, names);
          if (check !== null && Number((await connection.runAndReadAll(check)).getRows()[0]?.[0] ?? 0) > 0) throw connectorError('invalid', 'csvRefused');
          // The new blocks go to the database file now rather than at some later query (best effort: another writer may hold it off).
          await connection.run('CHECKPOINT').catch(() => undefined);
          return { rows };
        } catch (error) {
          try {
            appender?.closeSync();
          } catch {
            // the appender's buffered rows are discarded with the table
          }
          await connection.run(`DROP TABLE IF EXISTS ${qualified}`).catch(() => undefined);
          if (!(error instanceof SerialReadNeeded)) throw loadFailed(error);
        }
      }
      throw connectorError('invalid', 'csvRefused');
    } finally {
      this.release(connection);
    }
  }

  /**
   * A new table filled by one read-only statement over this database, run by the engine itself
   * (CREATE TABLE, then INSERT … SELECT): no row leaves the engine. The statement must prepare as
   * one SELECT; the table is dropped again when it fails or `signal` stops it.
   */
  async bulkLoadSelect(
    table: string,
    columns: readonly LoadColumn[],
    select: { sql: string; params: readonly ParamValue[] },
    options: BulkLoadOptions = {},
  ): Promise<BulkLoadResult> {
    const names = checkColumns(dialect, columns);
    const qualified = `${options.schema ? `${dialect.quoteIdentifier(options.schema)}.` : ''}${newIdentifier(dialect, table)}`;
    const connection = await this.connect();
    const interrupt = () => connection.interrupt();
    options.signal?.addEventListener('abort', interrupt, { once: true });
    try {
      const probe = await connection.prepare(select.sql).catch((error: unknown) => {
        throw queryFailed(error);
      });
      if (probe.statementType !== StatementType.SELECT) throw readOnlyError();
      if (await existsOn(connection, options.schema, table)) throw connectorError('tableExists', 'tableExists', { name: table });
      await createTable(connection, qualified, names, columns, options.comment).catch((error: unknown) => {
        throw loadFailed(error);
      });
      try {
        options.signal?.throwIfAborted();
        const insert = await connection.prepare(`INSERT INTO ${qualified} ${select.sql}`);
        if (select.params.length > 0) insert.bind([...select.params]);
        const result = await insert.run();
        return { rows: Number(result.rowsChanged) };
      } catch (error) {
        await connection.run(`DROP TABLE IF EXISTS ${qualified}`).catch(() => undefined);
        throw loadFailed(error);
      }
    } finally {
      options.signal?.removeEventListener('abort', interrupt);
      this.release(connection);
    }
  }

  /** The SELECT's rows as a new CSV file written by the engine (copy-csv.ts; only with `csvOutput`). */
  async copySelectToCsvFile(select: { sql: string; params: readonly ParamValue[] }, options: CopyCsvOptions = {}): Promise<{ file: string; rows: number }> {
    if (this.config.csvOutput !== true) throw readOnlyError();
    return this.withConnection((c) => copySelectToCsv(c, select, options));
  }

  /** Columnar chunks through the Appender in one transaction (append.ts). */
  async appendRows(table: string, columns: readonly LoadColumn[], rows: readonly LoadRow[], options: TableOptions = {}): Promise<BulkLoadResult> {
    return this.withConnection((c) => duckdbAppendRows(c, dialect, table, columns, rows, options.schema));
  }

  async deleteRows(table: string, where: readonly RowCondition[], options: TableOptions = {}): Promise<BulkLoadResult> {
    return this.withConnection((c) => duckdbDeleteRows(c, dialect, table, where, options.schema)).catch((error: unknown) => {
      throw loadFailed(error);
    });
  }

  async tableExists(table: string, options: TableOptions = {}): Promise<boolean> {
    return this.withConnection((c) => existsOn(c, options.schema, table)).catch((error: unknown) => {
      throw error instanceof ConnectorError ? error : queryFailed(error);
    });
  }

  async renameTable(from: string, to: string, options: TableOptions = {}): Promise<void> {
    const schema = options.schema ? `${dialect.quoteIdentifier(options.schema)}.` : '';
    const sql = `ALTER TABLE ${schema}${newIdentifier(dialect, from)} RENAME TO ${newIdentifier(dialect, to)}`;
    await this.withConnection((c) =>
      runRename(from, to, { exists: (name) => existsOn(c, options.schema, name), rename: async () => void (await c.run(sql)) }),
    ).catch((error: unknown) => {
      throw loadFailed(error);
    });
  }

  async dropTable(table: string, options: TableOptions = {}): Promise<void> {
    const qualified = `${options.schema ? `${dialect.quoteIdentifier(options.schema)}.` : ''}${newIdentifier(dialect, table)}`;
    await this.withConnection((c) => c.run(`DROP TABLE IF EXISTS ${qualified}`)).catch((error: unknown) => {
      throw loadFailed(error);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const connection of this.connections) {
      connection.interrupt();
      this.closeConnection(connection);
    }
    this.connections.clear();
    for (const connection of this.idle.splice(0)) this.closeConnection(connection);
    // A file database comes from the process-wide cache and may be shared: only an
    // in-memory instance is this driver's alone to close.
    if (this.instance && this.path === ':memory:') (await this.instance.catch(() => null))?.closeSync();
    this.instance = null;
  }
}
