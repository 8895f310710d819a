import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CubeModelInput, CubeQueryRequest, FilterFunction, FilterGroup, SetOperation } from '@shutu/contracts';
import { DuckDBInstance } from '@duckdb/node-api';
import { compileCubeQuery, compileSetOperation, planCubeQuery, type Dialect } from '@shutu/query';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ClickHouseDriver } from '../clickhouse.ts';
import { ensureDemoWarehouse } from '../demo/ensure.ts';
import { generateDemoWarehouse } from '../demo/generate.ts';
import { DUCKDB_LOCKED_DOWN, DuckDBDriver } from '../duckdb.ts';
import { collect } from '../stream.ts';
import type { Driver, Row } from '../types.ts';
import {
  clusterStatus,
  freeShardPorts,
  loadDemo,
  removeClickHouseCluster,
  startClickHouseCluster,
  type ClickHouseCluster,
  type LoadDemoResult,
} from './index.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

/**
 * The demo warehouse on a two-shard ClickHouse cluster (Debian's 18.16, two servers started
 * here) against the same demo generated into DuckDB: board reads, an export read and audience
 * set operations compiled by @shutu/query for each driver's dialect give the same answers.
 * Always runs (the binary is installed with apt-get when missing; a failure to get it fails).
 */

const ORDERS = 20_000;
const ANCHOR = '2026-10-31';
const NOW = new Date('2026-10-31T12:00:00+08:00');

const ordersModel: CubeModelInput = {
  tables: [
    { tableName: 'orders', tableAliasName: 'o' },
    { tableName: 'users', tableAliasName: 'u' },
  ],
  joins: [{ joinType: 'LEFT_JOIN', source: 'o', target: 'u', joinKeys: [{ sourceKey: 'phone', targetKey: 'phone' }] }],
  fields: [
    { id: 1, columnName: 'province', columnTitle: '省份', tableAliasName: 'o', viewDataType: 'STRING' },
    { id: 2, columnName: 'channel_name', columnTitle: '渠道', tableAliasName: 'o', viewDataType: 'STRING' },
    { id: 3, columnName: 'phone', columnTitle: '手机号', tableAliasName: 'o', viewDataType: 'STRING' },
    { id: 4, columnName: 'amount', columnTitle: '金额', tableAliasName: 'o', viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' },
    { id: 5, columnName: 'order_time', columnTitle: '订购时间', tableAliasName: 'o', viewDataType: 'DATETIME' },
    { id: 6, columnName: 'order_id', columnTitle: '订单编号', tableAliasName: 'o', viewDataType: 'NUMBER', aggregationType: 'COUNT' },
    { id: 7, columnName: 'status', columnTitle: '状态', tableAliasName: 'o', viewDataType: 'STRING' },
    { id: 8, columnName: 'gender', columnTitle: '性别', tableAliasName: 'u', viewDataType: 'STRING' },
    { id: 9, columnName: 'age', columnTitle: '年龄', tableAliasName: 'u', viewDataType: 'NUMBER', aggregationType: 'AVG' },
    { id: 10, columnName: 'type_l1_name', columnTitle: '一级类型', tableAliasName: 'o', viewDataType: 'STRING' },
    { id: 12, columnName: 'phone', columnTitle: '用户手机号', tableAliasName: 'u', viewDataType: 'STRING' },
    {
      id: 11,
      columnAttr: 'VIRTUAL',
      columnTitle: '客单价',
      columnFormula: 'SUM([金额]) / COUNT(DISTINCT [手机号])',
      viewDataType: 'NUMBER',
      dimensionType: 'ZHIBIAO',
    },
  ],
};

const orderDataModel: CubeModelInput = {
  tables: [{ tableName: 'v_order_data', tableAliasName: 'v' }],
  joins: [],
  fields: [
    { id: 1, columnName: 'userid', columnTitle: '用户手机号', tableAliasName: 'v', viewDataType: 'STRING' },
    { id: 2, columnName: 'province', columnTitle: '省份', tableAliasName: 'v', viewDataType: 'STRING' },
    { id: 3, columnName: 'shortname', columnTitle: '产品简称', tableAliasName: 'v', viewDataType: 'STRING' },
    { id: 4, columnName: 'ordertime', columnTitle: '订购时间', tableAliasName: 'v', viewDataType: 'DATETIME' },
    { id: 5, columnName: 'canceltime', columnTitle: '退订时间', tableAliasName: 'v', viewDataType: 'DATETIME' },
    { id: 6, columnName: 'vipnums', columnTitle: '会员领取次数', tableAliasName: 'v', viewDataType: 'NUMBER' },
    { id: 7, columnName: 'flows', columnTitle: '当月流量', tableAliasName: 'v', viewDataType: 'NUMBER' },
  ],
};

const where = (id: number, fn: FilterFunction, values: (string | number)[]): FilterGroup => ({
  conditions: [{ cubeColumnId: id, conditions: [{ function: fn, values }] }],
});

/** Board charts: every one answered identically by DuckDB and the cluster. `ordered`: compare in order. */
const BOARD: { name: string; request: CubeQueryRequest; ordered: boolean }[] = [
  {
    name: 'top provinces: count, sum, count distinct, sorted by the sum',
    request: {
      dimensions: [{ fieldId: 1 }],
      measures: [{ fieldId: 6 }, { fieldId: 4 }, { fieldId: 3, aggregation: 'COUNT_DISTINCT' }],
      sort: [{ fieldId: 4, direction: 'DESC' }],
      limit: 10,
    },
    ordered: true,
  },
  {
    name: 'monthly line over a time range, successful orders only',
    request: {
      dimensions: [{ fieldId: 5, granularity: 'MONTH' }],
      measures: [{ fieldId: 6 }, { fieldId: 4 }],
      where: {
        conditions: [
          { cubeColumnId: 7, conditions: [{ function: 'eq', values: ['订购成功'] }] },
          { cubeColumnId: 5, conditions: [{ function: 'between', values: ['2026-03-01', '2026-08-31'] }] },
        ],
      },
      sort: [{ fieldId: 5 }],
    },
    ordered: true,
  },
  {
    name: 'week and quarter buckets (date functions)',
    request: {
      dimensions: [
        { fieldId: 5, granularity: 'QUARTER' },
        { fieldId: 5, granularity: 'WEEK' },
      ],
      measures: [{ fieldId: 6 }],
    },
    ordered: false,
  },
  {
    name: 'a dimension of the joined users table (Distributed JOIN Distributed), AVG and a distinct-count formula',
    request: { dimensions: [{ fieldId: 8 }], measures: [{ fieldId: 9 }, { fieldId: 4 }, { fieldId: 11 }], sort: [{ fieldId: 8 }] },
    ordered: true,
  },
  {
    name: 'filters on both tables: IN, LIKE and a range on age',
    request: {
      dimensions: [{ fieldId: 10 }, { fieldId: 2 }],
      measures: [{ fieldId: 4, aggregation: 'MAX' }, { fieldId: 6 }],
      where: {
        conditions: [
          { cubeColumnId: 1, conditions: [{ function: 'in', values: ['广东', '浙江', '江苏'] }] },
          { cubeColumnId: 9, conditions: [{ function: 'ge', values: [30] }] },
          { cubeColumnId: 2, conditions: [{ function: 'like', values: ['营业厅'] }] },
        ],
      },
    },
    ordered: false,
  },
];

const sortRows = (rows: Row[]) => [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

interface Engine {
  name: string;
  driver: Driver;
  dialect: Dialect;
}

async function run(engine: Engine, sql: string, params: readonly (string | number)[] = []): Promise<Row[]> {
  try {
    return (await collect(engine.driver.query(sql, params, { timeoutMs: 60_000 }))).rows;
  } catch (error) {
    throw new Error(`${engine.name}: ${(error as Error).message}\n${sql}`, { cause: error });
  }
}

describe('the demo warehouse on a two-shard ClickHouse cluster', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'shutu-chcluster-'));
  let cluster: ClickHouseCluster;
  let loaded: LoadDemoResult;
  const engines: Engine[] = [];
  let startMillis = 0;

  beforeAll(async () => {
    const t0 = performance.now();
    cluster = await startClickHouseCluster({ baseDir: path.join(dir, 'cluster'), ports: 'free', keepRunning: false });
    startMillis = performance.now() - t0;
    loaded = await loadDemo(cluster, { orders: ORDERS, anchorDate: ANCHOR });

    const file = path.join(dir, 'warehouse.duckdb');
    const instance = await DuckDBInstance.fromCache(file, DUCKDB_LOCKED_DOWN);
    const connection = await instance.connect();
    await generateDemoWarehouse(connection, { scale: ORDERS, anchorDate: ANCHOR });
    connection.closeSync();

    for (const [name, driver] of [
      ['duckdb', new DuckDBDriver({ type: 'duckdb', path: file })],
      ['clickhouse cluster', new ClickHouseDriver(cluster.config)],
    ] as const) {
      engines.push({ name, driver, dialect: await driver.dialect() });
    }
  });

  afterAll(async () => {
    for (const { driver } of engines) await driver.close();
    await removeClickHouseCluster(path.join(dir, 'cluster'));
    rmSync(dir, { recursive: true, force: true });
  });

  it('chooses free ports below the ephemeral range, where no outgoing connection takes them first', async () => {
    const ports = cluster.shards.flatMap((s) => [s.http, s.tcp]);
    expect(new Set(ports).size).toBe(4);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_768);
    }
    const more = (await freeShardPorts(3)).flatMap((s) => [s.http, s.tcp]);
    expect(new Set(more).size).toBe(6);
    expect(more.some((port) => ports.includes(port))).toBe(false);
  });

  it('starts two 18.16 servers in one cluster definition and loads every demo table, split between the shards', async () => {
    expect(cluster.version).toMatch(/^18\.16\./);
    expect(startMillis).toBeLessThan(60_000);
    const [duck, clickhouse] = engines;
    const clusters = await run(clickhouse!, "SELECT shard_num, port FROM system.clusters WHERE cluster = 'shutu_cluster' ORDER BY shard_num");
    expect(clusters).toEqual(cluster.shards.map((s, i) => ({ shard_num: i + 1, port: s.tcp })));
    expect(loaded.action).toBe('loaded');
    expect(loaded.rowCounts.orders).toBe(ORDERS);
    for (const [table, total] of Object.entries(loaded.rowCounts)) {
      const [{ n }] = (await run(duck!, `SELECT count(*) AS n FROM ${table}`)) as [{ n: number }];
      expect(total, table).toBe(n);
      expect(loaded.shardCounts[0]![table]! + loaded.shardCounts[1]![table]!, table).toBe(total);
    }
    // Both shards hold orders, and a user's orders are all on one shard (sharded by phone).
    expect(loaded.shardCounts[0]!.orders).toBeGreaterThan(ORDERS / 4);
    expect(loaded.shardCounts[1]!.orders).toBeGreaterThan(ORDERS / 4);
    const second = new ClickHouseDriver({ ...cluster.config, port: cluster.shards[1]!.http });
    const phonesOf = async (engine: Engine) => new Set((await run(engine, 'SELECT DISTINCT phone FROM orders_local')).map((r) => r.phone));
    const [one, two] = [await phonesOf(clickhouse!), await phonesOf({ name: 'shard 2', driver: second, dialect: clickhouse!.dialect })];
    await second.close();
    expect(one.size + two.size).toBe(new Set([...one, ...two]).size);
  });

  it('a table the driver writes (file tables, CDP tables) is made on both shards: loaded, renamed and dropped on each, from either shard', async () => {
    const counts = async (table: string) =>
      Promise.all(
        cluster.shards.map(async (s) => {
          const shard = new ClickHouseDriver({ ...cluster.config, port: s.http });
          try {
            const [{ n }] = (await collect(shard.query(`SELECT count() AS n FROM ${table}`))).rows as [{ n: number }];
            return n;
          } finally {
            await shard.close();
          }
        }),
      );
    const tables = async (like: string) => (await counts(`system.tables WHERE name LIKE '${like}%'`)).join(',');
    // Written through shard 2: the driver finds shard 1 by the cluster definition and its http_port macro.
    const driver = new ClickHouseDriver({ ...cluster.config, port: cluster.shards[1]!.http });
    try {
      const rows = Array.from({ length: 3000 }, (_, i) => [`客户${i}`, i % 10]);
      const loaded = await driver.bulkLoad(
        'upload_staging_x',
        [
          { name: 'name', type: 'STRING' },
          { name: 'n', type: 'INTEGER' },
        ],
        rows,
      );
      expect(loaded.rows).toBe(3000);
      await driver.renameTable('upload_staging_x', 'upload_x');
      expect(await tables('upload_staging_x')).toBe('0,0');
      const local = await counts('upload_x_local');
      expect(
        local.every((n) => n > 1000),
        local.join(','),
      ).toBe(true);
      expect(local[0]! + local[1]!).toBe(3000);
      expect(await counts('upload_x')).toEqual([3000, 3000]);
      await driver.dropTable('upload_x');
      expect(await tables('upload_x')).toBe('0,0');
    } finally {
      await driver.close();
    }
  });

  it('loading again keeps the data, starting again keeps the servers', async () => {
    const again = await loadDemo(cluster, { orders: ORDERS, anchorDate: ANCHOR });
    expect(again.action).toBe('kept');
    expect(again.rowCounts).toEqual(loaded.rowCounts);
    const restarted = await startClickHouseCluster({ baseDir: cluster.baseDir });
    expect(restarted.shards.map((s) => s.pid)).toEqual(cluster.shards.map((s) => s.pid));
    expect((await clusterStatus(cluster.baseDir)).map((s) => s.running)).toEqual([true, true]);
  });

  for (const [index, { name, request, ordered }] of BOARD.entries()) {
    it(`board chart ${index + 1}: ${name}`, async () => {
      const answers: Row[][] = [];
      for (const engine of engines) {
        const compiled = compileCubeQuery(ordersModel, request, { dialect: engine.dialect, now: NOW });
        const rows = await run(engine, compiled.sql, compiled.params);
        answers.push(ordered ? rows : sortRows(rows));
      }
      expect(answers[0]!.length, 'the chart has rows').toBeGreaterThan(0);
      expect(answers[1], 'cluster = DuckDB').toEqual(answers[0]);
    });
  }

  it('export read: order-data detail rows (orders, cancellations and usage joined on each shard), page and total', async () => {
    const request: CubeQueryRequest = {
      detail: true,
      dimensions: [{ fieldId: 4 }, { fieldId: 1 }, { fieldId: 2 }, { fieldId: 3 }, { fieldId: 5 }, { fieldId: 6 }, { fieldId: 7 }],
      where: { conditions: [{ cubeColumnId: 2, conditions: [{ function: 'in', values: ['广东', '北京'] }] }] },
      sort: [{ fieldId: 4 }, { fieldId: 1 }, { fieldId: 3 }],
      limit: 500,
      offset: 100,
      withTotal: true,
    };
    const pages: Row[][] = [];
    const totals: Row[][] = [];
    for (const engine of engines) {
      const compiled = compileCubeQuery(orderDataModel, request, { dialect: engine.dialect, now: NOW });
      pages.push(await run(engine, compiled.sql, compiled.params));
      totals.push(await run(engine, compiled.count!.sql, compiled.count!.params));
    }
    expect(pages[0]).toHaveLength(500);
    expect(pages[0]!.some((r) => r.d4 !== null) && pages[0]!.some((r) => r.d4 === null), 'cancelled and kept orders').toBe(true);
    expect(pages[1]).toEqual(pages[0]);
    expect(totals[1]).toEqual(totals[0]);
  });

  const RULES: CubeQueryRequest[] = [
    { dimensions: [{ fieldId: 3 }], where: where(1, 'eq', ['广东']) },
    { dimensions: [{ fieldId: 3 }], where: where(10, 'eq', ['流量产品']) },
    // A having rule: users whose orders add up to 30 yuan or more.
    { dimensions: [{ fieldId: 3 }], measures: [{ fieldId: 4 }], having: where(4, 'ge', [30]) },
  ];
  for (const op of ['intersect', 'union', 'except'] as SetOperation[]) {
    it(`audience ${op} of three rules (IN / NOT IN forms on 18.16), with its count`, async () => {
      const answers: Row[][] = [];
      const counts: Row[][] = [];
      for (const engine of engines) {
        const operands = RULES.map((request, i) => ({
          plan: planCubeQuery(ordersModel, request, { dialect: engine.dialect, now: NOW }),
          keyFieldId: 3,
          ...(i > 0 ? { op } : {}),
        }));
        const compiled = compileSetOperation(operands, { withTotal: true });
        answers.push(sortRows(await run(engine, compiled.sql, compiled.params)));
        counts.push(await run(engine, compiled.count!.sql, compiled.count!.params));
      }
      expect(answers[0]!.length, 'the audience has members').toBeGreaterThan(0);
      expect(answers[1]).toEqual(answers[0]);
      expect(counts[1]).toEqual(counts[0]);
      expect(Number(counts[0]![0]!.total)).toBe(answers[0]!.length);
    });
  }
  // Last: it replaces the 20 000-order data the tests above read.
  it('loads a warehouse file of its own (--from-duckdb): its generation, kept on the next call', async () => {
    const file = path.join(dir, 'small.duckdb');
    await ensureDemoWarehouse(file, { scale: 1000, anchorDate: '2026-06-30' });
    const first = await loadDemo(cluster, { duckdbPath: file });
    expect(first).toMatchObject({ action: 'loaded', meta: { scale: 1000, anchorDate: '2026-06-30' } });
    expect(first.rowCounts.orders).toBe(1000);
    expect((await loadDemo(cluster, { duckdbPath: file })).action).toBe('kept');
    const [{ last }] = (await run(engines[1]!, 'SELECT toString(max(order_time)) AS last FROM orders')) as [{ last: string }];
    expect(last.slice(0, 10) <= '2026-06-30').toBe(true);
  });
});
