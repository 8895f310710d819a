import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import type { BoardSave } from '@shutu/contracts';
import { call } from '../../../test/fixtures.ts';
import { storeKinds } from '../../../test/harness.ts';
import { datasetWorld, fieldIds, ordersDataset, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';
import { getDataSourceDriver } from '../datasource/registry.ts';
import { readCacheStats } from '../read/cache.ts';

/**
 * The kept chart-data answers (answer-cache.ts): a viewer's repeated request is answered from
 * the bytes sent before (the driver runs nothing), each viewer keeps their own answer, and a
 * permission filter saved or a board's chart changed is seen by the very next request.
 */
const kinds = await storeKinds();

type Row = Record<string, unknown>;

describe.each(kinds)('kept chart answers on %s', (kind) => {
  let w: DatasetWorld;
  let boardId: number;
  let cubeId: number;
  let ids: Record<string, number>;
  let member: { id: number; headers: Headers };
  let group: number;
  let statements = 0;

  const chartData = (headers: Headers) => call(w.server, 'POST', '/api/board/chart-data', { headers, payload: { boardId, chartKey: 'byProvince' } });
  const provinces = (rows: Row[]) => rows.map((r) => String(r.d0)).sort();

  beforeAll(async () => {
    w = await datasetWorld(kind);
    const workspaceId = await w.category('应答缓存');
    const dataset = ordersDataset(workspaceId, w.warehouseId, '应答缓存', 1);
    cubeId = (await w.save(w.admin, dataset)).body.data as number;
    ids = await fieldIds(w.server, w.admin, cubeId);
    const categoryId = (await call(w.server, 'POST', '/api/board/categories', { headers: w.admin, payload: { kind: 'visual', categoryValue: '应答缓存' } }))
      .body.data.id;
    const board: BoardSave = {
      title: '应答缓存看板',
      categoryId,
      content: { type: 'quick', layout: [{ i: 'byProvince', x: 0, y: 0, w: 12, h: 6 }] },
      charts: [
        {
          key: 'byProvince',
          name: 'bar',
          title: '各省金额',
          dataconfig: { cubeId, rowParamList: [{ fieldId: ids['省份']! }], indexParamList: [{ fieldId: ids['金额']!, aggregation: 'SUM' }] },
        },
      ],
      publicStatus: 1,
    };
    const saved = await call(w.server, 'POST', '/api/board/boards', { headers: w.admin, payload: board });
    expect(saved.status, saved.raw.body).toBe(200);
    boardId = saved.body.data;
    member = await w.member();
    group = await w.group([member.id]);
    const grant = await call(w.server, 'PUT', `/api/dataset/auth/${group}/cubes`, {
      headers: w.admin,
      payload: { cubeWorkspaceId: workspaceId, dataIdList: [cubeId] },
    });
    expect(grant.status, grant.raw.body).toBe(200);
    const driver = await getDataSourceDriver(w.server.ctx, w.warehouseId);
    const query = driver.query.bind(driver);
    driver.query = (...args) => {
      statements += 1;
      return query(...args);
    };
  }, 120_000);
  afterAll(() => w?.close());

  it('answers a repeated request from the kept answer, gzipped once for a client that accepts it', async () => {
    const first = await chartData(w.admin);
    expect(first.status, first.raw.body).toBe(200);
    const before = { statements, executions: readCacheStats(w.server.ctx).executions };
    const again = await chartData(w.admin);
    expect(again.status).toBe(200);
    expect(again.body.data.dataList).toEqual(first.body.data.dataList);
    expect(again.body.data.fieldDict).toEqual(first.body.data.fieldDict);
    expect(again.body.data.shared).toBe(true);
    const zipped = await w.server.app.inject({
      method: 'POST',
      url: '/api/board/chart-data',
      headers: { ...w.admin, 'accept-encoding': 'gzip' },
      payload: { boardId, chartKey: 'byProvince' },
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(zipped.rawPayload).toString()).data.dataList).toEqual(first.body.data.dataList);
    expect(statements).toBe(before.statements);
    expect(readCacheStats(w.server.ctx).executions).toBe(before.executions);
  });

  it("keeps each viewer's own answer, and a permission filter saved applies to the next request", async () => {
    const all = provinces((await chartData(w.admin)).body.data.dataList);
    const open = await chartData(member.headers);
    expect(open.status, open.raw.body).toBe(200);
    expect(provinces(open.body.data.dataList)).toEqual(all);
    await w.permFilter(cubeId, group, { name: '广东', fieldId: ids['省份'], values: ['广东'] });
    const narrowed = await chartData(member.headers);
    expect(provinces(narrowed.body.data.dataList)).toEqual(['广东']);
    // The administrator's kept answer is theirs: still every province.
    expect(provinces((await chartData(w.admin)).body.data.dataList)).toEqual(all);
  });

  it("reads again after the board's chart changed", async () => {
    const detail = await call(w.server, 'GET', `/api/board/boards/${boardId}`, { headers: w.admin });
    expect(detail.status, detail.raw.body).toBe(200);
    const board = detail.body.data;
    const charts = (board.charts as { key: string; dataconfig: Row }[]).map((c) => ({
      ...c,
      dataconfig: { ...c.dataconfig, rowParamList: [{ fieldId: ids['渠道'] }] },
    }));
    const saved = await call(w.server, 'POST', '/api/board/boards', { headers: w.admin, payload: { ...board, charts } });
    expect(saved.status, saved.raw.body).toBe(200);
    const channels = await w.direct('SELECT DISTINCT channel_name AS c FROM orders');
    expect(provinces((await chartData(w.admin)).body.data.dataList)).toEqual(channels.map((r) => String(r.c)).sort());
  });
});
