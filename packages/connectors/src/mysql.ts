import { Readable } from 'node:stream';
import mysql from 'mysql2/promise';
import type { Connection as CoreConnection, FieldPacket } from 'mysql2';
import { getDialect } from '@shutu/query';
import { batches, checkColumns, loadFailed, newIdentifier, runRename, withoutStagingTables } from './bulk.ts';
import { csvText } from './csv-text.ts';
import { defaultCapabilities } from './capabilities.ts';
import { connectorError, ConnectorError, errorCode, networkError, queryFailed, readOnlyError, timeoutError } from './errors.ts';
import { normalise, uniqueNames, viewDataTypeOf, type ValueKind } from './normalise.ts';
import { DriverBase } from './driver-base.ts';
import { GuardedQueryStream, type Execution } from './stream.ts';
import type {
  BulkLoadOptions,
  ColumnInfo,
  DataSourceConfig,
  DriverCapabilities,
  DriverInfo,
  LoadColumn,
  LoadColumnType,
  LoadRow,
  ParamValue,
  QueryOptions,
  QueryStream,
  Row,
  TableInfo,
  TableOptions,
  TableRef,
} from './types.ts';
import { DEFAULT_CONNECT_TIMEOUT_MS } from './types.ts';

const dialect = getDialect('mysql');

/** A table's quoted name, with its database when one is given. */
const qualify = (table: string, options: TableOptions) =>
  `${options.schema ? `${dialect.quoteIdentifier(options.schema)}.` : ''}${newIdentifier(dialect, table)}`;

async function existsOn(conn: mysql.Connection, schema: string | undefined, name: string): Promise<boolean> {
  const [found] = await conn.execute('SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = COALESCE(?, DATABASE()) AND TABLE_NAME = ?', [
    schema ?? null,
    name,
  ]);
  return (found as unknown[]).length > 0;
}

/** Protocol column types: [name, kind]. */
const TYPES: Record<number, [string, ValueKind]> = {
  0: ['decimal', 'decimal'],
  246: ['decimal', 'decimal'],
  1: ['tinyint', 'int'],
  2: ['smallint', 'int'],
  3: ['int', 'int'],
  8: ['bigint', 'int'],
  9: ['mediumint', 'int'],
  13: ['year', 'int'],
  4: ['float', 'float'],
  5: ['double', 'float'],
  7: ['timestamp', 'timestamp'],
  12: ['datetime', 'timestamp'],
  10: ['date', 'date'],
  14: ['date', 'date'],
  11: ['time', 'time'],
  16: ['bit', 'binary'],
  245: ['json', 'json'],
  247: ['enum', 'string'],
  248: ['set', 'string'],
  249: ['tinyblob', 'string'],
  250: ['mediumblob', 'string'],
  251: ['longblob', 'string'],
  252: ['blob', 'string'],
  253: ['varchar', 'string'],
  254: ['char', 'string'],
  15: ['varchar', 'string'],
  6: ['null', 'string'],
};
const BINARY_CHARSET = 63;

const LOAD_TYPES: Record<LoadColumnType, string> = { STRING: 'TEXT', NUMBER: 'DOUBLE', INTEGER: 'BIGINT', DATETIME: 'DATETIME(6)', DATE: 'DATE' };

function columnKind(field: FieldPacket): [string, ValueKind] {
  const [name, kind] = TYPES[field.columnType ?? field.type ?? 253] ?? ['varchar', 'string'];
  const binary = (field.characterSet ?? field.charsetNr) === BINARY_CHARSET && kind === 'string' && !['enum', 'set', 'null'].includes(name);
  return binary ? [name.replace('char', 'binary').replace('text', 'blob'), 'binary'] : [name, kind];
}

interface ServerTraits {
  info: DriverInfo;
  /** The session variable that bounds a statement's run time, and its unit. */
  timeout: { variable: string; perSecond: number } | null;
}

/**
 * MySQL and MariaDB through a mysql2 pool. Pool connections are `SET SESSION TRANSACTION
 * READ ONLY` from birth; each query sets the server's statement-time limit (MariaDB's
 * `max_statement_time` in seconds or MySQL's `max_execution_time` in ms: whichever variable
 * the server has) and streams a prepared statement. Cancellation is `KILL QUERY`.
 */
export class MySqlDriver extends DriverBase {
  protected readonly defaultSchemaSql = 'SELECT DATABASE()';
  readonly type = 'mysql' as const;
  private readonly pool: mysql.Pool;
  private readonly options: mysql.ConnectionOptions;
  private readonly host: string;
  private readonly port: number;
  private readonly connectTimeoutMs: number;
  private traitsCache: Promise<ServerTraits> | null = null;
  private probed: DriverInfo | null = null;
  private closed = false;

  constructor(private readonly config: DataSourceConfig) {
    super();
    this.host = config.host ?? '127.0.0.1';
    this.port = config.port ?? 3306;
    this.connectTimeoutMs = config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    this.options = {
      host: this.host,
      port: this.port,
      user: config.user,
      password: config.password ?? undefined,
      database: config.database,
      connectTimeout: this.connectTimeoutMs,
      charset: 'utf8mb4',
      dateStrings: true,
      supportBigNumbers: true,
      bigNumberStrings: true,
      decimalNumbers: false,
      multipleStatements: false,
      maxPreparedStatements: 64,
    };
    this.pool = mysql.createPool({ ...this.options, connectionLimit: config.maxConnections ?? 5, maxIdle: 2, idleTimeout: 30_000 });
    // The event hands over the callback-style connection under the promise wrapper. The SET
    // is queued before the connection's first use, so every statement on it is read-only.
    this.pool.on('connection', (connection) => {
      const core = connection as unknown as CoreConnection;
      core.query('SET SESSION TRANSACTION READ ONLY', (error) => {
        if (error) core.destroy();
      });
    });
  }

  private connectError(error: unknown): ConnectorError {
    const code = errorCode(error);
    const text = error instanceof Error ? error.message : String(error);
    if (code === 'ER_ACCESS_DENIED_ERROR' || code === 'ER_DBACCESS_DENIED_ERROR') return connectorError('auth', 'auth', {}, text, error);
    if (code === 'ER_BAD_DB_ERROR') return connectorError('database', 'databaseUnknown', { database: this.config.database ?? '' }, text, error);
    return networkError(error, { host: this.host, port: this.port }, this.connectTimeoutMs) ?? queryFailed(error);
  }

  private mapError = (error: unknown, timeoutMs: number): ConnectorError => {
    if (error instanceof ConnectorError) return error;
    const errno = (error as { errno?: number }).errno;
    if (errno === 1969 || errno === 3024) return timeoutError(timeoutMs, error);
    if (errno === 1792) return readOnlyError(error);
    if (errno === 1317) return connectorError('cancelled', 'cancelled', {}, (error as Error).message, error);
    return networkError(error, { host: this.host, port: this.port }, this.connectTimeoutMs) ?? queryFailed(error);
  };

  private async connection(): Promise<mysql.PoolConnection> {
    if (this.closed) throw connectorError('closed', 'closed');
    try {
      return await this.pool.getConnection();
    } catch (error) {
      throw this.connectError(error);
    }
  }

  /** Probes what the server can do: which statement-time variable it has, whether INTERSECT parses. */
  private traits(): Promise<ServerTraits> {
    this.traitsCache ??= (async () => {
      const c = await this.connection();
      try {
        const ok = (sql: string) =>
          c.query(sql).then(
            () => true,
            () => false,
          );
        const [[version]] = (await c.query('SELECT VERSION() AS v')) as unknown as [[{ v: string }]];
        const timeout = (await ok('SELECT @@max_statement_time'))
          ? { variable: 'max_statement_time', perSecond: 1 }
          : (await ok('SELECT @@max_execution_time'))
            ? { variable: 'max_execution_time', perSecond: 1000 }
            : null;
        const capabilities: DriverCapabilities = {
          ...defaultCapabilities('mysql'),
          setOperations: await ok('SELECT 1 INTERSECT SELECT 1'),
          // Whether LIKE ignores case depends on each column's collation (bulk-loaded tables are
          // utf8mb4_bin): LOWER(x) LIKE LOWER(p) is right for every collation.
          likeIgnoresCase: false,
          serverStatementTimeout: timeout !== null,
        };
        this.probed = { dialect: 'mysql' as const, capabilities, serverVersion: version.v };
        return { info: this.probed, timeout };
      } finally {
        c.release();
      }
    })().catch((error: unknown) => {
      this.traitsCache = null;
      throw error instanceof ConnectorError ? error : this.mapError(error, 0);
    });
    return this.traitsCache;
  }

  async info(): Promise<DriverInfo> {
    return (await this.traits()).info;
  }

  async listTables(): Promise<TableInfo[]> {
    const rows = await this.rows(
      `SELECT TABLE_SCHEMA AS \`schema\`, TABLE_NAME AS name, IF(TABLE_TYPE = 'VIEW', 'VIEW', 'TABLE') AS type,
              IF(TABLE_TYPE = 'VIEW', '', TABLE_COMMENT) AS comment
         FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME`,
    );
    return withoutStagingTables(
      rows.map((r) => ({ schema: String(r.schema), name: String(r.name), type: r.type === 'VIEW' ? 'VIEW' : 'TABLE', comment: String(r.comment ?? '') })),
    );
  }

  async listColumns(table: TableRef): Promise<ColumnInfo[]> {
    const { schema, name } = typeof table === 'string' ? { schema: null, name: table } : table;
    const rows = await this.rows(
      `SELECT COLUMN_NAME AS name, COLUMN_TYPE AS type, COLUMN_COMMENT AS comment FROM information_schema.COLUMNS
        WHERE TABLE_SCHEMA = COALESCE(?, DATABASE()) AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION`,
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

  query(sql: string, params: readonly ParamValue[] = [], options: QueryOptions = {}): QueryStream {
    const timeoutMs = this.timeoutOf(options, this.config.defaultTimeoutMs);
    // Capabilities are probed on the first query; until then the dialect's defaults hold.
    const caps = this.probed?.capabilities ?? defaultCapabilities('mysql');
    return new GuardedQueryStream(caps, timeoutMs, options.signal, (execution) => this.execute(sql, params, execution), this.mapError);
  }

  private async kill(threadId: number): Promise<void> {
    const c = await mysql.createConnection(this.options);
    try {
      await c.query(`KILL QUERY ${Number(threadId)}`);
    } finally {
      await c.end().catch(() => c.destroy());
    }
  }

  private async *execute(sql: string, params: readonly ParamValue[], execution: Execution): AsyncGenerator<Row[], void, undefined> {
    const { timeout } = await this.traits();
    const conn = await this.connection();
    execution.onCancel(() => this.kill(conn.threadId));
    let done = false;
    try {
      if (timeout) await conn.query(`SET SESSION ${timeout.variable} = ${Math.max(1, Math.ceil((execution.timeoutMs * timeout.perSecond) / 1000))}`);
      execution.signal.throwIfAborted();
      // The callback-style connection under the promise wrapper: its command streams rows.
      const core = conn.connection as unknown as CoreConnection;
      const command = core.execute({ sql, rowsAsArray: true }, [...params]);
      let names: string[] = [];
      let kinds: ValueKind[] = [];
      command.on('fields', (fields: FieldPacket[]) => {
        const described = fields.map(columnKind);
        names = uniqueNames(fields.map((f) => f.name));
        kinds = described.map(([, kind]) => kind);
        execution.setColumns(names.map((name, i) => ({ name, databaseType: described[i]![0], viewDataType: viewDataTypeOf(described[i]![0]) })));
      });
      const stream = command.stream({ highWaterMark: 500 });
      let batch: Row[] = [];
      for await (const values of stream as AsyncIterable<unknown[]>) {
        const row: Row = {};
        values.forEach((v, i) => (row[names[i]!] = normalise(kinds[i]!, v)));
        batch.push(row);
        if (batch.length >= 500) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
      done = true;
    } finally {
      // A connection left mid-result (loop left early, cancelled) still has rows on the wire: drop it.
      if (done && !execution.signal.aborted) conn.release();
      else {
        if (!done) await this.kill(conn.threadId).catch(() => undefined);
        conn.destroy();
      }
    }
  }

  /**
   * LOAD DATA LOCAL INFILE from a stream of CSV text (the rows converted here, never a file on
   * disk). MySQL turns errors of a LOCAL load into warnings, so any warning fails the load too.
   * DDL is not transactional here: a failure drops the new table.
   */
  async bulkLoad(table: string, columns: readonly LoadColumn[], rows: AsyncIterable<LoadRow> | Iterable<LoadRow>, options: BulkLoadOptions = {}) {
    const names = checkColumns(dialect, columns);
    const qualified = qualify(table, options);
    if (this.closed) throw connectorError('closed', 'closed');
    // A connection of its own: the pool's are read-only.
    const conn = await mysql.createConnection(this.options).catch((error: unknown) => {
      throw this.connectError(error);
    });
    try {
      if (await existsOn(conn, options.schema, table)) throw connectorError('tableExists', 'tableExists', { name: table });
      const defs = columns.map((c, i) => `${names[i]} ${LOAD_TYPES[c.type]}${c.comment ? ` COMMENT ${dialect.escapeString(c.comment)}` : ''}`);
      // utf8mb4_bin: equality, grouping and order by code point, as on the other engines.
      const comment = options.comment ? ` COMMENT=${dialect.escapeString(options.comment)}` : '';
      await conn.query(`CREATE TABLE ${qualified} (${defs.join(', ')}) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin${comment}`).catch((error: unknown) => {
        throw loadFailed(error);
      });
      let count = 0;
      let failure: unknown = null;
      const text = (async function* () {
        try {
          for await (const batch of batches(columns, rows, options.batchSize ?? 1000, options.signal)) {
            count += batch.length;
            yield Buffer.from(csvText(batch, 'NULL'));
          }
        } catch (error) {
          failure = error;
          throw error;
        }
      })();
      try {
        const [result] = await conn.query<mysql.ResultSetHeader>({
          sql: `LOAD DATA LOCAL INFILE 'rows.csv' INTO TABLE ${qualified} CHARACTER SET utf8mb4
            FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '"' ESCAPED BY '' LINES TERMINATED BY '\n' (${names.join(', ')})`,
          infileStreamFactory: () => Readable.from(text),
        });
        if (failure !== null) throw failure;
        if (result.warningStatus > 0) {
          const [warnings] = await conn.query<mysql.RowDataPacket[]>('SHOW WARNINGS LIMIT 1');
          throw new Error(String(warnings[0]?.Message ?? `${result.warningStatus} warnings`));
        }
        if (result.affectedRows !== count) throw new Error(`${result.affectedRows} of ${count} rows loaded`);
        return { rows: count };
      } catch (error) {
        await conn.query(`DROP TABLE IF EXISTS ${qualified}`).catch(() => undefined);
        throw loadFailed(failure ?? error);
      }
    } catch (error) {
      throw this.mapError(error, 0);
    } finally {
      await conn.end().catch(() => conn.destroy());
    }
  }

  /** Runs `fn` on a connection of its own (the pool's are read-only), mapping failures to ConnectorErrors. */
  private async withWriteConnection<T>(fn: (conn: mysql.Connection) => Promise<T>): Promise<T> {
    if (this.closed) throw connectorError('closed', 'closed');
    const conn = await mysql.createConnection(this.options).catch((error: unknown) => {
      throw this.connectError(error);
    });
    try {
      return await fn(conn);
    } catch (error) {
      throw this.mapError(error, 0);
    } finally {
      await conn.end().catch(() => conn.destroy());
    }
  }

  async tableExists(table: string, options: TableOptions = {}): Promise<boolean> {
    return this.withWriteConnection((conn) => existsOn(conn, options.schema, table));
  }

  async renameTable(from: string, to: string, options: TableOptions = {}): Promise<void> {
    const sql = `RENAME TABLE ${qualify(from, options)} TO ${qualify(to, options)}`;
    await this.withWriteConnection((conn) =>
      runRename(from, to, { exists: (name) => existsOn(conn, options.schema, name), rename: async () => void (await conn.query(sql)) }),
    );
  }

  async dropTable(table: string, options: TableOptions = {}): Promise<void> {
    await this.withWriteConnection((conn) => conn.query(`DROP TABLE IF EXISTS ${qualify(table, options)}`));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}
