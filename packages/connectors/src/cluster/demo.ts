import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { getDialect } from '@shutu/query';
import { GENERATOR_VERSION, generateDemoWarehouse, readMeta, type DemoMeta } from '../demo/generate.ts';
import { makePlan, seedDay } from '../demo/plan.ts';
import { DEMO_TABLES, META_TABLE, ORDER_DATA_VIEW, type ColumnSpec, type TableSpec } from '../demo/schema.ts';
import { CLUSTER_NAME, type ShardPorts } from './server.ts';

/**
 * The demo warehouse on the two-shard cluster (issue 27). The data is the generator's own
 * (packages/connectors/src/demo, into an in-memory DuckDB, or an existing warehouse file), so the
 * cluster answers exactly what the embedded DuckDB answers for the same seed, scale and day.
 *
 * On every shard, for each demo table `t`:
 *   t_local  MergeTree, this shard's rows;
 *   t        Distributed(shutu_cluster, default, t_local, cityHash64(<key>)): the whole table.
 * The key is the phone number where a table has one (users, orders, cancellations, usage, tags
 * by user, clicks): a user's rows sit on one shard, so joins by phone stay on the shard. Other
 * tables (dimensions, marketing) shard by their first column; a query joining them reads them
 * whole on the node asking (the driver's distributed_product_mode = 'global').
 * v_order_data is `v_order_data_local` (a view over the shard's own orders, cancellations and
 * usage, which share the shard by phone) under a Distributed table of the same name.
 *
 * Rows go in as CSV written by DuckDB (`COPY … TO`, one part per shard), each part inserted
 * into the Distributed table through its own shard at the same time, with
 * insert_distributed_sync = 1: the server routes each row by the sharding key (loadTables).
 * demo_warehouse_meta (a plain table on each shard) is written last: a load that stopped half
 * way is done again by the next call.
 */

const ch = getDialect('clickhouse');
const q = (name: string) => ch.quoteIdentifier(name);
const str = (text: string) => ch.escapeString(text);

export interface LoadDemoOptions {
  /** Order rows (the generator's scale); default 20 000. */
  orders?: number;
  seed?: number;
  /** Last day of data; default today in China (as the server's built-in warehouse). */
  anchorDate?: string;
  /** Read an existing demo warehouse file instead of generating (its own seed, scale and day). */
  duckdbPath?: string;
  /** Reload even when the cluster already holds this generation. */
  force?: boolean;
}

export interface LoadDemoResult {
  action: 'loaded' | 'kept';
  meta: DemoMeta;
  /** Rows per table as the cluster counts them (Distributed tables). */
  rowCounts: Record<string, number>;
  /** Rows per shard and table (`t_local`). */
  shardCounts: Record<string, number>[];
  millis: number;
}

export interface ClusterTarget {
  shards: readonly ShardPorts[];
}

/** The ClickHouse type of a demo column; Nullable when the data holds a NULL in it. */
function clickHouseType(column: ColumnSpec, nullable: boolean): string {
  const decimal = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(column.type);
  const base = decimal
    ? `Decimal(${decimal[1]}, ${decimal[2]})`
    : ({ VARCHAR: 'String', INTEGER: 'Int32', BIGINT: 'Int64', TIMESTAMP: 'DateTime' } as Record<string, string>)[column.type];
  if (!base) throw new Error(`cluster demo: no ClickHouse type for ${column.name} ${column.type}`);
  return nullable ? `Nullable(${base})` : base;
}

/** What DuckDB's CSV gives ClickHouse: times as 'YYYY-MM-DD HH:mm:ss' (18.16 takes no fraction), the rest as DuckDB writes it. */
function copyExpr(column: ColumnSpec): string {
  if (column.type === 'TIMESTAMP') return `strftime(${column.name}, '%Y-%m-%d %H:%M:%S')`;
  return column.name;
}

async function nullableColumns(duck: DuckDBConnection, table: TableSpec): Promise<Set<string>> {
  const reader = await duck.runAndReadAll(`SELECT ${table.columns.map((c) => `count(*) - count(${c.name})`).join(', ')} FROM ${table.name}`);
  const counts = reader.getRowsJson()[0] ?? [];
  return new Set(table.columns.filter((_, i) => Number(counts[i]) > 0).map((c) => c.name));
}

/** The sharding column: the phone number when the table has one without NULLs, else the first such column. */
export function shardingKey(table: TableSpec, nullable: ReadonlySet<string>): string {
  const candidates = [table.columns.find((c) => c.name === 'phone'), ...table.columns].filter((c): c is ColumnSpec => !!c && !nullable.has(c.name));
  if (candidates.length === 0) throw new Error(`cluster demo: ${table.name} has no column without NULLs to shard by`);
  return candidates[0]!.name;
}

/** The order-data view of one shard: its orders with their cancellation and that month's usage (one JOIN per SELECT on 18.16). */
function orderDataViewSql(): string {
  // A LEFT JOIN miss gives the type's default on 18.16 unless join_use_nulls is set for the
  // reading session: the `matched` marker turns it into NULL whatever the session's settings.
  return `CREATE VIEW v_order_data_local AS
SELECT userid, province, area, spid, shortname, ordertime, orderchannelname, orderbelongto, orderchannel,
       if(x_matched = 1, toNullable(canceltime), NULL) AS canceltime, if(x_matched = 1, toNullable(cancelchannelname), NULL) AS cancelchannelname,
       if(x_matched = 1, toNullable(cancelbelongto), NULL) AS cancelbelongto, if(x_matched = 1, toNullable(cancelchannel), NULL) AS cancelchannel,
       if(u_matched = 1, toNullable(vipnums), NULL) AS vipnums, if(u_matched = 1, toNullable(flows), NULL) AS flows, if(u_matched = 1, toNullable(cnums), NULL) AS cnums
FROM (
  SELECT * FROM (
    SELECT order_id, phone AS userid, province, area, spid, shortname, order_time AS ordertime, channel_name AS orderchannelname,
           belongto AS orderbelongto, channel_id AS orderchannel, formatDateTime(order_time, '%Y-%m') AS usage_month
    FROM orders_local WHERE status = '订购成功'
  ) ALL LEFT JOIN (
    SELECT order_id, cancel_time AS canceltime, channel_name AS cancelchannelname, belongto AS cancelbelongto, channel_id AS cancelchannel, toUInt8(1) AS x_matched
    FROM cancellations_local
  ) USING (order_id)
) ALL LEFT JOIN (
  SELECT phone AS userid, month AS usage_month, vip_receipts AS vipnums, flow_mb AS flows, complaints AS cnums, toUInt8(1) AS u_matched FROM user_month_usage_local
) USING (userid, usage_month)`;
}

const distributed = (name: string, key: string) =>
  `CREATE TABLE ${q(name)} AS ${q(`${name}_local`)} ENGINE = Distributed(${CLUSTER_NAME}, default, ${q(`${name}_local`)}, cityHash64(${q(key)}))`;

const ALL_NAMES = [...DEMO_TABLES.map((t) => t.name), ORDER_DATA_VIEW.name];

async function clusterMeta(client: ClickHouseClient): Promise<DemoMeta | null> {
  const exists = await client.query({ query: `EXISTS TABLE ${q(META_TABLE.name)}`, format: 'TabSeparated' });
  if ((await exists.text()).trim() !== '1') return null;
  const result = await client.query({ query: `SELECT * FROM ${q(META_TABLE.name)} LIMIT 1`, format: 'JSONEachRow' });
  const row = (await result.json<Record<string, string | number>>())[0];
  if (!row) return null;
  return {
    generatorVersion: Number(row.generator_version),
    seed: Number(row.seed),
    scale: Number(row.scale),
    anchorDate: String(row.anchor_date),
    generatedAt: String(row.generated_at),
    durationMs: Number(row.duration_ms),
    duckdbVersion: String(row.duckdb_version),
  };
}

async function dropDemo(client: ClickHouseClient): Promise<void> {
  const names = [META_TABLE.name, ...ALL_NAMES.flatMap((n) => [n, `${n}_local`])];
  for (const name of names) await client.command({ query: `DROP TABLE IF EXISTS ${q(name)}` });
}

/** Counts rows per demo table through one node's Distributed tables, and per shard. */
export async function clusterRowCounts(target: ClusterTarget): Promise<{ total: Record<string, number>; perShard: Record<string, number>[] }> {
  const counts = async (port: number, suffix: string) => {
    const client = createClient({ url: `http://127.0.0.1:${port}` });
    try {
      const sql = DEMO_TABLES.map((t) => `SELECT ${str(t.name)} AS t, count() AS n FROM ${q(t.name + suffix)}`).join(' UNION ALL ');
      const rows = await (await client.query({ query: sql, format: 'JSONEachRow' })).json<{ t: string; n: string }>();
      return Object.fromEntries(rows.map((r) => [r.t, Number(r.n)]));
    } finally {
      await client.close();
    }
  };
  const [total, ...perShard] = await Promise.all([counts(target.shards[0]!.http, ''), ...target.shards.map((s) => counts(s.http, '_local'))]);
  return { total: total!, perShard };
}

async function openSource(options: LoadDemoOptions): Promise<{ duck: DuckDBConnection; close(): void; meta: DemoMeta | null }> {
  const instance = await DuckDBInstance.create(options.duckdbPath ?? ':memory:', options.duckdbPath ? { access_mode: 'READ_ONLY' } : {});
  const duck = await instance.connect();
  const close = () => {
    duck.closeSync();
    instance.closeSync();
  };
  return { duck, close, meta: options.duckdbPath ? await readMeta(duck) : null };
}

/**
 * Loads (or keeps) the demo warehouse on the cluster. Kept when demo_warehouse_meta on shard 1
 * records the same generator version, seed, scale and anchor day (and `force` is not set); from a
 * file (`duckdbPath`), when it records that file's generation (its generation time included).
 */
export async function loadDemo(target: ClusterTarget, options: LoadDemoOptions = {}): Promise<LoadDemoResult> {
  const started = performance.now();
  const admins = target.shards.map((s) =>
    createClient({ url: `http://127.0.0.1:${s.http}`, request_timeout: 3600_000, log: { level: ClickHouseLogLevel.OFF } }),
  );
  try {
    const existing = await clusterMeta(admins[0]!);
    if (!options.duckdbPath && existing && !options.force) {
      const plan = makePlan({ seed: options.seed, scale: options.orders ?? 20_000, anchorDate: options.anchorDate ?? existing.anchorDate });
      const same =
        existing.generatorVersion === GENERATOR_VERSION &&
        existing.seed === plan.seed &&
        existing.scale === plan.scale &&
        existing.anchorDate === plan.anchorDate;
      if (same) {
        const counts = await clusterRowCounts(target);
        return { action: 'kept', meta: existing, rowCounts: counts.total, shardCounts: counts.perShard, millis: Math.round(performance.now() - started) };
      }
    }
    const source = await openSource(options);
    try {
      let meta = source.meta;
      // A file's generation is kept when the cluster already holds that very generation.
      if (
        options.duckdbPath &&
        existing &&
        meta &&
        !options.force &&
        JSON.stringify({ ...existing, durationMs: 0 }) === JSON.stringify({ ...meta, durationMs: 0 })
      ) {
        const counts = await clusterRowCounts(target);
        return { action: 'kept', meta: existing, rowCounts: counts.total, shardCounts: counts.perShard, millis: Math.round(performance.now() - started) };
      }
      if (!options.duckdbPath) {
        const generated = await generateDemoWarehouse(source.duck, {
          seed: options.seed,
          scale: options.orders ?? 20_000,
          anchorDate: options.anchorDate ?? seedDay(new Date()),
        });
        meta = await readMeta(source.duck);
        if (!meta) throw new Error(`demo generation recorded no meta row (${generated.millis} ms)`);
      }
      if (!meta) throw new Error(`${options.duckdbPath}: not a demo warehouse (no ${META_TABLE.name} row)`);
      await loadTables(admins, source.duck);
      const metaDdl = `CREATE TABLE ${q(META_TABLE.name)} (generator_version Int32, seed Int64, scale Int64, anchor_date String, generated_at String, duration_ms Int64, duckdb_version String) ENGINE = TinyLog`;
      const metaRow = [meta.generatorVersion, meta.seed, meta.scale, str(meta.anchorDate), str(meta.generatedAt), meta.durationMs, str(meta.duckdbVersion)];
      for (const admin of admins) {
        await admin.command({ query: metaDdl });
        await admin.command({ query: `INSERT INTO ${q(META_TABLE.name)} VALUES (${metaRow.join(', ')})` });
      }
      const counts = await clusterRowCounts(target);
      return { action: 'loaded', meta, rowCounts: counts.total, shardCounts: counts.perShard, millis: Math.round(performance.now() - started) };
    } finally {
      source.close();
    }
  } finally {
    await Promise.all(admins.map((a) => a.close()));
  }
}

/**
 * Each table's rows as CSV files written by DuckDB itself (`COPY … TO`, one part per shard, split
 * by row number), each part inserted into the Distributed table through its own shard's HTTP
 * interface, all parts at once, with insert_distributed_sync = 1: ClickHouse routes every row by
 * the table's sharding key (its own cityHash64 and weights) as for any insert, while neither side
 * converts values in JS. The files live in a temporary directory removed at the end.
 */
async function loadTables(admins: ClickHouseClient[], duck: DuckDBConnection): Promise<void> {
  for (const admin of admins) await dropDemo(admin);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'shutu-cluster-load-'));
  try {
    for (const table of DEMO_TABLES) {
      const nullable = await nullableColumns(duck, table);
      const key = shardingKey(table, nullable);
      const columns = table.columns.map((c) => `${q(c.name)} ${clickHouseType(c, nullable.has(c.name))} COMMENT ${str(c.comment)}`);
      for (const admin of admins) {
        await admin.command({ query: `CREATE TABLE ${q(`${table.name}_local`)} (${columns.join(', ')}) ENGINE = MergeTree() ORDER BY tuple()` });
        await admin.command({ query: distributed(table.name, key) });
      }
      const parts = admins.map((_, i) => path.join(tmp, `${table.name}.${i}.csv`));
      for (const [i, file] of parts.entries()) {
        const select = `SELECT ${table.columns.map(copyExpr).join(', ')} FROM ${table.name} WHERE rowid % ${admins.length} = ${i}`;
        await duck.run(`COPY (${select}) TO '${file.replace(/'/g, "''")}' (FORMAT csv, HEADER false, NULLSTR '\\N')`);
      }
      await Promise.all(
        admins.map((admin, i) =>
          admin.insert({
            table: table.name,
            values: createReadStream(parts[i]!, { highWaterMark: 1 << 20 }),
            format: 'CSV',
            columns: table.columns.map((c) => q(c.name)) as [string, ...string[]],
            clickhouse_settings: { insert_distributed_sync: 1 },
          }),
        ),
      );
      for (const file of parts) rmSync(file, { force: true });
    }
    for (const admin of admins) {
      await admin.command({ query: orderDataViewSql() });
      await admin.command({ query: distributed(ORDER_DATA_VIEW.name, 'userid') });
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
