import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LoadColumn } from '@shutu/connectors';
import { chartDataConfigSchema } from '@shutu/contracts';
import { storeKinds } from '../../../test/harness.ts';
import { call } from '../../../test/fixtures.ts';
import { datasetWorld, fieldIds, type DatasetWorld } from '../../../test/dataset-fixtures.ts';
import { PostgresCacheBus } from '../../platform/cache/bus.ts';
import { publish } from '../../platform/cache/coherent.ts';
import { runChartQuery } from '../board/chart-query.ts';
import { getSourceWriter } from '../datasource/index.ts';
import type { Caller } from '../perm/index.ts';
import { dataVersion, readCacheStats, READ_CACHE_TTL_MS, READ_CACHE_WATCHED_TTL_MS } from './cache.ts';

/**
 * The read cache keyed by the data's version (issue 26): an answer of the built-in warehouse is
 * kept far longer than the old 30 s, and yet a table replaced through ShuTu (a file-table load,
 * a connected-platform pull: load, drop, rename) is read again at once; a change of another
 * source keeps it.
 */
const kinds = await storeKinds();

const COLUMNS: LoadColumn[] = [
  { name: 'city', type: 'STRING' },
  { name: 'n', type: 'INTEGER' },
];

describe.each(kinds)('read cache by data version on %s', (kind) => {
  let w: DatasetWorld;
  let cubeId: number;
  let ids: Record<string, number>;
  let admin: Caller;
  const table = `cache_probe_${kind}`;

  /** A saved bar chart's data (the read-cached path every board chart takes). */
  const cityTotals = async () => {
    const result = await runChartQuery(w.server.ctx, admin, {
      chartType: 'bar',
      title: '城市数量',
      mode: 'aggregate',
      current: 1,
      size: null,
      params: {},
      links: [],
      dataconfig: chartDataConfigSchema.parse({
        cubeId,
        rowParamList: [{ fieldId: ids['城市'] }],
        indexParamList: [{ fieldId: ids['数量'], aggregation: 'SUM' }],
        sortList: [{ fieldId: ids['数量'], aggregation: 'SUM' }],
      }),
    });
    return result.dataList.map((r) => [r.d0, Number(r.m0)]);
  };

  beforeAll(async () => {
    w = await datasetWorld(kind);
    const writer = await getSourceWriter(w.server.ctx, w.warehouseId);
    await writer.bulkLoad(table, COLUMNS, [
      ['北京', 1],
      ['上海', 2],
    ]);
    const workspaceId = await w.category('缓存测试');
    const saved = await w.save(w.admin, {
      cubeData: { cubeName: `缓存探针${kind}`, workspaceId, cubeTableNames: [{ tableName: table, tableAliasName: 't' }], publicStatus: 0 },
      datasourceId: w.warehouseId,
      columnList: [
        { id: 'city', columnName: 'city', columnTitle: '城市', tableAliasName: 't', columnAttr: 'NORMAL' },
        { id: 'n', columnName: 'n', columnTitle: '数量', tableAliasName: 't', columnAttr: 'NORMAL', viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' },
      ],
    });
    expect(saved.status, saved.raw.body).toBe(200);
    cubeId = saved.body.data;
    ids = await fieldIds(w.server, w.admin, cubeId);
    const info = await call(w.server, 'GET', '/api/auth/info', { headers: w.admin });
    admin = { userId: info.body.data.id ?? info.body.data.userId, isAdministrator: true };
  }, 120_000);
  afterAll(() => w?.close());

  it('keeps an embedded warehouse answer longer than a server engine answer', () => {
    expect(READ_CACHE_WATCHED_TTL_MS).toBeGreaterThan(READ_CACHE_TTL_MS);
  });

  it('serves the kept answer until the table is replaced through ShuTu, then the new rows', async () => {
    expect(await cityTotals()).toEqual([
      ['北京', 1],
      ['上海', 2],
    ]);
    const before = readCacheStats(w.server.ctx);
    expect(await cityTotals()).toHaveLength(2);
    const kept = readCacheStats(w.server.ctx);
    expect(kept.executions).toBe(before.executions);
    expect(kept.hits).toBe(before.hits + 1);

    // Another source's change leaves this source's answers alone.
    publish(w.server.ctx, 'read', String(w.warehouseId + 1000));
    expect(await cityTotals()).toHaveLength(2);
    expect(readCacheStats(w.server.ctx).executions).toBe(before.executions);

    // The way file tables and connected-platform pulls publish a table: load a staging table, swap it in.
    const version = dataVersion(w.server.ctx, w.warehouseId);
    const writer = await getSourceWriter(w.server.ctx, w.warehouseId);
    await writer.bulkLoad(`${table}_next`, COLUMNS, [
      ['北京', 10],
      ['上海', 20],
      ['广州', 30],
    ]);
    await writer.dropTable(table);
    await writer.renameTable(`${table}_next`, table);
    expect(dataVersion(w.server.ctx, w.warehouseId)).toBeGreaterThan(version);
    expect(await cityTotals()).toEqual([
      ['北京', 10],
      ['上海', 20],
      ['广州', 30],
    ]);
  });
});

describe.runIf(kinds.includes('postgres'))('keyed read changes across processes (PostgreSQL store)', () => {
  let w: DatasetWorld;
  let a: PostgresCacheBus;
  let b: PostgresCacheBus;

  beforeAll(async () => {
    w = await datasetWorld('postgres');
    const { connectionString, executeSql } = w.server.store;
    a = await PostgresCacheBus.open({ connectionString: connectionString!, executeSql, pollMs: 60_000 });
    b = await PostgresCacheBus.open({ connectionString: connectionString!, executeSql, pollMs: 60_000 });
  }, 120_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await w?.close();
  });

  it("tells the other process which source's data changed", async () => {
    const seen: (string | undefined)[] = [];
    b.subscribe('read', (key) => seen.push(key));
    a.publish('read', '12');
    await vi.waitFor(() => expect(seen).toEqual(['12']), { timeout: 5_000 });
    a.publish('read');
    await vi.waitFor(() => expect(seen).toEqual(['12', undefined]), { timeout: 5_000 });
  });
});
