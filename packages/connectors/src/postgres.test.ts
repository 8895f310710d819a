import { expect, it, vi } from 'vitest';
import { driverSuite, rejection } from './testing/driver-suite.ts';
import { prepareEngine } from './testing/engines.ts';
import { collect } from './stream.ts';
import type { LoadColumn, LoadRow } from './types.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 });

const handle = await prepareEngine('postgres');
driverSuite(handle, 'PostgreSQL', ({ driver, handle: h, all }) => {
  it('reads every value as text and normalises it (timestamptz as the UTC instant)', async () => {
    expect(
      await all(
        "SELECT TIMESTAMPTZ '2024-01-02 03:04:05+08' AS t, 9007199254740993::int8 AS b, 1.50::numeric AS d, true AS f, DATE '2024-03-05' AS dt, $1::text AS p, $2::int AS i",
        ["it's", 5],
      ),
    ).toEqual([{ t: '2024-01-01T19:04:05Z', b: '9007199254740993', d: 1.5, f: true, dt: '2024-03-05', p: "it's", i: 5 }]);
  });

  it('a value the server refuses in the middle of a COPY fails the load, leaves nothing and keeps the driver working', async () => {
    async function* rows(): AsyncGenerator<LoadRow> {
      for (let i = 1; i <= 5000; i++) yield [i, i === 4000 ? 'nul\u0000byte' : `第${i}行`];
    }
    const columns: LoadColumn[] = [
      { name: 'id', type: 'NUMBER' },
      { name: 'name', type: 'STRING' },
    ];
    const failed = await rejection(driver().bulkLoad('copy_bad', columns, rows(), { schema: h.schema, batchSize: 500 }));
    expect(failed.message).toMatch(/^数据导入失败/);
    expect(await driver().tableExists('copy_bad', { schema: h.schema })).toBe(false);
    expect((await driver().bulkLoad('copy_ok', columns, [[1, 'a']], { schema: h.schema })).rows).toBe(1);
    expect(await all(`SELECT * FROM ${h.schema}.copy_ok`)).toEqual([{ id: 1, name: 'a' }]);
  });

  it('refuses side effects hidden in a SELECT (read-only transaction)', async () => {
    await h.admin(`CREATE SEQUENCE ${h.schema}.seq`);
    expect((await rejection(collect(driver().query(`SELECT nextval('${h.schema}.seq') AS n`)))).kind).toBe('readOnly');
  });
});
