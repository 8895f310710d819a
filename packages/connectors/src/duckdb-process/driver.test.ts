import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { openDriver } from '../factory.ts';
import { collect } from '../stream.ts';
import { driverSuite, LOAD_COLUMNS, LOAD_ROWS, LOADED, rejection } from '../testing/driver-suite.ts';
import { duckdbInEngineProcess } from '../testing/engines.ts';
import type { Driver, LoadRow } from '../types.ts';
import { acquireEngine, releaseEngine } from './engine-process.ts';
import type { FromEngine } from './protocol.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const handle = duckdbInEngineProcess();

/** Process ids of this test process's DuckDB engine processes. */
function enginePids(): number[] {
  const out = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' }).stdout;
  return out
    .split('\n')
    .filter((line) => line.includes('duckdb-host'))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

driverSuite(handle, 'DuckDB in its engine process', ({ driver, all }) => {
  it('answers from another process: the engine, not this one, holds the file', async () => {
    expect(await all('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    expect(enginePids()).toHaveLength(1);
    const second = openDriver(handle.config);
    try {
      // Two drivers of one file share its engine: DuckDB lets one process hold a file.
      expect((await collect(second.query('SELECT count(*) AS n FROM types_t'))).rows).toEqual([{ n: 1 }]);
      expect(enginePids()).toHaveLength(1);
    } finally {
      await second.close();
    }
    expect(await all('SELECT 2 AS two')).toEqual([{ two: 2 }]);
  });

  it('keeps a failing load of rows read here: the cause is the rows’ own error, nothing is left behind', async () => {
    async function* failing(): AsyncGenerator<LoadRow> {
      yield* LOAD_ROWS;
      throw new Error('上传的文件读取失败');
    }
    const error = await driver()
      .bulkLoad('half_loaded', LOAD_COLUMNS, failing())
      .then(
        () => null,
        (e: unknown) => e as Error & { cause?: unknown },
      );
    expect(error?.message).toContain('上传的文件读取失败');
    expect((error?.cause as Error | undefined)?.message).toBe('上传的文件读取失败');
    expect(await driver().tableExists('half_loaded')).toBe(false);
  });

  it('loads many rows with back-pressure and reads them back in order', async () => {
    const rows = function* (): Generator<LoadRow> {
      for (let i = 0; i < 50_000; i += 1) yield [i, `名字${i}`];
    };
    const columns = [
      { name: 'id', type: 'INTEGER' as const },
      { name: 'name', type: 'STRING' as const },
    ];
    expect(await driver().bulkLoad('many_rows', columns, rows())).toEqual({ rows: 50_000 });
    const back = await all('SELECT id, name FROM many_rows ORDER BY id');
    expect(back).toHaveLength(50_000);
    expect(back[49_999]).toEqual({ id: 49_999, name: '名字49999' });
  });

  it('writes a CSV file by the engine and appends, deletes, renames and drops tables', async () => {
    const columns = [
      { name: 'day', type: 'STRING' as const },
      { name: 'n', type: 'INTEGER' as const },
    ];
    expect(
      await driver().appendRows!('events_p', columns, [
        ['2026-11-01', 1],
        ['2026-11-02', 2],
      ]),
    ).toEqual({ rows: 2 });
    expect(await driver().deleteRows!('events_p', [{ column: 'n', op: '<', value: 2 }])).toEqual({ rows: 1 });
    const written = await driver().copySelectToCsvFile!({ sql: 'SELECT day, n FROM events_p WHERE n = ?', params: [2] }, { header: true });
    expect(written.rows).toBe(1);
    expect(fs.readFileSync(written.file, 'utf8')).toBe('day,n\r\n2026-11-02,2\r\n');
    fs.rmSync(written.file);
    await driver().renameTable('events_p', 'events_q');
    expect(await driver().tableExists('events_q')).toBe(true);
    await driver().dropTable('events_q');
    expect(await driver().tableExists('events_q')).toBe(false);
  });

  it('answers a small result in one message, a large one in batches with the columns first and the last marked', async () => {
    await all('SELECT 1');
    const key = path.resolve(handle.config.path!);
    const engine = acquireEngine(handle.config, key);
    try {
      const messagesOf = (sql: string, rowLimit?: number) =>
        new Promise<FromEngine[]>((resolve) => {
          const seen: FromEngine[] = [];
          void engine.open(
            (message) => {
              seen.push(message);
              if (!('id' in message)) return;
              if (message.t === 'rows' && !message.last) engine.post({ t: 'pull', id: message.id });
              else {
                engine.finish(message.id);
                resolve(seen);
              }
            },
            (id) => ({ t: 'query', id, sql, params: [], timeoutMs: undefined, rawBytes: false, ...(rowLimit === undefined ? {} : { rowLimit }) }),
          );
        });
      const shape = (messages: FromEngine[]) =>
        messages.map((m) => (m.t === 'rows' ? { rows: m.rows.length, columns: m.columns?.map((c) => c.name) ?? null, last: m.last } : m.t));
      expect(shape(await messagesOf('SELECT range AS n FROM range(341)'))).toEqual([{ rows: 341, columns: ['n'], last: true }]);
      expect(shape(await messagesOf('SELECT range AS n FROM range(341) LIMIT 400', 400))).toEqual([{ rows: 341, columns: ['n'], last: true }]);
      expect(shape(await messagesOf('SELECT range AS n FROM range(0)'))).toEqual([{ rows: 0, columns: ['n'], last: true }]);
      expect(shape(await messagesOf('SELECT range AS n FROM range(5000)'))).toEqual([
        { rows: 2048, columns: ['n'], last: false },
        { rows: 2048, columns: null, last: false },
        { rows: 904, columns: null, last: true },
      ]);
    } finally {
      await releaseEngine(key);
    }
  });

  it('fails the calls in flight when the engine dies, in Chinese, and starts a new engine for the next call', async () => {
    expect(await all('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    const [pid] = enginePids();
    const slow = collect(driver().query(handle.slowSql));
    // The slow statement is in the engine once its process is busy; killing it fails the read.
    await vi.waitFor(() => expect(Number(spawnSync('ps', ['-o', 'pcpu=', '-p', String(pid)], { encoding: 'utf8' }).stdout)).toBeGreaterThan(0), {
      timeout: 10_000,
    });
    process.kill(pid!, 'SIGKILL');
    const error = await rejection(slow);
    expect(error.message).toMatch(/^数据仓库引擎进程已退出（SIGKILL），请重试$/);
    expect(error.status).toBe(502);
    expect(await all('SELECT count(*) AS n FROM types_t')).toEqual([{ n: 1 }]);
    expect(enginePids()).not.toContain(pid);
  });
});

let closing: Driver | null = null;
afterAll(async () => {
  await closing?.close();
});

it('closes its engine with the last driver of the file, and a reopened driver starts it again', async () => {
  const config = { type: 'duckdb' as const, engineProcess: true };
  const memory = openDriver(config);
  closing = memory;
  await memory.bulkLoad('load_t', LOAD_COLUMNS, LOAD_ROWS);
  expect((await collect(memory.query('SELECT * FROM load_t ORDER BY id'))).rows).toEqual(LOADED.slice(0, 3).concat(LOADED[3]!));
  const before = enginePids().length;
  await memory.close();
  expect(enginePids()).toHaveLength(before - 1);
  expect((await rejection(collect(memory.query('SELECT 1')))).kind).toBe('closed');
});
