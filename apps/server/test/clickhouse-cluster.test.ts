import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API, type BoardSave, type ChartSave, type DatasetSave, type ExportTask } from '@shutu/contracts';
import { freeShardPorts, loadDemo, removeClickHouseCluster, startClickHouseCluster, type ClickHouseCluster } from '@shutu/connectors/cluster';
import { createClient } from '@clickhouse/client';
import { getDataSourceDriver } from '../src/modules/datasource/registry.ts';
import { moduleJobs } from '../src/modules/jobs.ts';
import { Jobs } from '../src/platform/jobs/boss.ts';
import { call } from './fixtures.ts';
import { datasetWorld, fieldIds, type DatasetWorld, type Headers } from './dataset-fixtures.ts';
import { multipart } from './multipart.ts';

/**
 * The server on the two-shard ClickHouse cluster (issue 27, docs/deploy.md "ClickHouse
 * cluster"): the cluster holds the same demo generation as the test server's built-in DuckDB
 * warehouse; a ClickHouse data source on shard 1 gets the same dataset and board as the
 * warehouse, and board chart data (one chart and the board batch), a CSV export and audience
 * 交 / 并 / 差 answer the same through the normal ClickHouse driver. Always runs: the
 * clickhouse-server package is installed when missing, and a failure to start fails the suite.
 */

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });
const silent = pino({ level: 'silent' });
type Row = Record<string, unknown>;

const normal = (id: string, table: string, columnName: string, columnTitle: string, extra: Record<string, unknown> = {}) => ({
  id,
  columnName,
  columnTitle,
  tableAliasName: table,
  columnAttr: 'NORMAL' as const,
  ...extra,
});

/** orders ⋈ users by phone (one JOIN: what 18.16 can), a distinct-count formula. */
const dataset = (workspaceId: number, datasourceId: number, cubeName: string): DatasetSave => ({
  cubeData: {
    cubeName,
    workspaceId,
    cubeTableNames: [
      { tableName: 'orders', tableAliasName: 'o' },
      { tableName: 'users', tableAliasName: 'u' },
    ],
    linksJoin: [{ joinType: 'LEFT_JOIN', source: 'o', target: 'u', joinKeys: [{ sourceKey: 'phone', targetKey: 'phone' }] }],
    publicStatus: 1,
  },
  datasourceId,
  columnList: [
    normal('province', 'o', 'province', '省份'),
    normal('channel', 'o', 'channel_name', '渠道'),
    normal('phone', 'o', 'phone', '手机号'),
    normal('orderId', 'o', 'order_id', '订单编号', { viewDataType: 'NUMBER' }),
    normal('orderTime', 'o', 'order_time', '订购时间', { viewDataType: 'DATETIME' }),
    normal('amount', 'o', 'amount', '金额', { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' }),
    normal('type', 'o', 'type_l1_name', '产品类型'),
    normal('uPhone', 'u', 'phone', '用户手机号'),
    normal('gender', 'u', 'gender', '性别'),
    normal('age', 'u', 'age', '年龄', { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO', aggregationType: 'AVG' }),
    {
      id: 'perUser',
      columnAttr: 'VIRTUAL',
      columnTitle: '客单价',
      columnFormula: 'SUM({amount}) / COUNT(DISTINCT [手机号])',
      viewDataType: 'NUMBER',
      dimensionType: 'ZHIBIAO',
    },
  ],
});

const charts = (cubeId: number, f: Record<string, number>): ChartSave[] => [
  {
    key: 'bar',
    name: 'bar',
    title: '各省订购',
    dataconfig: {
      cubeId,
      rowParamList: [{ fieldId: f['省份']! }],
      indexParamList: [{ fieldId: f['订单编号']!, aggregation: 'COUNT' }, { fieldId: f['金额']! }, { fieldId: f['手机号']!, aggregation: 'COUNT_DISTINCT' }],
      sortList: [{ fieldId: f['金额']!, direction: 'DESC' }],
    },
  },
  {
    key: 'line',
    name: 'line',
    title: '月度金额',
    dataconfig: {
      cubeId,
      rowParamList: [{ fieldId: f['订购时间']!, granularity: 'MONTH' }],
      indexParamList: [{ fieldId: f['金额']! }],
      sortList: [{ fieldId: f['订购时间']!, direction: 'ASC' }],
    },
  },
  {
    key: 'pie',
    name: 'pie',
    title: '性别',
    dataconfig: {
      cubeId,
      rowParamList: [{ fieldId: f['性别']! }],
      indexParamList: [{ fieldId: f['年龄']! }, { fieldId: f['客单价']! }],
      sortList: [{ fieldId: f['性别']!, direction: 'ASC' }],
    },
  },
  {
    key: 'card',
    name: 'card',
    title: '总金额',
    dataconfig: { cubeId, indexParamList: [{ fieldId: f['金额']! }, { fieldId: f['订单编号']!, aggregation: 'COUNT' }] },
  },
  {
    key: 'detail',
    name: 'detail',
    title: '订单明细',
    dataconfig: {
      cubeId,
      rowParamList: [{ fieldId: f['订单编号']! }, { fieldId: f['省份']! }, { fieldId: f['订购时间']! }, { fieldId: f['性别']! }],
      indexParamList: [{ fieldId: f['金额']! }],
      sortList: [{ fieldId: f['订单编号']!, direction: 'ASC' }],
      pageSize: 20,
    },
  },
];

describe('the server on a two-shard ClickHouse cluster', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-chcluster-app-'));
  let w: DatasetWorld;
  let jobs: Jobs;
  let admin: Headers;
  let cluster: ClickHouseCluster;
  let clusterSourceId: number;
  /** The same dataset and board on the built-in DuckDB warehouse and on the cluster. */
  const sides: { name: string; cubeId: number; f: Record<string, number>; boardId: number; second: { cubeId: number; f: Record<string, number> } }[] = [];

  beforeAll(async () => {
    cluster = await startClickHouseCluster({ baseDir: path.join(dir, 'cluster'), ports: await freeShardPorts(), keepRunning: false });
    w = await datasetWorld('pglite');
    admin = w.admin;
    jobs = await Jobs.start(w.server.store, silent, moduleJobs(w.server.ctx, silent), { work: true, pollingIntervalSeconds: 0.5 });
    w.server.ctx.jobs = jobs;
    // The built-in warehouse's own generation, loaded into the cluster: the same rows on both.
    const [meta] = await w.direct('SELECT seed, scale, anchor_date FROM demo_warehouse_meta');
    const loaded = await loadDemo(cluster, { seed: Number(meta!.seed), orders: Number(meta!.scale), anchorDate: String(meta!.anchor_date) });
    expect(loaded.shardCounts.every((counts) => counts.orders! > 0)).toBe(true);

    const source = await call(w.server, 'POST', '/api/datasource', {
      headers: admin,
      payload: {
        dsDb: 'ClickHouse集群',
        type: 'clickhouse',
        host: '127.0.0.1',
        port: cluster.shards[0]!.http,
        database: 'default',
        username: 'default',
        password: '',
      },
    });
    expect(source.status, source.raw.body).toBe(200);
    clusterSourceId = source.body.data.id as number;
    const ws = await w.category('集群数据集');
    const category = (await call(w.server, 'POST', '/api/board/categories', { headers: admin, payload: { kind: 'visual', categoryValue: '集群' } })).body.data
      .id;
    for (const [name, datasourceId] of [
      ['DuckDB', w.warehouseId],
      ['ClickHouse集群', source.body.data.id as number],
    ] as const) {
      const saved = await w.save(admin, dataset(ws, datasourceId, `订购用户${name}`));
      expect(saved.status, saved.raw.body).toBe(200);
      const cubeId = saved.body.data as number;
      const f = await fieldIds(w.server, admin, cubeId);
      const list = charts(cubeId, f);
      const board: BoardSave = {
        title: `订购大屏${name}`,
        categoryId: category,
        content: { type: 'quick', layout: list.map((c, i) => ({ i: c.key, x: 0, y: i * 6, w: 12, h: 6 })) },
        charts: list,
      };
      const created = await call(w.server, 'POST', '/api/board/boards', { headers: admin, payload: board });
      expect(created.status, created.raw.body).toBe(200);
      // An audience takes a dataset once: its second rule reads a twin dataset.
      const twin = (await w.save(admin, dataset(ws, datasourceId, `订购用户B${name}`))).body.data as number;
      sides.push({ name, cubeId, f, boardId: created.body.data, second: { cubeId: twin, f: await fieldIds(w.server, admin, twin) } });
    }
  });

  afterAll(async () => {
    await jobs?.stop();
    await w?.close();
    await removeClickHouseCluster(path.join(dir, 'cluster'));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const chartData = async (boardId: number, chartKey: string, current = 1): Promise<{ dataList: Row[]; total: number | null }> => {
    const res = await call(w.server, 'POST', '/api/board/chart-data', { headers: admin, payload: { boardId, chartKey, current, size: 1000 } });
    expect(res.status, res.raw.body).toBe(200);
    return res.body.data;
  };

  it('every chart of the board answers on the cluster what it answers on DuckDB', async () => {
    for (const key of ['bar', 'line', 'pie', 'card', 'detail']) {
      const [duck, cluster] = [await chartData(sides[0]!.boardId, key), await chartData(sides[1]!.boardId, key)];
      expect(duck.dataList.length, key).toBeGreaterThan(0);
      expect(cluster.dataList, key).toEqual(duck.dataList);
      expect(cluster.total, key).toEqual(duck.total);
    }
  });

  it('the board batch (one call for every chart) gives each chart its own answer on the cluster', async () => {
    const keys = ['bar', 'line', 'pie', 'card'];
    const batch = async (boardId: number) => {
      const res = await call(w.server, 'POST', '/api/board/chart-data/batch', {
        headers: admin,
        payload: { boardId, charts: keys.map((chartKey) => ({ chartKey })) },
      });
      expect(res.status, res.raw.body).toBe(200);
      return (res.body.data as { data: { dataList: Row[] } | null; error: unknown }[]).map((item) => item.data?.dataList ?? item.error);
    };
    const [duck, cluster] = [await batch(sides[0]!.boardId), await batch(sides[1]!.boardId)];
    expect(cluster).toEqual(duck);
    for (const [i, key] of keys.entries()) expect(duck[i], key).toEqual((await chartData(sides[0]!.boardId, key)).dataList);
  });

  it('exports the detail table as CSV from the cluster: every row, the same file as from DuckDB', async () => {
    const files: string[] = [];
    for (const side of sides) {
      const created = await call(w.server, 'POST', '/api/export/tasks', {
        headers: admin,
        payload: { boardId: side.boardId, chartKey: 'detail', format: 'csv' },
      });
      expect(created.status, created.raw.body).toBe(200);
      const id = created.body.data.id as number;
      let task: ExportTask | undefined;
      const deadline = Date.now() + 90_000;
      while (!task || (task.status !== 'done' && task.status !== 'failed')) {
        if (Date.now() > deadline) throw new Error(`export ${id} still ${task?.status}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
        task = (await call(w.server, 'GET', '/api/export/tasks', { headers: admin, query: { size: 100 } })).body.data.records.find(
          (t: ExportTask) => t.id === id,
        );
      }
      expect(task.status, `${side.name}: ${task.errMsg}`).toBe('done');
      const file = await w.server.app.inject({ method: 'GET', url: `/api/export/tasks/${id}/download`, headers: admin });
      files.push(file.rawPayload.toString('utf8'));
    }
    const lines = files[0]!.replace(/\r\n$/, '').split('\r\n');
    expect(lines[0]).toBe('\ufeff订单编号,省份,订购时间,性别,金额');
    const [{ n }] = (await w.direct('SELECT count(*) AS n FROM orders')) as [{ n: number }];
    expect(lines.length - 1).toBe(Number(n));
    expect(files[1]).toBe(files[0]);
  });

  it('audience 交 / 并 / 差 of a where rule and a having rule: the same members on the cluster (computed by the job queue, exported)', async () => {
    const members = async (side: (typeof sides)[number], connectType: string) => {
      const defineRule = [
        {
          cubeId: side.cubeId,
          cubeName: 'A',
          phoneField: side.f['手机号'],
          columns: [side.f['省份']],
          filter: { relation: 'AND', conditions: [{ cubeColumnId: side.f['产品类型'], conditions: [{ function: 'eq', values: ['流量产品'] }] }] },
        },
        {
          cubeId: side.second.cubeId,
          cubeName: 'B',
          connectType,
          phoneField: side.second.f['手机号'],
          columns: [],
          having: {
            relation: 'AND',
            conditions: [{ cubeColumnId: side.second.f['金额'], aggregation: 'SUM', conditions: [{ function: 'ge', values: [60] }] }],
          },
        },
      ];
      const res = await call(w.server, 'POST', API.audience.preview, { headers: admin, payload: { defineRule } });
      expect(res.status, res.raw.body).toBe(200);
      // The preview shows the first 100 in no order: the whole set is compared through the saved audience's CSV.
      const saved = await call(w.server, 'POST', API.audience.save, {
        headers: admin,
        payload: { groupName: `${connectType}${side.name}`, classifyId, defineRule },
      });
      expect(saved.status, saved.raw.body).toBe(200);
      // Saving queues its computation on the job queue (running here): wait for it, as the list page does.
      const deadline = Date.now() + 90_000;
      let detail: { status: string; size: number | null; error: string | null } = { status: 'new', size: null, error: null };
      while (detail.status !== 'done' && detail.status !== 'failed') {
        if (Date.now() > deadline) throw new Error(`audience ${side.name} ${connectType} still ${detail.status}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
        detail = (await call(w.server, 'GET', API.audience.detail, { headers: admin, query: { id: saved.body.data } })).body.data;
      }
      expect(detail.status, detail.error ?? '').toBe('done');
      expect(detail.size).toBe(res.body.data.total);
      const csv = await w.server.app.inject({ method: 'GET', url: API.audience.export, query: { id: String(saved.body.data) }, headers: admin });
      const lines = csv.body.replace(/\r\n$/, '').split('\r\n');
      expect(lines[0]).toBe('\uFEFF手机号,省份');
      return { total: res.body.data.total as number, members: lines.slice(1).sort() };
    };
    const classifyId = (await call(w.server, 'POST', API.audience.categories, { headers: admin, payload: { name: '集群人群' } })).body.data.id;
    for (const op of ['and', 'or', 'del']) {
      const [duck, cluster] = [await members(sides[0]!, op), await members(sides[1]!, op)];
      expect(duck.total, op).toBeGreaterThan(0);
      expect(duck.members, op).toHaveLength(duck.total);
      expect(cluster, op).toEqual(duck);
    }
  });

  it('a file table uploaded to the cluster (the upload target setting) is spread over both shards, charts as on DuckDB, and is dropped from both', async () => {
    const setTarget = await call(w.server, 'PUT', API.system.fileTableSource, { headers: admin, payload: { datasourceId: clusterSourceId } });
    expect(setTarget.status, setTarget.raw.body).toBe(200);
    const target = (await call(w.server, 'GET', API.system.fileTableSource, { headers: admin })).body.data.datasourceId as number;
    expect(target).toBe(clusterSourceId);
    const lines = Array.from({ length: 4000 }, (_, i) => `客户${i},城市${i % 7},${i % 100}.5,2024-03-${String(1 + (i % 28)).padStart(2, '0')} 08:30:00`);
    const content = `姓名,城市,金额,下单时间\n${lines.join('\n')}\n`;
    const columns = [
      { comment: '姓名', columnName: 'name', columnType: 'STRING' },
      { comment: '城市', columnName: 'city', columnType: 'STRING' },
      { comment: '金额', columnName: 'amount', columnType: 'NUMBER' },
      { comment: '下单时间', columnName: 'ordered_at', columnType: 'DATETIME' },
    ];
    const tableName = `ft_cluster_${Date.now().toString(36)}`;
    const shardClients = cluster.shards.map((s) => createClient({ url: `http://127.0.0.1:${s.http}` }));
    const onShards = async (sql: string) =>
      Promise.all(shardClients.map(async (c) => Number((await (await c.query({ query: sql, format: 'TabSeparated' })).text()).trim())));
    const category = (await call(w.server, 'POST', '/api/board/categories', { headers: admin, payload: { kind: 'visual', categoryValue: '上传' } })).body.data
      .id;
    try {
      const answers: Row[][] = [];
      for (const dsId of [w.warehouseId, target]) {
        const body = multipart({ tableName, tableComment: '客户订单', dsId, tableColumnList: JSON.stringify(columns) }, { name: '订单.csv', content });
        const res = await w.server.app.inject({ method: 'POST', url: API.fileTable.tables, headers: { ...admin, ...body.headers }, payload: body.payload });
        expect(res.statusCode, res.body).toBe(200);
        expect(JSON.parse(res.body).data).toMatchObject({ tableName, datasourceId: dsId, rowCount: 4000 });
        const saved = await w.save(admin, {
          cubeData: {
            cubeName: `上传${dsId}`,
            workspaceId: await w.category(`上传分类${dsId}`),
            cubeTableNames: [{ tableName, tableAliasName: 'f' }],
            linksJoin: [],
            publicStatus: 1,
          },
          datasourceId: dsId,
          columnList: [
            normal('city', 'f', 'city', '城市'),
            normal('amount', 'f', 'amount', '金额', { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' }),
            normal('name', 'f', 'name', '姓名'),
          ],
        });
        expect(saved.status, saved.raw.body).toBe(200);
        const f = await fieldIds(w.server, admin, saved.body.data as number);
        const chart: ChartSave = {
          key: 'cities',
          name: 'bar',
          title: '各城市金额',
          dataconfig: {
            cubeId: saved.body.data as number,
            rowParamList: [{ fieldId: f['城市']! }],
            indexParamList: [{ fieldId: f['金额']! }, { fieldId: f['姓名']!, aggregation: 'COUNT_DISTINCT' }],
            sortList: [{ fieldId: f['城市']!, direction: 'ASC' }],
          },
        };
        const board = await call(w.server, 'POST', '/api/board/boards', {
          headers: admin,
          payload: {
            title: `上传大屏${dsId}`,
            categoryId: category,
            content: { type: 'quick', layout: [{ i: 'cities', x: 0, y: 0, w: 12, h: 6 }] },
            charts: [chart],
          },
        });
        expect(board.status, board.raw.body).toBe(200);
        answers.push((await chartData(board.body.data as number, 'cities')).dataList);
      }
      // Both shards hold part of the rows (the Distributed table spreads them), together all of them.
      const perShard = await onShards(`SELECT count() FROM ${tableName}_local`);
      expect(
        perShard.every((n) => n > 500),
        perShard.join(','),
      ).toBe(true);
      expect(perShard.reduce((a, b) => a + b)).toBe(4000);
      expect(await onShards(`SELECT count() FROM ${tableName}`)).toEqual([4000, 4000]);
      expect(answers[0]).toHaveLength(7);
      expect(answers[1]).toEqual(answers[0]);

      // Dropping the file table's table (what a failed or replaced load does) removes it from every shard.
      await (await getDataSourceDriver(w.server.ctx, target)).dropTable(tableName);
      expect(await onShards(`SELECT count() FROM system.tables WHERE name IN ('${tableName}', '${tableName}_local')`)).toEqual([0, 0]);
    } finally {
      await Promise.all(shardClients.map((c) => c.close()));
      await call(w.server, 'PUT', API.system.fileTableSource, { headers: admin, payload: { datasourceId: null } });
    }
  });
});
