// Smoke test of the cluster launcher (issue 27): PostgreSQL + two ShuTu processes (files in a
// local S3 server) + the round-robin proxy. Logs in through the proxy, builds a chart on a warehouse every process can
// open (a PostgreSQL database of its own), and opens it through each process and through the
// proxy (which hands requests to both in turn). Runs whenever the machine's PostgreSQL answers;
// under CI=true it must.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster } from './launch.mjs';
import { ensureDatabase, LOCAL_PG, postgresReachable } from './nodes.mjs';

const reachable = await postgresReachable();
if (!reachable && process.env.CI === 'true') throw new Error(`CI=true: the cluster smoke test needs PostgreSQL at ${LOCAL_PG}`);

/** @param {string} base @param {string} token @param {string} method @param {string} urlPath @param {unknown} [body] */
async function call(base, token, method, urlPath, body) {
  const res = await fetch(`${base}${urlPath}`, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = await res.json();
  return { status: res.status, ...envelope };
}
/** @param {string} base @param {string} token @param {string} method @param {string} urlPath @param {unknown} [body] */
async function ok(base, token, method, urlPath, body) {
  const res = await call(base, token, method, urlPath, body);
  if (res.status !== 200 || !res.success) throw new Error(`${method} ${urlPath}: ${res.status} ${res.msg}`);
  return res.data;
}

describe.skipIf(!reachable)('npm run cluster: PostgreSQL, two processes, a round-robin proxy', () => {
  const suffix = Date.now().toString(36);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-cluster-'));
  /** @type {Awaited<ReturnType<typeof startCluster>>} */
  let cluster;
  /** @type {Awaited<ReturnType<typeof ensureDatabase>>} */
  let warehouse;

  beforeAll(async () => {
    warehouse = await ensureDatabase(`shutu_cluster_wh_${suffix}`, { fresh: true });
    const client = new pg.Client({ connectionString: warehouse.url });
    await client.connect();
    await client.query(`create table sales (id integer, province varchar(20), amount numeric(12, 2))`);
    await client.query(`insert into sales select g, (array['广东', '浙江', '江苏'])[g % 3 + 1], g from generate_series(1, 30) g`);
    await client.end();
    cluster = await startCluster({
      dir,
      database: `shutu_cluster_smoke_${suffix}`,
      fresh: true,
      s3: true,
      env: { SHUTU_THUMBNAILS: '0', SHUTU_DEMO_SCALE: '1000' },
    });
  }, 300_000);
  afterAll(async () => {
    await cluster?.stop({ drop: true });
    await warehouse?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('logs in through the proxy and opens one chart through each process and through the proxy', async () => {
    expect(cluster.nodes).toHaveLength(2);
    const password = createHash('md5').update('admin123').digest('hex');
    const { token } = await ok(cluster.url, '', 'POST', '/api/auth/login', { account: 'admin', password });
    // The session is in the shared store: both processes know it.
    for (const node of cluster.nodes) expect((await ok(node.url, token, 'GET', '/api/profile')).account).toBe('admin');

    const source = await ok(cluster.url, token, 'POST', '/api/datasource', {
      dsDb: `集群仓库${suffix}`,
      type: 'postgres',
      host: '127.0.0.1',
      port: 5432,
      database: warehouse.name,
      username: 'postgres',
      password: 'not-needed-trust',
    });
    const workspaceId = (await ok(cluster.url, token, 'POST', '/api/dataset/categories', { wsName: `集群${suffix}`, parentId: 0 })).id;
    const cubeId = await ok(cluster.url, token, 'POST', '/api/dataset/cubes', {
      cubeData: {
        cubeName: '集群销售',
        workspaceId,
        cubeTableNames: [{ schema: 'public', tableName: 'sales', tableAliasName: 's', type: 'TABLE' }],
        publicStatus: 0,
      },
      datasourceId: source.id,
      columnList: [
        { id: 'province', columnName: 'province', columnTitle: '省份', tableAliasName: 's', columnAttr: 'NORMAL' },
        {
          id: 'amount',
          columnName: 'amount',
          columnTitle: '金额',
          tableAliasName: 's',
          columnAttr: 'NORMAL',
          viewDataType: 'NUMBER',
          dimensionType: 'ZHIBIAO',
        },
      ],
    });
    const fields = Object.fromEntries((await ok(cluster.url, token, 'GET', `/api/dataset/cubes/${cubeId}/fields`)).map((f) => [f.columnTitle, f.id]));
    const chart = {
      chartType: 'bar',
      dataconfig: { cubeId, rowParamList: [{ fieldId: fields['省份'] }], indexParamList: [{ fieldId: fields['金额'], aggregation: 'SUM' }] },
    };
    const totals = (data) => Object.fromEntries(data.dataList.map((row) => Object.values(row)).map(([province, sum]) => [province, Number(sum)]));
    const expected = { 广东: 165, 浙江: 145, 江苏: 155 };
    for (const node of cluster.nodes) expect(totals(await ok(node.url, token, 'POST', '/api/board/chart-data', chart))).toEqual(expected);
    const before = [...cluster.proxy.served];
    for (let i = 0; i < 4; i++) expect(totals(await ok(cluster.url, token, 'POST', '/api/board/chart-data', chart))).toEqual(expected);
    // The proxy handed the four requests to both processes, two each.
    expect(cluster.proxy.served.map((n, i) => n - before[i])).toEqual([2, 2]);
  });
});
