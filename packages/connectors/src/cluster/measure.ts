/**
 * Board reads on the cluster against the same demo in the embedded DuckDB (docs/deploy.md
 * "ClickHouse cluster", measured figures):
 *   npx tsx packages/connectors/src/cluster/measure.ts [--orders 200000] [--dir DIR] [--runs 5]
 * Starts (or reuses) the cluster under DIR, loads the demo (kept when already there), generates
 * the same demo into a temporary DuckDB file, and times each board query on both (median of runs,
 * after one warm-up), then stops the cluster (its data stays under DIR). Prints one JSON line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { compileCubeQuery, type Dialect } from '@shutu/query';
import type { CubeModelInput, CubeQueryRequest } from '@shutu/contracts';
import { ClickHouseDriver } from '../clickhouse.ts';
import { generateDemoWarehouse } from '../demo/generate.ts';
import { DUCKDB_LOCKED_DOWN, DuckDBDriver } from '../duckdb.ts';
import { collect } from '../stream.ts';
import type { Driver } from '../types.ts';
import { loadDemo, startClickHouseCluster } from './index.ts';

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1]! : fallback;
};
const orders = Number(arg('--orders', '200000'));
const runs = Number(arg('--runs', '5'));
const anchorDate = '2026-10-31';

const model: CubeModelInput = {
  tables: [
    { tableName: 'orders', tableAliasName: 'o' },
    { tableName: 'users', tableAliasName: 'u' },
  ],
  joins: [{ joinType: 'LEFT_JOIN', source: 'o', target: 'u', joinKeys: [{ sourceKey: 'phone', targetKey: 'phone' }] }],
  fields: [
    { id: 1, columnName: 'province', columnTitle: '省份', tableAliasName: 'o', viewDataType: 'STRING' },
    { id: 3, columnName: 'phone', columnTitle: '手机号', tableAliasName: 'o', viewDataType: 'STRING' },
    { id: 4, columnName: 'amount', columnTitle: '金额', tableAliasName: 'o', viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' },
    { id: 5, columnName: 'order_time', columnTitle: '订购时间', tableAliasName: 'o', viewDataType: 'DATETIME' },
    { id: 8, columnName: 'gender', columnTitle: '性别', tableAliasName: 'u', viewDataType: 'STRING' },
    { id: 12, columnName: 'phone', columnTitle: '用户手机号', tableAliasName: 'u', viewDataType: 'STRING' },
  ],
};
const queries: Record<string, CubeQueryRequest> = {
  'provinces (one table)': {
    dimensions: [{ fieldId: 1 }],
    measures: [{ fieldId: 4 }, { fieldId: 3, aggregation: 'COUNT_DISTINCT' }],
    sort: [{ fieldId: 4, direction: 'DESC' }],
  },
  'months (one table)': { dimensions: [{ fieldId: 5, granularity: 'MONTH' }], measures: [{ fieldId: 4 }], sort: [{ fieldId: 5 }] },
  'gender (orders ⋈ users)': { dimensions: [{ fieldId: 8 }], measures: [{ fieldId: 4 }] },
};

async function time(driver: Driver, dialect: Dialect, request: CubeQueryRequest): Promise<number> {
  const { sql, params } = compileCubeQuery(model, request, { dialect, now: new Date('2026-10-31T12:00:00+08:00') });
  await collect(driver.query(sql, params));
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await collect(driver.query(sql, params));
    times.push(performance.now() - t0);
  }
  return Math.round(times.sort((a, b) => a - b)[Math.floor(times.length / 2)]! * 10) / 10;
}

const baseDir = arg('--dir', path.join(os.tmpdir(), 'shutu-clickhouse-measure'));
const cluster = await startClickHouseCluster({
  baseDir,
  ports: [
    { http: 28143, tcp: 29020 },
    { http: 28144, tcp: 29021 },
  ],
});
const load = await loadDemo(cluster, { orders, anchorDate });
const dir = mkdtempSync(path.join(os.tmpdir(), 'shutu-measure-'));
const file = path.join(dir, 'warehouse.duckdb');
const instance = await DuckDBInstance.fromCache(file, DUCKDB_LOCKED_DOWN);
const connection = await instance.connect();
await generateDemoWarehouse(connection, { scale: orders, anchorDate });
connection.closeSync();
const duck = new DuckDBDriver({ type: 'duckdb', path: file });
const ch = new ClickHouseDriver(cluster.config);
const result: Record<string, { duckdbMs: number; clusterMs: number }> = {};
for (const [name, request] of Object.entries(queries)) {
  result[name] = { duckdbMs: await time(duck, await duck.dialect(), request), clusterMs: await time(ch, await ch.dialect(), request) };
}
await Promise.all([duck.close(), ch.close()]);
rmSync(dir, { recursive: true, force: true });
await cluster.stop();
process.stdout.write(`${JSON.stringify({ orders, load: { action: load.action, millis: load.millis }, loadAverage: os.loadavg(), runs, result })}\n`);
