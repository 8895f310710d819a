/** ensureDemoWarehouse generates on first start and when settings change, and keeps the file otherwise. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableChecksums } from './checksum.ts';
import { ensureDemoWarehouse } from './ensure.ts';
import { GENERATOR_VERSION, generateDemoWarehouse } from './generate.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shutu-warehouse-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Opens the file, runs `fn` with a query helper, closes the file again. */
async function onFile<T>(path: string, fn: (run: (sql: string) => Promise<unknown[][]>) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  try {
    return await fn(async (sql) => (await connection.runAndReadAll(sql)).getRowsJson() as unknown[][]);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

async function sums(path: string): Promise<Record<string, string>> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  try {
    return await tableChecksums(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe('ensureDemoWarehouse', () => {
  // 20:00 UTC is already the next day in China: a warehouse made then ends on 2026-11-26.
  const options = { seed: 5, scale: 4_000, now: new Date('2026-11-25T20:00:00Z') };

  it('creates the directory and file and generates on first start', async () => {
    const path = join(dir, 'nested', 'data', 'warehouse.duckdb');
    const first = await ensureDemoWarehouse(path, options);
    expect(first).toMatchObject({ action: 'generated', reason: 'missing' });
    expect(first.meta).toMatchObject({ generatorVersion: GENERATOR_VERSION, seed: 5, scale: 4_000, anchorDate: '2026-11-26', duckdbVersion: 'v1.5.6' });
    expect(first.rowCounts.orders).toBe(4_000);

    const again = await ensureDemoWarehouse(path, options);
    expect(again).toMatchObject({ action: 'kept', reason: null });
    expect(again.meta.generatedAt).toBe(first.meta.generatedAt);
    expect(again.rowCounts).toEqual(first.rowCounts);
  }, 60_000);

  it('without an anchor date the data ends on the seed day, and a kept warehouse keeps its end on later days', async () => {
    const path = join(dir, 'seed-day.duckdb');
    await ensureDemoWarehouse(path, options);
    const lastOrderDay = () =>
      onFile(path, (run) => run(`SELECT strftime(max(order_time), '%Y-%m-%d'), count(*) FILTER (WHERE order_time >= DATE '2026-11-20') > 0 FROM orders`));
    expect(await lastOrderDay()).toEqual([['2026-11-26', true]]);
    const nextMonth = { ...options, now: new Date('2026-12-28T03:00:00Z') };
    expect(await ensureDemoWarehouse(path, nextMonth)).toMatchObject({ action: 'kept', meta: { anchorDate: '2026-11-26' } });
    expect(await lastOrderDay()).toEqual([['2026-11-26', true]]);
    // Regenerated (a new generator version), it ends on the day it is made.
    await onFile(path, (run) => run(`UPDATE demo_warehouse_meta SET generator_version = generator_version - 1`));
    expect(await ensureDemoWarehouse(path, nextMonth)).toMatchObject({ action: 'generated', reason: 'version', meta: { anchorDate: '2026-12-28' } });
  }, 60_000);

  it('two files generated with the same options are identical', async () => {
    const a = join(dir, 'a.duckdb');
    const b = join(dir, 'b.duckdb');
    await ensureDemoWarehouse(a, options);
    await ensureDemoWarehouse(b, options);
    expect(await sums(b)).toEqual(await sums(a));
  }, 60_000);

  it('regenerates when the scale, seed or anchor date differ', async () => {
    const path = join(dir, 'knobs.duckdb');
    await ensureDemoWarehouse(path, options);
    expect(await ensureDemoWarehouse(path, { ...options, scale: 5_000 })).toMatchObject({ action: 'generated', reason: 'scale', rowCounts: { orders: 5_000 } });
    expect(await ensureDemoWarehouse(path, { ...options, scale: 5_000, seed: 6 })).toMatchObject({ action: 'generated', reason: 'seed' });
    expect(await ensureDemoWarehouse(path, { ...options, scale: 5_000, seed: 6, anchorDate: '2026-06-30' })).toMatchObject({
      action: 'generated',
      reason: 'anchorDate',
    });
    expect(await ensureDemoWarehouse(path, { ...options, scale: 5_000, seed: 6, anchorDate: '2026-06-30' })).toMatchObject({ action: 'kept' });
  }, 60_000);

  it('regenerates when a demo table is gone or the generator version differs, and leaves other tables alone', async () => {
    const path = join(dir, 'repair.duckdb');
    await ensureDemoWarehouse(path, options);
    await onFile(path, (run) => run(`DROP TABLE click_events; CREATE TABLE file_table_20261121 AS SELECT 1 AS x`));
    expect(await ensureDemoWarehouse(path, options)).toMatchObject({ action: 'generated', reason: 'missing' });
    await onFile(path, (run) => run(`UPDATE demo_warehouse_meta SET generator_version = generator_version - 1`));
    expect(await ensureDemoWarehouse(path, options)).toMatchObject({ action: 'generated', reason: 'version' });
    expect(await onFile(path, (run) => run('SELECT x FROM file_table_20261121'))).toEqual([[1]]);
  }, 60_000);

  it('a failed generation rolls back and leaves the previous warehouse and no helpers behind', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      await generateDemoWarehouse(connection, options);
      // A view where a demo table should be makes DROP TABLE fail halfway through the next run.
      await connection.run('DROP TABLE click_events; CREATE VIEW click_events AS SELECT 1 AS x');
      await expect(generateDemoWarehouse(connection, { ...options, scale: 6_000 })).rejects.toThrow();
      const count = await connection.runAndReadAll('SELECT (SELECT count(*) FROM orders), (SELECT scale FROM demo_warehouse_meta)');
      expect(count.getRowsJson()).toEqual([['4000', '4000']]);
      const leftovers = await connection.runAndReadAll(
        `SELECT (SELECT count(*) FROM duckdb_tables() WHERE starts_with(table_name, '_dw_')), (SELECT count(*) FROM duckdb_functions() WHERE starts_with(function_name, '_dw_'))`,
      );
      expect(leftovers.getRowsJson()).toEqual([['0', '0']]);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  }, 60_000);

  it('refuses to drop a same-named table it did not make', async () => {
    const path = join(dir, 'foreign.duckdb');
    await onFile(path, (run) => run(`CREATE TABLE orders AS SELECT 'mine' AS owner`));
    await expect(ensureDemoWarehouse(path, options)).rejects.toThrow(/refusing to overwrite tables not made by the demo generator: orders/);
    expect(await onFile(path, (run) => run('SELECT owner FROM orders'))).toEqual([['mine']]);
  }, 60_000);

  it('refuses bad options before touching the disk', async () => {
    await expect(ensureDemoWarehouse(join(dir, 'never', 'w.duckdb'), { scale: 5 })).rejects.toThrow(/scale/);
    expect(await import('node:fs').then((fs) => fs.existsSync(join(dir, 'never')))).toBe(false);
  });
});
