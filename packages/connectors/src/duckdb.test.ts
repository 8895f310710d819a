import { DuckDBConnection, DuckDBInstance, DuckDBPreparedStatement } from '@duckdb/node-api';
import { afterAll, describe, expect, it, vi } from 'vitest';
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

describe.skipIf(handle === null)('DuckDB lockdown (enable_external_access=false, lock_configuration=true)', () => {
  it("cannot be switched back on from any connection of a driver's instance", async () => {
    const h = handle!;
    const driver = openDriver(h.config);
    try {
      await collect(driver.query('SELECT 1')); // the driver opens its instance (shared through the instance cache)
      for (const sql of [
        'SET enable_external_access = true',
        'SET GLOBAL enable_external_access = true',
        'SET SESSION enable_external_access = true',
        "SET enable_external_access = 'true'",
        'SET lock_configuration = false',
        'SET GLOBAL lock_configuration = false',
        'RESET enable_external_access',
        'RESET GLOBAL enable_external_access',
        'RESET lock_configuration',
        'PRAGMA enable_external_access = true',
        'PRAGMA lock_configuration = false',
        "SET allowed_directories = ['/']",
        "SET allowed_paths = ['/etc/passwd']",
      ]) {
        await expect(h.admin(sql), sql).rejects.toThrow(/configuration has been locked/);
      }
      // Through the driver itself such statements never run (not a SELECT).
      for (const sql of ['SET enable_external_access = true', 'RESET lock_configuration', 'PRAGMA enable_external_access = true']) {
        expect((await rejection(collect(driver.query(sql)))).kind, sql).toBe('readOnly');
      }
      expect((await collect(driver.query("SELECT current_setting('enable_external_access') AS a, current_setting('lock_configuration') AS l"))).rows).toEqual([
        { a: false, l: true },
      ]);
      const read = await rejection(collect(driver.query("SELECT * FROM read_text('/etc/passwd')")));
      expect(read.detail ?? '').toMatch(/file system operations are disabled/);
      // Nor can the process open the same file again with another configuration.
      await expect(DuckDBInstance.fromCache(h.config.path!)).rejects.toThrow(/different configuration/);
      await expect(DuckDBInstance.fromCache(h.config.path!, { enable_external_access: 'true' })).rejects.toThrow(/different configuration/);
    } finally {
      await driver.close();
    }
  });
});

it('a finished read hands its connection to the next: a late cancel of the first does not stop the second', async () => {
  const memory = openDriver({ type: 'duckdb' });
  try {
    await memory.bulkLoad('pool_t', LOAD_COLUMNS, LOAD_ROWS);
    const first = memory.query('SELECT count(*) AS n FROM pool_t');
    expect((await collect(first)).rows).toEqual([{ n: LOAD_ROWS.length }]);
    // The next read runs on the connection the first one released; the first is cancelled mid-way through it.
    let seen = 0;
    for await (const _row of memory.query('SELECT range AS n FROM range(1000000)')) if (++seen === 10) first.cancel();
    expect(seen).toBe(1_000_000);
    // It sees a table created since, and a read after a cancelled one still answers.
    await memory.bulkLoad('pool_u', LOAD_COLUMNS, LOAD_ROWS);
    const controller = new AbortController();
    const cancelled = (async () => {
      for await (const _row of memory.query('SELECT range AS n FROM range(1000000)', [], { signal: controller.signal })) controller.abort();
    })();
    expect((await rejection(cancelled)).kind).toBe('cancelled');
    expect((await collect(memory.query('SELECT count(*) AS n FROM pool_u'))).rows).toEqual([{ n: LOAD_ROWS.length }]);
  } finally {
    await memory.close();
  }
});

it('a repeated read runs its kept statement: new values, a replaced table and a failed read still answer right', async () => {
  const memory = openDriver({ type: 'duckdb' });
  const prepare = vi.spyOn(DuckDBConnection.prototype, 'prepare');
  try {
    await memory.bulkLoad('kept_t', LOAD_COLUMNS, LOAD_ROWS);
    const byId = 'SELECT id FROM kept_t WHERE id >= $1 ORDER BY id';
    const ids = async (from: unknown) => (await collect(memory.query(byId, [from as number]))).rows.map((row) => row.id);
    expect(await ids(1)).toEqual(LOADED.map((row) => row.id));
    prepare.mockClear();
    expect(await ids(3)).toEqual(LOADED.filter((row) => Number(row.id) >= 3).map((row) => row.id));
    expect(prepare).not.toHaveBeenCalled();
    // A value the statement cannot take fails that read alone; the next read prepares again and answers.
    expect((await rejection(collect(memory.query(byId, ['不是数字'])))).kind).toBe('query');
    expect(await ids(2)).toEqual(LOADED.filter((row) => Number(row.id) >= 2).map((row) => row.id));
    // The table replaced by one of another shape (a file table uploaded again): the same SQL reads the new one.
    await memory.dropTable('kept_t');
    await memory.bulkLoad(
      'kept_t',
      [
        { name: 'id', type: 'STRING' },
        { name: '备注', type: 'STRING' },
      ],
      [['9', '新表']],
    );
    expect((await collect(memory.query('SELECT * FROM kept_t WHERE id >= $1', ['0']))).rows).toEqual([{ id: '9', 备注: '新表' }]);
    await memory.dropTable('kept_t');
    expect((await rejection(collect(memory.query(byId, [1])))).message).toMatch(/kept_t/);
  } finally {
    prepare.mockRestore();
    await memory.close();
  }
});

it('reads a result its LIMIT bounds whole, in one step, with the rows, columns and guards of a streamed read', async () => {
  const memory = openDriver({ type: 'duckdb' });
  const run = vi.spyOn(DuckDBPreparedStatement.prototype, 'run');
  const stream = vi.spyOn(DuckDBPreparedStatement.prototype, 'stream');
  try {
    const sql = "SELECT range AS n, '第' || range::VARCHAR AS label FROM range(5000) ORDER BY n LIMIT 5000";
    const streamed = memory.query(sql);
    const streamedRows = (await collect(streamed)).rows;
    expect([run.mock.calls.length, stream.mock.calls.length]).toEqual([0, 1]);
    const whole = memory.query(sql, [], { rowLimit: 5000 });
    const wholeRows = (await collect(whole)).rows;
    // Three chunks of DuckDB's 2,048 rows, in order.
    expect(wholeRows).toEqual(streamedRows);
    expect([wholeRows.length, wholeRows[4999]]).toEqual([5000, { n: 4999, label: '第4999' }]);
    expect(whole.columns?.map((c) => c.name)).toEqual(['n', 'label']);
    expect([run.mock.calls.length, stream.mock.calls.length]).toEqual([1, 1]);
    // Above the bound a result streams; an empty one has its columns; a long read still times out.
    expect((await collect(memory.query(sql, [], { rowLimit: 1_000_000 }))).rows).toHaveLength(5000);
    expect(stream.mock.calls.length).toBe(2);
    const empty = memory.query('SELECT range AS n FROM range(0) LIMIT 10', [], { rowLimit: 10 });
    expect((await collect(empty)).rows).toEqual([]);
    expect(empty.columns?.map((c) => c.name)).toEqual(['n']);
    const slow = memory.query('SELECT count(*) AS n FROM range(10000000000) a LIMIT 1', [], { rowLimit: 1, timeoutMs: 300 });
    expect((await rejection(collect(slow))).kind).toBe('timeout');
    expect((await collect(memory.query('SELECT 1 AS one LIMIT 1', [], { rowLimit: 1 }))).rows).toEqual([{ one: 1 }]);
  } finally {
    run.mockRestore();
    stream.mockRestore();
    await memory.close();
  }
});

describe('DuckDB inspectSql (json_serialize_sql)', () => {
  const driver = openDriver({ type: 'duckdb' });
  afterAll(() => driver.close());
  const inspect = (sql: string) => driver.inspectSql!(sql);
  const names = (refs: readonly { name: string }[]) => refs.map((r) => r.name);

  it('lists every table, table function and function, at any depth', async () => {
    const probe = await inspect("SELECT * FROM (PIVOT '/etc/passwd' ON column0 IN ('a') USING count(*))");
    expect(probe).toMatchObject({ ok: true, statements: 1, tables: [{ name: '/etc/passwd', offset: 21 }], tableFunctions: [] });
    const nested = await inspect(
      `WITH a AS (SELECT * FROM main.read_text('/x') t JOIN range(3) r ON true)
       SELECT getenv('HOME'), (SELECT count(*) FROM glob('/*')) FROM a, 'x.csv' WHERE a.id IN (SELECT id FROM system.main.orders)
       UNION ALL SELECT 1, 2 FROM (SUMMARIZE orders)`,
    );
    if (!nested.ok) throw new Error(nested.detail);
    expect(names(nested.tableFunctions).sort()).toEqual(['glob', 'range', 'read_text', 'summarize']);
    expect(nested.tableFunctions.find((f) => f.name === 'read_text')).toMatchObject({ schema: 'main', catalog: '' });
    expect(names(nested.tables).sort()).toEqual(['a', 'orders', 'orders', 'x.csv']);
    expect(nested.tables.find((t) => t.catalog === 'system')).toMatchObject({ schema: 'main', name: 'orders' });
    expect(names(nested.functions)).toEqual(expect.arrayContaining(['getenv', 'count_star']));
    expect(names(nested.functions)).not.toContain('read_text');
  });

  it('gives character offsets (not UTF-8 bytes)', async () => {
    const sql = "SELECT '中文中文' AS 名, current_setting('x') FROM read_text('a')";
    const result = await inspect(sql);
    if (!result.ok) throw new Error(result.detail);
    expect(result.tableFunctions[0]).toMatchObject({ name: 'read_text', offset: sql.indexOf('read_text') });
    expect(result.functions[0]).toMatchObject({ name: 'current_setting', offset: sql.indexOf('current_setting') });
  });

  it('reports statements that are not a SELECT and text that does not parse', async () => {
    for (const sql of ['DROP TABLE t', 'SET enable_external_access = true', "SELECT * FROM (PIVOT '/etc/passwd' ON column0 USING count(*))"]) {
      expect(await inspect(sql), sql).toMatchObject({ ok: false, reason: 'notSelect' });
    }
    expect(await inspect('SELECT * FROM U&"read\\0074ext"(\'/etc/passwd\')')).toMatchObject({
      ok: false,
      reason: 'syntax',
      detail: expect.stringMatching(/unicode/i),
    });
    expect(await inspect('select from where')).toMatchObject({ ok: false, reason: 'syntax', offset: 12, detail: expect.stringMatching(/syntax error/) });
    expect(await inspect('SELECT 1; SELECT 2')).toMatchObject({ ok: true, statements: 2 });
  });
});
