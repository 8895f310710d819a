/**
 * ensureDemoWarehouse: open (or create) a DuckDB file and make sure it holds the demo warehouse
 * for the requested seed, scale and anchor date — generating only when a demo table is missing or
 * demo_warehouse_meta records another generator version, seed, scale or anchor date.
 * Without an anchor date the data ends on the day it is generated (the seed day, so relative
 * filters such as 本月 and 最近7天 show data on a fresh install), and a warehouse that is kept
 * keeps its own end: the data changes only when it is regenerated.
 * Tables that are not the generator's (file tables, SQL views' tables) are never touched; if a table
 * with a demo name exists but no generation was recorded, it refuses instead of dropping it.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { openWhenUnlocked } from '../duckdb/file-lock.ts';
import { GENERATOR_VERSION, countRows, existingTables, generateDemoWarehouse, readMeta, type DemoMeta } from './generate.ts';
import { makePlan, seedDay, type DemoWarehouseOptions } from './plan.ts';
import { DEMO_TABLE_NAMES, ORDER_DATA_VIEW } from './schema.ts';

export interface EnsureResult {
  /** 'generated' when the tables were (re)built, 'kept' when they already matched. */
  action: 'generated' | 'kept';
  /** Why it generated: 'missing' (first start or a table gone), or the first setting that differed. */
  reason: 'missing' | 'version' | 'seed' | 'scale' | 'anchorDate' | null;
  meta: DemoMeta;
  rowCounts: Record<string, number>;
  /** Wall time of the whole call. */
  millis: number;
}

export interface EnsureOptions extends DemoWarehouseOptions {
  /** The instant whose day (UTC+8, the product's default zone) ends a warehouse generated without anchorDate; default now. */
  now?: Date;
}

/** Why the warehouse on `connection` must be (re)generated for `options`, or null when it is up to date. */
export async function staleReason(connection: DuckDBConnection, options: EnsureOptions = {}): Promise<EnsureResult['reason']> {
  const plan = makePlan(options);
  const present = await existingTables(connection);
  const wanted = [...DEMO_TABLE_NAMES, ORDER_DATA_VIEW.name];
  const meta = await readMeta(connection);
  if (!meta) {
    // Generation is one transaction, so demo-named tables without our meta row are somebody else's.
    const foreign = wanted.filter((name) => present.has(name));
    if (foreign.length > 0) throw new Error(`refusing to overwrite tables not made by the demo generator: ${foreign.join(', ')}`);
    return 'missing';
  }
  if (wanted.some((name) => !present.has(name))) return 'missing';
  if (meta.generatorVersion !== GENERATOR_VERSION) return 'version';
  if (meta.seed !== plan.seed) return 'seed';
  if (meta.scale !== plan.scale) return 'scale';
  // Without an anchor date any recorded end is kept: the seed day's data stays as it was made.
  if (options.anchorDate !== undefined && meta.anchorDate !== plan.anchorDate) return 'anchorDate';
  return null;
}

/** Same as ensureDemoWarehouse, on a connection the caller owns. */
export async function ensureDemoWarehouseOn(connection: DuckDBConnection, options: EnsureOptions = {}): Promise<EnsureResult> {
  const started = performance.now();
  const reason = await staleReason(connection, options);
  const { now, ...settings } = options;
  if (reason) await generateDemoWarehouse(connection, { ...settings, anchorDate: settings.anchorDate ?? seedDay(now ?? new Date()) });
  const meta = await readMeta(connection);
  if (!meta) throw new Error('demo warehouse metadata missing after generation');
  return { action: reason ? 'generated' : 'kept', reason, meta, rowCounts: await countRows(connection), millis: Math.round(performance.now() - started) };
}

/**
 * Opens `path` (creating its directory and the file if needed), ensures the demo warehouse and
 * closes the file again. Call it before another DuckDB instance opens the same file in this
 * process (or use ensureDemoWarehouseOn with that instance's connection).
 */
export async function ensureDemoWarehouse(path: string, options: EnsureOptions = {}): Promise<EnsureResult> {
  makePlan(options); // validate before touching the disk
  if (path !== ':memory:') await mkdir(dirname(path), { recursive: true });
  const instance = await openWhenUnlocked(() => DuckDBInstance.create(path));
  try {
    const connection = await instance.connect();
    try {
      return await ensureDemoWarehouseOn(connection, options);
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}
