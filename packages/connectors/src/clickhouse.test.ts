import { createClient } from '@clickhouse/client';
import { expect, it, vi } from 'vitest';
import { collect } from './stream.ts';
import { driverSuite, rejection } from './testing/driver-suite.ts';
import { prepareEngine } from './testing/engines.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 });

const handle = await prepareEngine('clickhouse');
driverSuite(handle, 'ClickHouse', ({ driver, handle: h, all }) => {
  it('runs against 18.16, which has no server-side parameters: the driver inlines escaped literals', async () => {
    const info = await driver().info();
    expect(info.serverVersion).toMatch(/^18\.16\./);
    expect(info.capabilities).toMatchObject({ serverSideParameters: false, setOperations: false, multipleJoins: false, ilike: false, tableComments: false });
    // What the client would send for `{x:UInt8}`: 18.16 knows no param_ settings.
    const raw = createClient({ url: `http://127.0.0.1:${h.config.port}`, log: { level: 127 as never } });
    await expect(raw.query({ query: 'SELECT {x:UInt8} AS x', query_params: { x: 1 } })).rejects.toThrow(/Unknown setting param_x/);
    await raw.close();
    const hostile = "it's \\ \n \t \0 ' OR 1 = 1 -- 中文🚀";
    expect(await all('SELECT ? AS s, ? AS n, ? AS z, ? AS b', [hostile, -12.5, null, true])).toEqual([{ s: hostile, n: -12.5, z: null, b: 1 }]);
  });

  it('turns an exception appended after rows were sent into an error, not a row', async () => {
    let rows = 0;
    const error = await rejection(
      (async () => {
        for await (const row of driver().query('SELECT number AS n FROM system.numbers', [], { timeoutMs: 1000 })) {
          expect(typeof row.n).toBe('number');
          rows++;
        }
      })(),
    );
    expect(rows).toBeGreaterThan(0);
    expect(error.kind).toBe('timeout');
  });

  it('reports the columns of an empty result, with UInt64 beyond 2^53 exact', async () => {
    const empty = driver().query('SELECT toUInt64(1) AS a, toString(2) AS b FROM system.one WHERE 0');
    expect((await collect(empty)).rows).toEqual([]);
    expect(empty.columns).toEqual([
      { name: 'a', databaseType: 'UInt64', viewDataType: 'NUMBER' },
      { name: 'b', databaseType: 'String', viewDataType: 'STRING' },
    ]);
    expect(await all("SELECT toUInt64('18446744073709551615') AS big, toDecimal64(2.5, 2) AS d, toDateTime('2024-03-05 10:20:30') AS t")).toEqual([
      { big: '18446744073709551615', d: 2.5, t: '2024-03-05T10:20:30' },
    ]);
  });
});
