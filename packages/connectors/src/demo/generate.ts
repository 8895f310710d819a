/**
 * generateDemoWarehouse: drops and rebuilds every demo table on a DuckDB connection, in one
 * transaction (a failure leaves the previous state), then records what it built in
 * demo_warehouse_meta. Same seed, scale and anchor date ⇒ identical tables, row order included.
 * The connection must not be inside a transaction of its own.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { clickSql, marketingSql, tagCountsSql, userTagsSql } from './cdp.ts';
import { Gen } from './context.ts';
import { cancellationsSql, dimensionSql, ordersSql, usageSql, usersSql } from './core.ts';
import { HASH_MACROS_SQL } from './hash.ts';
import { makePlan, type DemoPlan, type DemoWarehouseOptions } from './plan.ts';
import { DEMO_TABLES, META_TABLE, ORDER_DATA_VIEW, ORDER_DATA_VIEW_SQL, commentSql, createTableSql } from './schema.ts';

/**
 * Bump whenever the generated data or schema changes: ensureDemoWarehouse then regenerates.
 * 2: the server's warehouse ends on the day it is generated, not on 2026-10-31 (issue 16).
 * 3: v_order_data carries order_id (the order-data export walks it in ranges, issue 20).
 */
export const GENERATOR_VERSION = 3;

export interface GenerateStep {
  step: string;
  millis: number;
}

export interface GenerateResult {
  plan: DemoPlan;
  millis: number;
  steps: GenerateStep[];
  rowCounts: Record<string, number>;
}

export interface DemoMeta {
  generatorVersion: number;
  seed: number;
  scale: number;
  anchorDate: string;
  generatedAt: string;
  durationMs: number;
  duckdbVersion: string;
}

/** Leaves nothing of the generator on the caller's connection. */
const CLEANUP_SQL = 'DROP TABLE IF EXISTS _dw_seq; DROP MACRO IF EXISTS _dw_u; DROP MACRO IF EXISTS _dw_h;';

/** The generator's steps in order; each is one SQL script. */
function steps(g: Gen): [string, string][] {
  return [
    ['dimensions', dimensionSql()],
    ['users', usersSql(g)],
    ['orders', ordersSql(g)],
    ['cancellations', cancellationsSql(g)],
    ['user_month_usage', usageSql(g)],
    ['click_events', clickSql(g)],
    ['user_tags', userTagsSql(g)],
    ['tag_month_counts', tagCountsSql(g)],
    ['marketing', marketingSql(g)],
  ];
}

async function dropAll(connection: DuckDBConnection): Promise<void> {
  const drops = [`DROP VIEW IF EXISTS ${ORDER_DATA_VIEW.name};`, ...[...DEMO_TABLES, META_TABLE].map((t) => `DROP TABLE IF EXISTS ${t.name};`)];
  await connection.run(drops.join('\n'));
}

export async function generateDemoWarehouse(connection: DuckDBConnection, options: DemoWarehouseOptions = {}): Promise<GenerateResult> {
  const plan = makePlan(options);
  const g = new Gen(plan);
  const started = performance.now();
  const timings: GenerateStep[] = [];
  const timed = async (step: string, sql: string): Promise<void> => {
    const t0 = performance.now();
    await connection.run(sql);
    timings.push({ step, millis: Math.round(performance.now() - t0) });
  };

  await connection.run(HASH_MACROS_SQL);
  await connection.run(`CREATE OR REPLACE TEMP TABLE _dw_seq AS SELECT range AS i FROM range(${g.seqSize})`);
  await connection.run('BEGIN TRANSACTION');
  try {
    await dropAll(connection);
    await timed('create', [...DEMO_TABLES, META_TABLE].map(createTableSql).join('\n'));
    for (const [step, sql] of steps(g)) await timed(step, sql);
    await timed(
      'view+comments',
      [ORDER_DATA_VIEW_SQL + ';', ...DEMO_TABLES.map((t) => commentSql(t)), commentSql(META_TABLE), commentSql(ORDER_DATA_VIEW, 'VIEW')].join('\n'),
    );
    const millis = Math.round(performance.now() - started);
    await connection.run(`INSERT INTO ${META_TABLE.name} VALUES ($1, $2, $3, $4, now() AT TIME ZONE 'UTC', $5, version())`, [
      GENERATOR_VERSION,
      plan.seed,
      plan.scale,
      plan.anchorDate,
      millis,
    ]);
    await timed('commit', 'COMMIT');
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await connection.run(CLEANUP_SQL);
  }
  const rowCounts = await countRows(connection);
  return { plan, millis: Math.round(performance.now() - started), steps: timings, rowCounts };
}

/** Row count of every demo table (missing tables are left out). */
export async function countRows(connection: DuckDBConnection): Promise<Record<string, number>> {
  const present = await existingTables(connection);
  const names = DEMO_TABLES.map((t) => t.name).filter((n) => present.has(n));
  if (names.length === 0) return {};
  const reader = await connection.runAndReadAll(names.map((n) => `SELECT '${n}' AS t, count(*) AS n FROM ${n}`).join(' UNION ALL '));
  return Object.fromEntries(reader.getRowsJson().map(([t, n]) => [String(t), Number(n)]));
}

/** Names of the base tables and views in the main schema of the connection's current database. */
export async function existingTables(connection: DuckDBConnection): Promise<Set<string>> {
  const reader = await connection.runAndReadAll(
    `SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND NOT temporary
     UNION ALL SELECT view_name FROM duckdb_views() WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal AND NOT temporary`,
  );
  return new Set(reader.getRowsJson().map(([name]) => String(name)));
}

/** The recorded generation, or null when the meta table is missing or empty. */
export async function readMeta(connection: DuckDBConnection): Promise<DemoMeta | null> {
  if (!(await existingTables(connection)).has(META_TABLE.name)) return null;
  const reader = await connection.runAndReadAll(
    `SELECT generator_version, seed, scale, anchor_date, strftime(generated_at, '%Y-%m-%d %H:%M:%S'), duration_ms, duckdb_version FROM ${META_TABLE.name} LIMIT 1`,
  );
  const row = reader.getRowsJson()[0];
  if (!row) return null;
  return {
    generatorVersion: Number(row[0]),
    seed: Number(row[1]),
    scale: Number(row[2]),
    anchorDate: String(row[3]),
    generatedAt: String(row[4]),
    durationMs: Number(row[5]),
    duckdbVersion: String(row[6]),
  };
}
