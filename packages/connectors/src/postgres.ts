import net from 'node:net';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, type CopyStreamQuery } from 'pg-copy-streams';
import { getDialect } from '@shutu/query';
import { checkColumns, newIdentifier, runLoad, runRename, withoutStagingTables } from './bulk.ts';
import { defaultCapabilities } from './capabilities.ts';
import { csvText } from './csv-text.ts';
import {
  connectorError,
  ConnectorError,
  errorCode,
  isWriteStatement,
  networkError,
  queryFailed,
  readOnlyError,
  statementStart,
  timeoutError,
} from './errors.ts';
import { normalise, uniqueNames, viewDataTypeOf, type ValueKind } from './normalise.ts';
import { DriverBase } from './driver-base.ts';
import { GuardedQueryStream, type Execution } from './stream.ts';
import type {
  BulkLoadOptions,
  ColumnInfo,
  DataSourceConfig,
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

const dialect = getDialect('postgres');

/** A table's quoted name, with its schema when one is given. */
const qualify = (table: string, options: TableOptions) =>
  `${options.schema ? `${dialect.quoteIdentifier(options.schema)}.` : ''}${newIdentifier(dialect, table)}`;

/** A relation of this exact (quoted, qualified) name on the search path. */
async function existsOn(client: pg.PoolClient, qualified: string): Promise<boolean> {
  const found = await client.query('SELECT to_regclass($1) AS oid', [qualified]);
  return found.rows[0]?.oid !== null;
}

/** Built-in type OIDs: [name, kind]. Anything else is read as text. */
const TYPES: Record<number, [string, ValueKind]> = {
  16: ['boolean', 'bool'],
  17: ['bytea', 'string'],
  20: ['bigint', 'int'],
  21: ['smallint', 'int'],
  23: ['integer', 'int'],
  26: ['oid', 'int'],
  25: ['text', 'string'],
  114: ['json', 'json'],
  3802: ['jsonb', 'json'],
  700: ['real', 'float'],
  701: ['double precision', 'float'],
  1700: ['numeric', 'decimal'],
  1042: ['character', 'string'],
  1043: ['character varying', 'string'],
  19: ['name', 'string'],
  1082: ['date', 'date'],
  1083: ['time without time zone', 'time'],
  1266: ['time with time zone', 'time'],
  1114: ['timestamp without time zone', 'timestamp'],
  1184: ['timestamp with time zone', 'timestamptz'],
  2950: ['uuid', 'string'],
};

const LOAD_TYPES: Record<LoadColumnType, string> = { STRING: 'text', NUMBER: 'double precision', INTEGER: 'bigint', DATETIME: 'timestamp', DATE: 'date' };

/** Every value arrives as the server's text and is normalised here, not by pg's parsers. */
const RAW_TYPES = { getTypeParser: () => (value: string) => value } as unknown as pg.CustomTypesConfig;

const FETCH_ROWS = 1000;
const CURSOR_PREFIX = 'DECLARE shutu_cursor NO SCROLL CURSOR FOR ';
/** Whether a failed DECLARE means the statement is not a read-only query. */
function notAQuery(sql: string, error: unknown): boolean {
  const e = error as { code?: string; position?: string; message?: string };
  if (e.code === '0A000' && /data-modifying/i.test(e.message ?? '')) return true;
  if (e.code !== '42601') return false;
  // A cursor holds only a query: any other statement is a syntax error at its first word.
  return Number(e.position) === CURSOR_PREFIX.length + statementStart(sql) + 1 && isWriteStatement(sql);
}

/** PostgreSQL's out-of-band cancel request: stops whatever the backend is running. */
function sendCancel(host: string, port: number, processId: number, secretKey: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = host.startsWith('/') ? net.connect(`${host}/.s.PGSQL.${port}`) : net.connect(port, host);
    const packet = Buffer.alloc(16);
    packet.writeInt32BE(16, 0);
    packet.writeInt32BE(80877102, 4);
    packet.writeInt32BE(processId, 8);
    packet.writeInt32BE(secretKey, 12);
    socket.setTimeout(3000, () => socket.destroy());
    socket.on('connect', () => socket.end(packet));
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
  });
}

/**
 * PostgreSQL through a pool of `pg` clients. Queries run in a READ ONLY transaction with
 * `SET LOCAL statement_timeout`, through a cursor fetched in batches (streaming without
 * holding the whole result). Cancellation uses the protocol's cancel request.
 */
export class PostgresDriver extends DriverBase {
  protected readonly defaultSchemaSql = 'SELECT current_schema()';
  readonly type = 'postgres' as const;
  private readonly pool: pg.Pool;
  private readonly host: string;
  private readonly port: number;
  private readonly connectTimeoutMs: number;
  private infoCache: Promise<DriverInfo> | null = null;
  private closed = false;

  constructor(private readonly config: DataSourceConfig) {
    super();
    this.host = config.host ?? '127.0.0.1';
    this.port = config.port ?? 5432;
    this.connectTimeoutMs = config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    this.pool = new pg.Pool({
      host: this.host,
      port: this.port,
      database: config.database,
      user: config.user,
      password: config.password ?? undefined,
      max: config.maxConnections ?? 5,
      connectionTimeoutMillis: this.connectTimeoutMs,
      idleTimeoutMillis: 30_000,
      application_name: 'shutu',
      types: RAW_TYPES,
    });
    // An idle client whose server went away must not crash the process.
    this.pool.on('error', () => undefined);
  }

  private async client(): Promise<pg.PoolClient> {
    if (this.closed) throw connectorError('closed', 'closed');
    try {
      return await this.pool.connect();
    } catch (error) {
      throw this.connectError(error);
    }
  }

  private connectError(error: unknown): ConnectorError {
    const code = errorCode(error);
    if (code === '28P01' || code === '28000') return connectorError('auth', 'auth', {}, (error as Error).message, error);
    if (code === '3D000') return connectorError('database', 'databaseUnknown', { database: this.config.database ?? '' }, (error as Error).message, error);
    return networkError(error, { host: this.host, port: this.port }, this.connectTimeoutMs) ?? queryFailed(error);
  }

  private mapError = (error: unknown, timeoutMs: number): ConnectorError => {
    if (error instanceof ConnectorError) return error;
    const code = errorCode(error);
    if (code === '57014') return timeoutError(timeoutMs, error);
    if (code === '25006') return readOnlyError(error);
    if (code === '42601' && /multiple commands/.test((error as Error).message))
      return connectorError('readOnly', 'singleStatement', {}, (error as Error).message, error);
    return networkError(error, { host: this.host, port: this.port }, this.connectTimeoutMs) ?? queryFailed(error);
  };

  info(): Promise<DriverInfo> {
    this.infoCache ??= (async () => {
      const client = await this.client();
      try {
        const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
        return { dialect: 'postgres' as const, capabilities: defaultCapabilities('postgres'), serverVersion: rows[0]?.server_version ?? '' };
      } catch (error) {
        throw this.mapError(error, 0);
      } finally {
        client.release();
      }
    })().catch((error: unknown) => {
      this.infoCache = null;
      throw error;
    });
    return this.infoCache;
  }

  async listTables(): Promise<TableInfo[]> {
    const rows = await this.rows(
      `SELECT n.nspname AS schema, c.relname AS name, CASE WHEN c.relkind IN ('v', 'm') THEN 'VIEW' ELSE 'TABLE' END AS type,
              COALESCE(obj_description(c.oid, 'pg_class'), '') AS comment
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition
          AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
          AND has_schema_privilege(n.oid, 'USAGE')
        ORDER BY 1, 2`,
    );
    return withoutStagingTables(
      rows.map((r) => ({ schema: String(r.schema), name: String(r.name), type: r.type === 'VIEW' ? 'VIEW' : 'TABLE', comment: String(r.comment) })),
    );
  }

  async listColumns(table: TableRef): Promise<ColumnInfo[]> {
    const { schema, name } = typeof table === 'string' ? { schema: null, name: table } : table;
    const rows = await this.rows(
      `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, COALESCE(col_description(a.attrelid, a.attnum), '') AS comment
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = COALESCE(CAST($1 AS name), current_schema()) AND c.relname = $2 AND a.attnum > 0 AND NOT a.attisdropped
        ORDER BY a.attnum`,
      [schema ?? null, name],
    );
    if (rows.length === 0) throw connectorError('tableNotFound', 'tableNotFound', { name });
    return rows.map((r) => ({ name: String(r.name), comment: String(r.comment), databaseType: String(r.type), viewDataType: viewDataTypeOf(String(r.type)) }));
  }

  query(sql: string, params: readonly ParamValue[] = [], options: QueryOptions = {}): QueryStream {
    const timeoutMs = this.timeoutOf(options, this.config.defaultTimeoutMs);
    return new GuardedQueryStream(
      defaultCapabilities('postgres'),
      timeoutMs,
      options.signal,
      (execution) => this.execute(sql, params, execution),
      this.mapError,
    );
  }

  private async *execute(sql: string, params: readonly ParamValue[], execution: Execution): AsyncGenerator<Row[], void, undefined> {
    const client = await this.client();
    const backend = client as unknown as { processID: number; secretKey: number };
    execution.onCancel(() => sendCancel(this.host, this.port, backend.processID, backend.secretKey));
    let done = false;
    try {
      await client.query('BEGIN TRANSACTION READ ONLY');
      await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.ceil(execution.timeoutMs))}`);
      // The extended protocol takes exactly one statement: `…; COMMIT; DROP …` cannot ride along.
      const declare = { text: `${CURSOR_PREFIX}${sql}`, values: [...params], queryMode: 'extended' };
      execution.signal.throwIfAborted();
      await client.query(declare as pg.QueryConfig).catch((error: unknown) => {
        throw notAQuery(sql, error) ? readOnlyError(error) : error;
      });
      let kinds: ValueKind[] | null = null;
      let names: string[] = [];
      for (;;) {
        execution.signal.throwIfAborted();
        const result = await client.query<unknown[]>({ text: `FETCH ${FETCH_ROWS} FROM shutu_cursor`, rowMode: 'array' });
        if (!kinds) {
          kinds = result.fields.map((f) => TYPES[f.dataTypeID]?.[1] ?? 'string');
          names = uniqueNames(result.fields.map((f) => f.name));
          execution.setColumns(
            result.fields.map((f, i) => {
              const databaseType = TYPES[f.dataTypeID]?.[0] ?? `oid ${f.dataTypeID}`;
              return { name: names[i]!, databaseType, viewDataType: viewDataTypeOf(databaseType) };
            }),
          );
        }
        if (result.rows.length === 0) break;
        yield result.rows.map((values) => {
          const row: Row = {};
          values.forEach((v, i) => (row[names[i]!] = normalise(kinds![i]!, v)));
          return row;
        });
        if (result.rows.length < FETCH_ROWS) break;
      }
      done = true;
    } finally {
      // A read-only transaction has nothing to keep: COMMIT after a clean run, ROLLBACK
      // otherwise. A client that was sent a cancel request is not reused: the request may
      // arrive after its statement ended and would hit the next one.
      if (execution.signal.aborted) client.release(true);
      else
        await client.query(done ? 'COMMIT' : 'ROLLBACK').then(
          () => client.release(),
          () => client.release(true),
        );
    }
  }

  /** COPY … FROM STDIN (CSV) inside one transaction: the whole load commits at once, a failure leaves nothing. */
  async bulkLoad(table: string, columns: readonly LoadColumn[], rows: AsyncIterable<LoadRow> | Iterable<LoadRow>, options: BulkLoadOptions = {}) {
    const names = checkColumns(dialect, columns);
    const qualified = qualify(table, options);
    const client = await this.client();
    let open = false;
    let copy: CopyStreamQuery | null = null;
    let broken = false;
    try {
      return await runLoad(
        table,
        columns,
        rows,
        options.batchSize ?? 2000,
        {
          exists: () => existsOn(client, qualified),
          create: async () => {
            await client.query('BEGIN');
            open = true;
            await client.query(`CREATE TABLE ${qualified} (${names.map((n, i) => `${n} ${LOAD_TYPES[columns[i]!.type]}`).join(', ')})`);
            if (options.comment) await client.query(`COMMENT ON TABLE ${qualified} IS ${dialect.escapeString(options.comment)}`);
            for (const [i, c] of columns.entries()) {
              if (c.comment) await client.query(`COMMENT ON COLUMN ${qualified}.${names[i]} IS ${dialect.escapeString(c.comment)}`);
            }
            copy = client.query(copyFrom(`COPY ${qualified} (${names.join(', ')}) FROM STDIN (FORMAT csv)`));
            // Kept until a write or the end looks at it: an early refusal by the server is not lost.
            copy.on('error', () => (broken = true));
          },
          insert: async (batch) => {
            if (!copy!.write(csvText(batch))) await once(copy!, 'drain');
          },
          finish: async () => {
            copy!.end();
            await finished(copy!);
            copy = null;
            await client.query('COMMIT');
            open = false;
          },
          drop: async () => {
            // A COPY cut off half-way leaves the connection mid-protocol: it is discarded (the server rolls back).
            if (copy) broken = true;
            else if (open) await client.query('ROLLBACK');
            open = false;
          },
        },
        options.signal,
      );
    } catch (error) {
      throw this.mapError(error, 0);
    } finally {
      if (broken || copy) {
        (copy as CopyStreamQuery | null)?.destroy();
        client.release(true);
      } else {
        if (open) await client.query('ROLLBACK').catch(() => undefined);
        client.release();
      }
    }
  }

  /** Runs `fn` on a pooled client, mapping failures to ConnectorErrors. */
  private async withClient<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.client();
    try {
      return await fn(client);
    } catch (error) {
      throw this.mapError(error, 0);
    } finally {
      client.release();
    }
  }

  async tableExists(table: string, options: TableOptions = {}): Promise<boolean> {
    return this.withClient((client) => existsOn(client, qualify(table, options)));
  }

  async renameTable(from: string, to: string, options: TableOptions = {}): Promise<void> {
    const sql = `ALTER TABLE ${qualify(from, options)} RENAME TO ${newIdentifier(dialect, to)}`;
    await this.withClient((client) =>
      runRename(from, to, { exists: (name) => existsOn(client, qualify(name, options)), rename: async () => void (await client.query(sql)) }),
    );
  }

  async dropTable(table: string, options: TableOptions = {}): Promise<void> {
    await this.withClient((client) => client.query(`DROP TABLE IF EXISTS ${qualify(table, options)}`));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}
