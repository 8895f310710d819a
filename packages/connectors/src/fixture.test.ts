import { compileCubeQuery, compileSetOperation, planCubeQuery, type Dialect } from '@shutu/query';
import type { SetOperation } from '@shutu/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDriver } from './factory.ts';
import { collect } from './stream.ts';
import { AUDIENCE_RULES, fixtureModel, NOW, ORDER_COLUMNS, ORDER_ROWS, ORDERS, REQUESTS, USER_COLUMNS, USER_ROWS } from './testing/fixture.ts';
import { CI, prepareEngine, type EngineHandle } from './testing/engines.ts';
import type { DataSourceType, Driver, Row } from './types.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 });

/**
 * ONE shared fixture on all four engines: the same orders loaded with bulkLoad, the same cube
 * requests compiled by @shutu/query for each driver's dialect, identical normalised results.
 */
const TYPES: DataSourceType[] = ['duckdb', 'postgres', 'mysql', 'clickhouse'];
const handles = (await Promise.all(TYPES.map((t) => prepareEngine(t)))).filter((h): h is EngineHandle => h !== null);
if (CI) expect(handles.map((h) => h.type)).toEqual(TYPES);

interface Engine {
  handle: EngineHandle;
  driver: Driver;
  dialect: Dialect;
}
const engines: Engine[] = [];

const sortRows = (rows: Row[]) => [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

async function run(engine: Engine, sql: string, params: readonly (string | number)[]): Promise<Row[]> {
  return (await collect(engine.driver.query(sql, params, { timeoutMs: 20_000 }))).rows;
}

describe.skipIf(handles.length === 0)('shared fixture on every engine', () => {
  beforeAll(async () => {
    for (const handle of handles) {
      const driver = openDriver(handle.config);
      await driver.bulkLoad('fx_orders', ORDER_COLUMNS, ORDER_ROWS, { schema: handle.schema, comment: '订单', batchSize: 25 });
      await driver.bulkLoad('fx_users', USER_COLUMNS, USER_ROWS, { schema: handle.schema, comment: '用户' });
      engines.push({ handle, driver, dialect: await driver.dialect() });
    }
  });
  afterAll(async () => {
    for (const { driver, handle } of engines) {
      await driver.close();
      await handle.cleanup();
    }
  });

  it('names the schema (or database) unqualified table names resolve to', async () => {
    for (const { driver, handle } of engines) {
      const expected = handle.type === 'duckdb' ? 'main' : handle.type === 'postgres' ? 'public' : handle.config.database;
      expect(await driver.defaultSchema(), handle.type).toBe(expected);
    }
  });

  it('loads the same rows everywhere', async () => {
    const results = await Promise.all(
      engines.map(async (e) => {
        const q = (name: string) => `${e.dialect.quoteIdentifier(e.handle.schema)}.${e.dialect.quoteIdentifier(name)}`;
        return sortRows(await run(e, `SELECT * FROM ${q('fx_orders')}`, []));
      }),
    );
    const expected = sortRows(ORDERS.map((o) => ({ ...o, order_time: o.order_time.replace(' ', 'T') })));
    for (const [i, rows] of results.entries()) expect(rows, engines[i]!.handle.type).toEqual(expected);
  });

  for (const [index, { name, request, ordered }] of REQUESTS.entries()) {
    it(`request ${index + 1}: ${name}`, async () => {
      const answers: Row[][] = [];
      const totals: Row[][] = [];
      for (const engine of engines) {
        const compiled = compileCubeQuery(fixtureModel(engine.handle.schema), request, { dialect: engine.dialect, now: NOW });
        const rows = await run(engine, compiled.sql, compiled.params).catch((error: Error & { detail?: string }) => {
          throw new Error(`${engine.handle.type}: ${error.message}\n${compiled.sql}`);
        });
        answers.push(ordered ? rows : sortRows(rows));
        if (compiled.count) totals.push(await run(engine, compiled.count.sql, compiled.count.params));
      }
      expect(answers[0]!.length, 'the request selects some rows').toBeGreaterThan(0);
      for (const [i, rows] of answers.entries()) expect(rows, engines[i]!.handle.type).toEqual(answers[0]);
      for (const [i, rows] of totals.entries()) expect(rows, engines[i]!.handle.type).toEqual(totals[0]);
    });
  }

  it('matches totals computed from the fixture itself', async () => {
    const byProvince = new Map<string, { n: number; sum: number; phones: Set<string> }>();
    for (const o of ORDERS) {
      const g = byProvince.get(o.province) ?? { n: 0, sum: 0, phones: new Set<string>() };
      g.n++;
      g.sum += o.amount;
      g.phones.add(o.user_phone);
      byProvince.set(o.province, g);
    }
    const expected = [...byProvince.entries()].map(([p, g]) => ({ d0: p, m0: g.n, m1: g.sum, m2: g.phones.size })).sort((a, b) => b.m1 - a.m1);
    const page = [...ORDERS]
      .sort((a, b) => b.amount - a.amount || a.order_id - b.order_id)
      .slice(3, 8)
      .map((o) => ({ d0: o.order_id, d1: o.product, d2: o.amount, d3: o.order_time.replace(' ', 'T') }));
    for (const engine of engines) {
      const first = compileCubeQuery(fixtureModel(engine.handle.schema), REQUESTS[0]!.request, { dialect: engine.dialect, now: NOW });
      expect(await run(engine, first.sql, first.params), engine.handle.type).toEqual(expected);
      const detail = compileCubeQuery(fixtureModel(engine.handle.schema), REQUESTS[5]!.request, { dialect: engine.dialect, now: NOW });
      expect(await run(engine, detail.sql, detail.params), engine.handle.type).toEqual(page);
      // 近似去重计数: at a handful of phones per province every engine's estimate is the count.
      const approx = REQUESTS.find((r) => r.name.startsWith('近似去重计数'))!.request;
      const counted = compileCubeQuery(fixtureModel(engine.handle.schema), approx, { dialect: engine.dialect, now: NOW });
      const rows = await run(engine, counted.sql, counted.params);
      expect(
        rows.map((r) => [r.d0, r.m0, r.m1, r.m2]),
        engine.handle.type,
      ).toEqual([...expected].sort((a, b) => b.m2 - a.m2 || (a.d0 < b.d0 ? -1 : 1)).map((e) => [e.d0, e.m2, e.m1, e.m0]));
    }
  });

  for (const op of ['intersect', 'union', 'except'] as SetOperation[]) {
    it(`audience ${op} of two rules (native or IN / NOT IN forms by capability)`, async () => {
      const phones = (channel: string) => new Set(ORDERS.filter((o) => o.channel === channel).map((o) => o.user_phone));
      const [app, web] = [phones('app'), phones('web')];
      const keys =
        op === 'intersect' ? [...app].filter((p) => web.has(p)) : op === 'union' ? [...new Set([...app, ...web])] : [...app].filter((p) => !web.has(p));
      const expected = keys.sort().map((k) => ({ k }));
      expect(expected.length).toBeGreaterThan(0);
      for (const engine of engines) {
        const operands = AUDIENCE_RULES.map((request, i) => ({
          plan: planCubeQuery(fixtureModel(engine.handle.schema), request, { dialect: engine.dialect, now: NOW }),
          keyFieldId: 3,
          ...(i > 0 ? { op } : {}),
        }));
        const compiled = compileSetOperation(operands);
        expect(sortRows(await run(engine, compiled.sql, compiled.params)), engine.handle.type).toEqual(expected);
      }
    });
  }
});
