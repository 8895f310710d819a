import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { Readable } from 'node:stream';
import net from 'node:net';
import { ClickHouseLogLevel, createClient, type ClickHouseClient, type ClickHouseSettings } from '@clickhouse/client';
import { getDialect } from '@shutu/query';
import { batches, checkColumns, loadFailed, newIdentifier, runRename, withoutStagingTables } from './bulk.ts';
import { defaultCapabilities } from './capabilities.ts';
import { ClusterTables, probeClusterLayout } from './clickhouse-cluster.ts';
import { trailingException, tsvLine } from './clickhouse-tsv.ts';
import { csvText } from './csv-text.ts';
import { connectorError, ConnectorError, errorCode, isWriteStatement, networkError, queryFailed, readOnlyError, timeoutError } from './errors.ts';
import { kindOfType, normalise, uniqueNames, viewDataTypeOf, type ValueKind } from './normalise.ts';
import { inlineParams } from './placeholders.ts';
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

const dialect = getDialect('clickhouse');

/** A table's quoted name, with its database when one is given. */
const qualify = (table: string, options: TableOptions) =>
  `${options.schema ? `${dialect.quoteIdentifier(options.schema)}.` : ''}${newIdentifier(dialect, table)}`;

const LOAD_TYPES: Record<LoadColumnType, string> = {
  STRING: 'Nullable(String)',
  NUMBER: 'Nullable(Float64)',
  INTEGER: 'Nullable(Int64)',
  DATETIME: 'Nullable(DateTime)',
  DATE: 'Nullable(Date)',
};

/** Long enough for any statement: the statement timeout is the server's (and the driver's backstop). */
const REQUEST_TIMEOUT_MS = 6 * 3600_000;

/** An HTTP agent whose TCP connect gives up after `ms` (the client itself has no connect timeout). */
function connectTimeoutAgent(ms: number): http.Agent {
  const agent = new http.Agent({ keepAlive: false, maxSockets: 10 });
  (agent as unknown as { createConnection: (options: net.NetConnectOpts) => net.Socket }).createConnection = (options) => {
    const socket = net.createConnection(options);
    const timer = setTimeout(() => socket.destroy(Object.assign(new Error(`connect timeout after ${ms} ms`), { code: 'ETIMEDOUT' })), ms);
    socket.once('connect', () => clearTimeout(timer));
    socket.once('close', () => clearTimeout(timer));
    return socket;
  };
  return agent;
}

/**
 * ClickHouse over HTTP with @clickhouse/client, written for 18.16 (Debian's package):
 *  - no server-side `{name:Type}` parameters ("Unknown setting param_x"): values are inlined
 *    as literals escaped by the query package's ClickHouse dialect;
 *  - no JSONCompactEachRowWithNamesAndTypes: results stream as TabSeparatedWithNamesAndTypes,
 *    parsed here, so column types are known and UInt64 stays exact;
 *  - an error striking after the headers were sent arrives as a last text line: detected;
 *  - no table comments in system.tables (probed, so a newer server gets them);
 *  - no client connect timeout: a custom agent provides it; ping goes through a client with a
 *    short request timeout, queries through one bounded by the statement timeout.
 * Queries run with readonly=1, max_execution_time and join_use_nulls=1 (LEFT JOIN misses are
 * NULL, as on the other engines). Cancellation aborts the request and sends KILL QUERY.
 */
export class ClickHouseDriver extends DriverBase {
  protected readonly defaultSchemaSql = 'SELECT currentDatabase()';
  readonly type = 'clickhouse' as const;
  private readonly client: ClickHouseClient;
  private readonly probe: ClickHouseClient;
  private readonly host: string;
  private readonly port: number;
  private readonly connectTimeoutMs: number;
  private infoCache: Promise<DriverInfo> | null = null;
  /** The shards when the server is one of a cluster (clickhouse-cluster.ts), probed at the first write. */
  private clusterCache: Promise<ClusterTables | null> | null = null;
  private closed = false;

  constructor(private readonly config: DataSourceConfig) {
    super();
    this.host = config.host ?? '127.0.0.1';
    this.port = config.port ?? 8123;
    this.connectTimeoutMs = config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const common = {
      url: `http://${this.host.includes(':') ? `[${this.host}]` : this.host}:${this.port}`,
      username: config.user || 'default',
      password: config.password ?? '',
      database: config.database || 'default',
      application: 'shutu',
      log: { level: ClickHouseLogLevel.OFF },
      http_agent: connectTimeoutAgent(this.connectTimeoutMs),
    };
    this.client = createClient({ ...common, request_timeout: REQUEST_TIMEOUT_MS });
    this.probe = createClient({ ...common, request_timeout: this.connectTimeoutMs });
  }

  /** 18.16's errors carry their code only in the text (`Code: 159, e.displayText() = …`). */
  private mapError = (error: unknown, timeoutMs: number, sql?: string): ConnectorError => {
    if (error instanceof ConnectorError) return error;
    const text = error instanceof Error ? error.message : String(error);
    const code = /^Code: (\d+)/.exec(text)?.[1] ?? errorCode(error);
    if (code === '159') return timeoutError(timeoutMs, error);
    if (code === '164') return readOnlyError(error);
    // A statement 18.16 does not even parse (DELETE …) is still a write: refused as such.
    if (code === '62' && sql !== undefined && isWriteStatement(sql)) return readOnlyError(error);
    if (code === '192' || code === '193' || code === '516') return connectorError('auth', 'auth', {}, text, error);
    if (code === '81' && /database/i.test(text)) return connectorError('database', 'databaseUnknown', { database: this.config.database ?? '' }, text, error);
    if (code && /^\d+$/.test(code)) return queryFailed(error);
    return networkError(error, { host: this.host, port: this.port }, this.connectTimeoutMs) ?? queryFailed(error);
  };

  private check(): void {
    if (this.closed) throw connectorError('closed', 'closed');
  }

  info(): Promise<DriverInfo> {
    this.infoCache ??= (async () => {
      this.check();
      const text = async (query: string) => (await (await this.probe.query({ query, format: 'TabSeparated' })).text()).trim();
      const version = await text('SELECT version()');
      // 18.16's system.tables has no comment column; later servers do.
      const tableComments = (await text("SELECT count() FROM system.columns WHERE database = 'system' AND table = 'tables' AND name = 'comment'")) !== '0';
      return { dialect: 'clickhouse' as const, capabilities: { ...defaultCapabilities('clickhouse'), tableComments }, serverVersion: version };
    })().catch((error: unknown) => {
      this.infoCache = null;
      throw this.mapError(error, this.connectTimeoutMs);
    });
    return this.infoCache;
  }

  /** The cluster's shards when this server is a shard of one: tables ShuTu writes go to every shard. */
  private clusterTables(): Promise<ClusterTables | null> {
    this.clusterCache ??= probeClusterLayout(this.access())
      .then((layout) => (layout ? new ClusterTables(layout, this.access()) : null))
      .catch((error: unknown) => {
        this.clusterCache = null;
        throw this.mapError(error, 0);
      });
    return this.clusterCache;
  }

  private access() {
    const { user, password, database } = this.config;
    return { client: this.client, host: this.host, port: this.port, username: user || 'default', password: password ?? '', database: database || 'default' };
  }

  async listTables(): Promise<TableInfo[]> {
    const { capabilities } = await this.info();
    const rows = await this.rows(
      `SELECT database AS schema, name, if(engine IN ('View', 'MaterializedView'), 'VIEW', 'TABLE') AS type, ${capabilities.tableComments ? 'comment' : "''"} AS comment
         FROM system.tables WHERE database = currentDatabase() AND NOT is_temporary AND name NOT LIKE '.inner.%' ORDER BY name`,
    );
    return withoutStagingTables(
      rows.map((r) => ({ schema: String(r.schema), name: String(r.name), type: r.type === 'VIEW' ? 'VIEW' : 'TABLE', comment: String(r.comment ?? '') })),
    );
  }

  async listColumns(table: TableRef): Promise<ColumnInfo[]> {
    const { schema, name } = typeof table === 'string' ? { schema: null, name: table } : table;
    const rows = await this.rows(
      `SELECT name, type, comment FROM system.columns WHERE database = ${schema ? '?' : 'currentDatabase()'} AND table = ?`,
      schema ? [schema, name] : [name],
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
    return new GuardedQueryStream(
      defaultCapabilities('clickhouse'),
      timeoutMs,
      options.signal,
      (execution) => this.execute(sql, params, execution),
      (error, ms) => this.mapError(error, ms, sql),
    );
  }

  private async kill(queryId: string): Promise<void> {
    await this.probe.command({ query: `KILL QUERY WHERE query_id = ${dialect.escapeString(queryId)} ASYNC` }).catch(() => undefined);
  }

  private async *execute(sql: string, params: readonly ParamValue[], execution: Execution): AsyncGenerator<Row[], void, undefined> {
    this.check();
    await this.info();
    const text = inlineParams(dialect, sql, params);
    const queryId = randomUUID();
    execution.onCancel(() => this.kill(queryId));
    const settings: ClickHouseSettings = {
      max_execution_time: Math.max(1, Math.ceil(execution.timeoutMs / 1000)),
      join_use_nulls: 1,
      // A query on a Distributed table whose IN / JOIN reads another Distributed table (a
      // cluster, docs/deploy.md "ClickHouse cluster"): the inner read runs once on this node and
      // its rows go to every shard (GLOBAL IN / GLOBAL JOIN), right whatever the sharding keys.
      // 18.16's default refuses such a query ("Double-distributed IN/JOIN subqueries is denied");
      // without Distributed tables the setting changes nothing.
      distributed_product_mode: 'global',
      // Last: after readonly=1 the server refuses to change settings.
      readonly: '1',
    };
    execution.signal.throwIfAborted();
    const result = await this.client.query({
      query: text,
      format: 'TabSeparatedWithNamesAndTypes',
      clickhouse_settings: settings,
      query_id: queryId,
      abort_signal: execution.signal,
    });
    let done = false;
    try {
      let names: string[] | null = null;
      let rawNames: string[] = [];
      let kinds: ValueKind[] = [];
      let pending: string | null = null;
      const toRow = (line: string): Row => {
        const fields = tsvLine(line);
        if (fields.length !== kinds.length) {
          throw trailingException(line) ?? new Error(`unexpected ClickHouse row: ${line.slice(0, 200)}`);
        }
        const row: Row = {};
        fields.forEach((v, i) => (row[names![i]!] = normalise(kinds[i]!, v)));
        return row;
      };
      for await (const lines of result.stream()) {
        const batch: Row[] = [];
        for (const { text: line } of lines) {
          if (names === null) {
            if (rawNames.length === 0) {
              rawNames = tsvLine(line).map((n) => n ?? '');
              continue;
            }
            const types = tsvLine(line).map((t) => t ?? 'String');
            names = uniqueNames(rawNames);
            kinds = types.map(kindOfType);
            execution.setColumns(names.map((name, i) => ({ name, databaseType: types[i]!, viewDataType: viewDataTypeOf(types[i]!) })));
            continue;
          }
          // With one column an exception line is indistinguishable from a value until the stream ends.
          if (pending !== null) batch.push(toRow(pending));
          pending = null;
          if (kinds.length === 1 && trailingException(line)) pending = line;
          else batch.push(toRow(line));
        }
        if (batch.length > 0) yield batch;
      }
      if (pending !== null) throw trailingException(pending)!;
      done = true;
    } finally {
      if (!done) {
        result.close();
        await this.kill(queryId);
      }
    }
  }

  /**
   * One INSERT … FORMAT CSV whose body is the rows' CSV text, streamed as they are converted.
   * Not transactional: a failure drops the new table.
   */
  async bulkLoad(table: string, columns: readonly LoadColumn[], rows: AsyncIterable<LoadRow> | Iterable<LoadRow>, options: BulkLoadOptions = {}) {
    const names = checkColumns(dialect, columns);
    const { capabilities } = await this.info();
    const qualified = qualify(table, options);
    try {
      if (await this.existsIn(options.schema, table)) throw connectorError('tableExists', 'tableExists', { name: table });
      const defs = columns.map(
        (c, i) => `${names[i]} ${LOAD_TYPES[c.type]}${c.comment && capabilities.columnComments ? ` COMMENT ${dialect.escapeString(c.comment)}` : ''}`,
      );
      const comment = options.comment && capabilities.tableComments ? ` COMMENT ${dialect.escapeString(options.comment)}` : '';
      const cluster = await this.clusterTables();
      // On a cluster: a local table on every shard under a Distributed one, rows spread over the shards.
      const into = cluster
        ? await cluster.create(options.schema, table, defs.join(', '), comment).catch((error: unknown) => {
            throw loadFailed(error);
          })
        : await this.client.command({ query: `CREATE TABLE ${qualified} (${defs.join(', ')}) ENGINE = MergeTree() ORDER BY tuple()${comment}` }).then(
            () => qualified,
            (error: unknown) => {
              throw loadFailed(error);
            },
          );
      try {
        return await this.streamCsv(into, columns, names, rows, cluster ? { ...options, settings: { insert_distributed_sync: 1 } } : options);
      } catch (error) {
        await (cluster ? cluster.drop(options.schema, table) : this.client.command({ query: `DROP TABLE IF EXISTS ${qualified}` })).catch(() => undefined);
        throw loadFailed(error);
      }
    } catch (error) {
      throw this.mapError(error, 0);
    }
  }

  /**
   * Rows into an existing table through the same CSV path as bulkLoad (one INSERT … FORMAT CSV,
   * streamed as the rows are converted), with extra insert settings: the cluster loader inserts
   * into a Distributed table with `insert_distributed_sync: 1`, so each row is written to its
   * shard (by the table's sharding key) before the call returns. Not transactional.
   */
  async insertCsv(
    table: string,
    columns: readonly LoadColumn[],
    rows: AsyncIterable<LoadRow> | Iterable<LoadRow>,
    options: BulkLoadOptions & { settings?: ClickHouseSettings } = {},
  ): Promise<{ rows: number }> {
    this.check();
    const names = checkColumns(dialect, columns);
    try {
      return await this.streamCsv(qualify(table, options), columns, names, rows, options);
    } catch (error) {
      throw this.mapError(loadFailed(error), 0);
    }
  }

  private async streamCsv(
    qualified: string,
    columns: readonly LoadColumn[],
    names: string[],
    rows: AsyncIterable<LoadRow> | Iterable<LoadRow>,
    options: BulkLoadOptions & { settings?: ClickHouseSettings },
  ): Promise<{ rows: number }> {
    let count = 0;
    let failure: unknown = null;
    // DateTime takes whole seconds on 18.16.
    const datetimes = columns.flatMap((c, i) => (c.type === 'DATETIME' ? [i] : []));
    const text = (async function* () {
      try {
        for await (const batch of batches(columns, rows, options.batchSize ?? 10_000, options.signal)) {
          for (const row of batch) for (const i of datetimes) if (typeof row[i] === 'string') row[i] = (row[i] as string).slice(0, 19);
          count += batch.length;
          yield csvText(batch, '\\N');
        }
      } catch (error) {
        failure = error;
        throw error;
      }
    })();
    try {
      await this.client.insert({
        table: qualified,
        values: Readable.from(text, { objectMode: false }),
        format: 'CSV',
        columns: names as [string, ...string[]],
        ...(options.settings ? { clickhouse_settings: options.settings } : {}),
      });
    } catch (error) {
      throw failure ?? error;
    }
    if (failure !== null) throw failure;
    return { rows: count };
  }

  private async existsIn(schema: string | undefined, name: string): Promise<boolean> {
    const database = schema ? dialect.escapeString(schema) : 'currentDatabase()';
    const found = await this.rows(`SELECT count() AS n FROM system.tables WHERE database = ${database} AND name = ?`, [name]);
    return found[0]?.n !== 0;
  }

  async tableExists(table: string, options: TableOptions = {}): Promise<boolean> {
    return this.existsIn(options.schema, table);
  }

  async renameTable(from: string, to: string, options: TableOptions = {}): Promise<void> {
    this.check();
    const query = `RENAME TABLE ${qualify(from, options)} TO ${qualify(to, options)}`;
    try {
      const rename = async () => {
        const cluster = await this.clusterTables();
        if (!(await cluster?.rename(options.schema, from, to))) await this.client.command({ query });
      };
      await runRename(from, to, { exists: (name) => this.existsIn(options.schema, name), rename });
    } catch (error) {
      throw this.mapError(error, 0);
    }
  }

  async dropTable(table: string, options: TableOptions = {}): Promise<void> {
    this.check();
    try {
      const cluster = await this.clusterTables();
      if (!(await cluster?.drop(options.schema, table))) await this.client.command({ query: `DROP TABLE IF EXISTS ${qualify(table, options)}` });
    } catch (error) {
      throw this.mapError(error, 0);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const cluster = await this.clusterCache?.catch(() => null);
    await Promise.all([cluster?.close(), this.client.close(), this.probe.close()]);
  }
}
