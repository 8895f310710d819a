/**
 * Many viewers (issue 26): one cached chart-data answer served to many connections. A member
 * (not an administrator: group, dataset and board grants, a permission filter of their group)
 * reads one saved bar chart of a board; autocannon (in a worker thread) sends the same
 * POST /api/board/chart-data on `--connections` connections for `--seconds`, beside the bare
 * `/api/health` route in the same run.
 *
 *   npx tsx bench/viewers/run.ts [--orders 200000] [--seconds 20] [--connections 200] [--dir d] [--database-url postgres://…] [--cpu-prof]
 *
 * The server is assembled in this process as `startServer` does (embedded PGlite unless
 * --database-url); the load generator runs in a worker thread so that it takes the other core.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pino from 'pino';
import { ensureDemoWarehouse } from '@shutu/connectors';
import { loadConfig } from '../../apps/server/src/platform/config.ts';
import { md5Hex } from '../../apps/server/src/platform/auth/password.ts';
import { startServer, type RunningServer } from '../../apps/server/src/server.ts';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '200000' },
    seconds: { type: 'string', default: '20' },
    connections: { type: 'string', default: '200' },
    dir: { type: 'string' },
    'database-url': { type: 'string' },
    /** Writes a V8 CPU profile of the server thread during the chart-data load (in the temp directory). */
    'cpu-prof': { type: 'boolean', default: false },
  },
});
const orders = Number(values.orders);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const runId = Date.now().toString(36);

interface Load {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
}

async function load(url: string, options: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string }): Promise<Load> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    method: options.method,
    headers: options.headers,
    body: options.body,
    workers: 1,
  });
  return {
    rps: result['2xx'] / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.non2xx + result.errors,
    timeouts: result.timeouts,
  };
}

const line = (label: string, r: Load) =>
  `${label.padEnd(28)} ${Math.round(r.rps).toLocaleString('en').padStart(7)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   max ${String(r.max).padStart(5)} ms   (${r.errors} errors, ${r.timeouts} timeouts)`;

const dataDir = values.dir ? path.resolve(values.dir) : fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-bench-viewers-'));
fs.mkdirSync(dataDir, { recursive: true });
const file = path.join(dataDir, 'warehouse.duckdb');
let server: RunningServer | undefined;
try {
  console.log(
    `viewers bench: ${orders.toLocaleString('en')} orders, ${connections} connections, ${seconds} s per run, ${os.cpus().length} CPUs, load ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}, store ${values['database-url'] ? 'PostgreSQL' : 'PGlite'}`,
  );
  await ensureDemoWarehouse(file, { scale: orders });
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    SHUTU_DEMO_SCALE: String(orders),
    LOG_LEVEL: 'warn',
    SHUTU_ADMIN_PASSWORD: 'admin123',
  };
  server = await startServer({ ...loadConfig(env), databaseUrl: values['database-url'], webDist: undefined }, pino({ level: 'warn' }), { jobs: false });
  const base = server.url.replace('localhost', '127.0.0.1');
  const api = async <T>(method: string, url: string, token: string | null, body?: unknown): Promise<T> => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const parsed = (await res.json()) as { msg: string; data: T };
    if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${parsed.msg}`);
    return parsed.data;
  };
  const login = async (account: string, password: string) =>
    (await api<{ token: string }>('POST', '/api/auth/login', null, { account, password: md5Hex(password) })).token;
  const admin = await login('admin', 'admin123');

  // The world: a member in a group that may see the dataset and the board, with a filter of its rows.
  const sources = await api<{ records: { id: number; isBuiltin: boolean; path: string | null }[] }>('GET', '/api/datasource?size=100', admin);
  const datasourceId = sources.records.find((s) => s.path === file)!.id;
  const ws = (await api<{ id: number }>('POST', '/api/dataset/categories', admin, { wsName: `压测 ${runId}`, parentId: 0 })).id;
  const field = (id: string, columnName: string, columnTitle: string, extra: object = {}) => ({
    id,
    columnName,
    columnTitle,
    tableAliasName: 'o',
    columnAttr: 'NORMAL',
    ...extra,
  });
  const cubeId = await api<number>('POST', '/api/dataset/cubes', admin, {
    cubeData: { cubeName: `订单 ${runId}`, workspaceId: ws, cubeTableNames: [{ tableName: 'orders', tableAliasName: 'o' }], publicStatus: 0 },
    datasourceId,
    columnList: [
      field('province', 'province', '省份'),
      field('channel', 'channel_name', '渠道'),
      field('amount', 'amount', '金额', { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' }),
    ],
  });
  const fields = Object.fromEntries(
    (await api<{ columnTitle: string; id: number }[]>('GET', `/api/dataset/cubes/${cubeId}/fields`, admin)).map((f) => [f.columnTitle, f.id]),
  );
  const account = `viewer_${runId}`;
  const user = await api<{ id: number }>('POST', '/api/org/users', admin, { name: '看板观众', account, password: md5Hex('secret123'), roleIds: [] });
  const typeId = (await api<{ id: number }>('POST', '/api/perm/types', admin, { typeName: `压测 ${runId}` })).id;
  const group = (
    await api<{ id: number }>('POST', '/api/perm/groups', admin, { permName: `观众 ${runId}`, typeId, permJson: { userList: [{ id: user.id, name: '' }] } })
  ).id;
  await api('PUT', `/api/dataset/auth/${group}/cubes`, admin, { cubeWorkspaceId: ws, dataIdList: [cubeId] });
  await api('POST', '/api/dataset/perm-filters', admin, {
    cubeDataId: cubeId,
    dataPermId: group,
    cubePermName: '华南',
    filterJson: {
      relation: 'AND',
      conditions: [{ cubeColumnId: fields['省份'], connectType: 'and', conditions: [{ function: 'in', values: ['广东', '广西', '海南'] }] }],
      filters: [],
    },
  });
  const categoryId = (await api<{ id: number }>('POST', '/api/board/categories', admin, { kind: 'visual', categoryValue: `压测 ${runId}` })).id;
  const chart = {
    key: 'c1',
    name: 'bar',
    title: '各省各渠道金额',
    dataconfig: {
      cubeId,
      rowParamList: [{ fieldId: fields['省份'] }, { fieldId: fields['渠道'] }],
      indexParamList: [{ fieldId: fields['金额'], aggregation: 'SUM' }],
    },
  };
  const boardId = await api<number>('POST', '/api/board/boards', admin, {
    title: `观众压测 ${runId}`,
    categoryId,
    content: { type: 'quick', layout: [{ i: 'c1', x: 0, y: 0, w: 12, h: 6 }] },
    charts: [chart],
    publicStatus: 0,
    dataPermIdList: [group],
  });
  const viewer = await login(account, 'secret123');
  const body = JSON.stringify({ boardId, chartKey: 'c1' });
  const headers = { authorization: `Bearer ${viewer}`, 'content-type': 'application/json' };
  const first = await fetch(`${base}/api/board/chart-data`, { method: 'POST', headers, body });
  const answer = (await first.json()) as { data: { dataList: unknown[]; elapsedMs: number } };
  if (first.status !== 200) throw new Error(`chart-data: ${first.status} ${JSON.stringify(answer)}`);
  const t0 = performance.now();
  await fetch(`${base}/api/board/chart-data`, { method: 'POST', headers, body }).then((r) => r.text());
  console.log(
    `answer: ${answer.data.dataList.length} rows (engine ${answer.data.elapsedMs} ms cold); one cached answer alone ${(performance.now() - t0).toFixed(1)} ms`,
  );

  const health = await load(`${base}/api/health`, { method: 'GET' });
  let profile: Session | undefined;
  if (values['cpu-prof']) {
    profile = new Session();
    profile.connect();
    await profile.post('Profiler.enable');
    await profile.post('Profiler.start');
  }
  const cached = await load(`${base}/api/board/chart-data`, { method: 'POST', headers, body });
  if (profile) {
    const { profile: taken } = await profile.post('Profiler.stop');
    const out = path.join(os.tmpdir(), `shutu-viewers-${runId}.cpuprofile`);
    fs.writeFileSync(out, JSON.stringify(taken));
    console.log(`cpu profile: ${out}`);
  }
  console.log(line('GET /api/health', health));
  console.log(line('cached chart-data (member)', cached));
  console.log(`ratio ${(cached.rps / health.rps).toFixed(2)} of the bare health route`);
} finally {
  await server?.close();
  if (!values.dir) fs.rmSync(dataDir, { recursive: true, force: true });
}
