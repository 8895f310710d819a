import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DataSourceType } from '@shutu/contracts';
import { prepareEngine, type EngineHandle } from '../../../../../packages/connectors/src/testing/engines.ts';
import { call, type Call } from '../../../test/fixtures.ts';
import { createTestServer, type TestServer } from '../../../test/harness.ts';

/**
 * Bound parameters of data APIs on all four engines (issue 17): a value like `1 OR 1=1` or a
 * quote-breaking string is one value — it matches nothing extra — on DuckDB (the built-in
 * warehouse), PostgreSQL, MariaDB and ClickHouse (literals through the dialect's escaping there).
 * Each engine's API goes through the published runtime, as a caller would.
 */

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 });

const ENGINES: DataSourceType[] = ['duckdb', 'postgres', 'mysql', 'clickhouse'];

describe('data-API parameters are bound on every engine', () => {
  let server: TestServer;
  let admin: Record<string, string>;
  let categoryId: number;
  const handles: EngineHandle[] = [];
  /** Data source id and the qualified table name per engine (absent: the engine is not available here). */
  const sources = new Map<DataSourceType, { id: number; table: string }>();

  beforeAll(async () => {
    server = await createTestServer('pglite', {}, { warehouse: true });
    admin = await server.login();
    categoryId = (await call(server, 'POST', '/api/dataapi/categories', { headers: admin, payload: { categoryName: '引擎测试' } })).body.data.id;
    const list = await call(server, 'GET', '/api/datasource', { headers: admin, query: { size: 100 } });
    const warehouseId = list.body.data.records.find((s: { isBuiltin: boolean }) => s.isBuiltin).id as number;
    // The warehouse is DuckDB; its table is made through the server's own connection.
    sources.set('duckdb', { id: warehouseId, table: 'orders' });
    for (const type of ENGINES.filter((t) => t !== 'duckdb')) {
      const handle = await prepareEngine(type);
      if (!handle) continue;
      handles.push(handle);
      const s = handle.schema;
      const ddl =
        type === 'clickhouse'
          ? `CREATE TABLE ${s}.api_t (id Int32, name String) ENGINE = MergeTree() ORDER BY id`
          : `CREATE TABLE ${s}.api_t (id integer, name varchar(20))`;
      await handle.admin(ddl);
      await handle.admin(`INSERT INTO ${s}.api_t VALUES (1, 'a'), (2, 'b'), (3, 'c')`);
      const c = handle.config;
      const created = await call(server, 'POST', '/api/datasource', {
        headers: admin,
        payload: { dsDb: `接口${type}${Date.now()}`, type, host: c.host, port: c.port, database: c.database, username: c.user, password: c.password ?? '' },
      });
      if (created.status !== 200) throw new Error(`${type} source: ${created.status} ${created.raw.body}`);
      sources.set(type, { id: created.body.data.id, table: `${s}.api_t` });
    }
  });
  afterAll(async () => {
    await server?.close();
    for (const h of handles) await h.cleanup();
  });

  const open = (apiKey: string, query: Record<string, string>): Promise<Call> => call(server, 'GET', `/open/api/${apiKey}`, { headers: admin, query });

  async function api(type: DataSourceType, suffix: string, payload: Record<string, unknown>): Promise<string> {
    const apiKey = `bind_${type}_${suffix}_${Date.now().toString(36)}`;
    const res = await call(server, 'POST', '/api/dataapi/apis', {
      headers: admin,
      payload: { categoryId, apiKey, apiName: `${type} ${suffix}`, apiType: 1, datasourceId: sources.get(type)!.id, ...payload },
    });
    if (res.status !== 200) throw new Error(`${type} api: ${res.status} ${res.raw.body}`);
    return apiKey;
  }

  it.for(ENGINES)('%s', async (type, { skip }) => {
    const source = sources.get(type);
    if (!source) return skip(`${type} is not available here (under CI prepareEngine fails instead)`);
    const warehouse = type === 'duckdb';
    const [idCol, nameCol, firstName] = warehouse ? ['order_id', 'province', null] : ['id', 'name', 'a'];
    const name =
      firstName ??
      String((await open(await api(type, 'probe', { querySql: `SELECT ${nameCol} AS v FROM ${source.table} ORDER BY ${idCol} LIMIT 1` }), {})).body.data[0].v);
    const text = await api(type, 'text', {
      querySql: `SELECT COUNT(*) AS n FROM ${source.table} WHERE ${nameCol} = \${s}`,
      note: JSON.stringify({ params: [{ key: 's', datatype: 'string' }] }),
    });
    const count = async (s: string) => Number((await open(text, { s })).body.data[0].n);
    expect(await count(name)).toBeGreaterThan(0);
    expect(await count('1 OR 1=1')).toBe(0);
    expect(await count(`${name}' OR '1'='1`)).toBe(0);
    expect(await count(`${name}\\' OR 1=1 -- `)).toBe(0);
    expect(await count("'); DROP TABLE api_t; --")).toBe(0);

    const number = await api(type, 'number', {
      querySql: `SELECT COUNT(*) AS n FROM ${source.table} WHERE ${idCol} = \${n}`,
      note: JSON.stringify({ params: [{ key: 'n', datatype: 'number' }] }),
    });
    const wrong = await open(number, { n: '1 OR 1=1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe('参数【n】的值不合法：应为数字');
    expect(Number((await open(number, { n: warehouse ? '-1' : '2' })).body.data[0].n)).toBe(warehouse ? 0 : 1);

    const table = await api(type, 'table', {
      apiType: 3,
      querySql: null,
      queryTable: source.table,
      note: JSON.stringify({ showFields: [{ columnName: idCol }] }),
      queryParam: [{ columnName: nameCol, paramName: 's', columnType: 'STRING(20)', optionalStatus: 1 }],
    });
    expect((await open(table, { s: name })).body.data.length).toBeGreaterThan(0);
    expect(Object.keys((await open(table, { s: name })).body.data[0])).toEqual([idCol]);
    expect((await open(table, { s: '1 OR 1=1' })).body.data).toEqual([]);
    expect((await open(table, { s: `${name}' OR '1'='1` })).body.data).toEqual([]);

    const typed = await api(type, 'typed', {
      querySql: 'SELECT ${d} AS d, ${m} AS m, ${t} AS t, ${ts} AS ts',
      note: JSON.stringify({
        params: [
          { key: 'd', datatype: 'date', def: '20240131' },
          { key: 'm', datatype: 'month', def: '202401' },
          { key: 't', datatype: 'time', def: '08:30:00' },
          { key: 'ts', datatype: 'timestamp', def: 1706659200000 },
        ],
      }),
    });
    const row = (await open(typed, {})).body.data[0];
    expect([row.d, row.m, row.t, String(row.ts)]).toEqual(['20240131', '202401', '08:30:00', '1706659200000']);
    expect((await open(typed, { d: '20240230' })).body.msg).toBe('参数【d】的值不合法：应为日期（yyyyMMdd）');
  });
});
