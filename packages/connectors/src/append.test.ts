import { afterEach, expect, it } from 'vitest';
import { openDriver } from './factory.ts';
import { collect } from './stream.ts';
import type { Driver, LoadColumn } from './types.ts';

const COLUMNS: LoadColumn[] = [
  { name: 'site_id', type: 'INTEGER' },
  { name: 'event_time', type: 'DATETIME', comment: '事件时间' },
  { name: 'page_title', type: 'STRING' },
  { name: 'x', type: 'INTEGER' },
];

let driver: Driver;
afterEach(() => driver?.close());

const rows = async (sql: string) => (await collect(driver.query(sql))).rows;

it('creates the table on the first append, then adds to it (Dates by their UTC reading)', async () => {
  driver = openDriver({ type: 'duckdb' });
  const first = await driver.appendRows!('clicks', COLUMNS, [
    [1, new Date('2026-11-25T08:00:00.250Z'), '首页', 10],
    [2, '2026-11-25 09:30:00', "it's", null],
  ]);
  expect(first).toEqual({ rows: 2 });
  // More than one chunk (2 048 rows) in one call.
  const many = Array.from({ length: 5000 }, (_, i) => [1, new Date(Date.UTC(2026, 10, 26, 0, 0, i)), `页${i % 7}`, i] as const);
  expect(await driver.appendRows!('clicks', COLUMNS, many)).toEqual({ rows: 5002 - 2 });
  expect(await rows('SELECT count(*) AS n, sum(x) AS s, count(DISTINCT page_title) AS p FROM clicks')).toEqual([{ n: 5002, s: 10 + 4999 * 2500, p: 9 }]);
  expect(await rows('SELECT site_id, event_time, page_title, x FROM clicks ORDER BY event_time LIMIT 2')).toEqual([
    { site_id: 1, event_time: '2026-11-25T08:00:00.25', page_title: '首页', x: 10 },
    { site_id: 2, event_time: '2026-11-25T09:30:00', page_title: "it's", x: null },
  ]);
});

it('stores all rows of a call or none: a bad value refuses the whole call', async () => {
  driver = openDriver({ type: 'duckdb' });
  await driver.appendRows!('clicks', COLUMNS, [[1, '2026-11-25 08:00:00', 'a', 1]]);
  const bad = Array.from({ length: 3000 }, (_, i) => [1, '2026-11-25 08:00:00', 'b', i === 2500 ? 'x1' : i]);
  await expect(driver.appendRows!('clicks', COLUMNS, bad)).rejects.toThrow('第 2501 行【x】的值“x1”不是数字');
  expect(await rows('SELECT count(*) AS n FROM clicks')).toEqual([{ n: 1 }]);
});

it('refuses a table whose columns are not the appended ones', async () => {
  driver = openDriver({ type: 'duckdb' });
  await driver.appendRows!('clicks', COLUMNS, []);
  await expect(driver.appendRows!('clicks', COLUMNS.slice(0, 3), [[1, '2026-11-25 08:00:00', 'a']])).rejects.toThrow(/表【clicks】的列与追加的数据不一致/);
});

it('deletes rows by bound conditions; a missing table has none', async () => {
  driver = openDriver({ type: 'duckdb' });
  expect(await driver.deleteRows!('clicks', [{ column: 'site_id', op: '=', value: 1 }])).toEqual({ rows: 0 });
  await driver.appendRows!('clicks', COLUMNS, [
    [1, '2026-11-01 00:00:00', 'old', 1],
    [1, '2026-11-20 00:00:00', 'new', 2],
    [2, '2026-11-01 00:00:00', "o'ther", 3],
  ]);
  const removed = await driver.deleteRows!('clicks', [
    { column: 'site_id', op: '=', value: 1 },
    { column: 'event_time', op: '<', value: new Date('2026-11-10T00:00:00Z') },
  ]);
  expect(removed).toEqual({ rows: 1 });
  expect(await rows('SELECT page_title FROM clicks ORDER BY x')).toEqual([{ page_title: 'new' }, { page_title: "o'ther" }]);
  await driver.deleteRows!('clicks', [{ column: 'page_title', op: '=', value: "o'ther" }]);
  expect(await rows('SELECT page_title FROM clicks')).toEqual([{ page_title: 'new' }]);
});
