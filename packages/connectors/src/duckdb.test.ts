import { expect, it, vi } from 'vitest';
import { openDriver } from './factory.ts';
import { collect } from './stream.ts';
import { driverSuite, LOAD_COLUMNS, LOAD_ROWS, LOADED, rejection } from './testing/driver-suite.ts';
import { prepareEngine } from './testing/engines.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 });

const handle = await prepareEngine('duckdb');
driverSuite(handle, 'DuckDB', ({ driver, all }) => {
  it('refuses every statement that is not a SELECT before it runs', async () => {
    for (const sql of ['SET threads = 1', 'PRAGMA threads = 1', 'INSTALL httpfs', "ATTACH ':memory:' AS x", 'CHECKPOINT', 'EXPLAIN SELECT 1']) {
      expect((await rejection(collect(driver().query(sql)))).kind, sql).toBe('readOnly');
    }
    expect((await rejection(collect(driver().query('SELECT 1; SELECT 2')))).message).toBe('一次只能执行一条 SELECT 语句');
  });

  it('binds parameters and normalises TIMESTAMPTZ to the UTC instant', async () => {
    expect(await all("SELECT $1 AS s, $2 AS n, TIMESTAMPTZ '2024-01-02 03:04:05+08' AS t, 1.50::DECIMAL(10,2) AS d", ["it's", 3])).toEqual([
      { s: "it's", n: 3, t: '2024-01-01T19:04:05Z', d: 1.5 },
    ]);
  });
});

it('works in memory (the default path) as well', async () => {
  const memory = openDriver({ type: 'duckdb' });
  await memory.bulkLoad('load_t', LOAD_COLUMNS, LOAD_ROWS);
  expect((await collect(memory.query('SELECT * FROM load_t ORDER BY id'))).rows).toEqual(LOADED.slice(0, 3).concat(LOADED[3]!));
  await memory.close();
  expect((await rejection(collect(memory.query('SELECT 1')))).kind).toBe('closed');
});

it("cannot read the server's files, even through a plain SELECT", async () => {
  const memory = openDriver({ type: 'duckdb' });
  for (const sql of [
    "SELECT * FROM read_csv('/etc/hostname')",
    "SELECT * FROM read_text('/etc/passwd')",
    "SELECT * FROM glob('/etc/*')",
    "COPY (SELECT 1) TO '/tmp/shutu-x.csv'",
  ]) {
    const error = await rejection(collect(memory.query(sql)));
    expect(error.detail ?? '', sql).toMatch(/file system operations are disabled|Permission Error/);
  }
  await memory.close();
});
