/**
 * Many viewers (issue 26): one cached chart-data answer served to many connections. A member
 * (not an administrator: group, dataset and board grants, a permission filter of their group)
 * reads one saved bar chart of a board; autocannon sends the same POST /api/board/chart-data
 * on `--connections` connections for `--seconds`, beside the bare `/api/health` route in the
 * same run. With `--mixed`, a third run: the same number of clients over the board's four
 * charts, `--cold-share` of the requests with a link filter no cache holds (see load.ts).
 *
 *   npx tsx bench/viewers/run.ts [--orders 200000] [--seconds 20] [--connections 200] [--dir d] [--database-url postgres://…] [--cpu-prof] [--mixed] [--cold-share 0.05]
 *
 * The server is assembled in this process as `startServer` does (embedded PGlite unless
 * --database-url); the load generator is a child process (load.ts), so that this process's
 * CPU time is the server's: printed per answer, the figure least moved by other load.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fork } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { ensureDemoWarehouse } from '@shutu/connectors';
import { loadConfig } from '../../apps/server/src/platform/config.ts';
import { md5Hex } from '../../apps/server/src/platform/auth/password.ts';
import { startServer, type RunningServer } from '../../apps/server/src/server.ts';
import type { FixedLoad, LoadFigures, LoadRequest, LoadResult, MixedLoad } from './load.ts';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '200000' },
    seconds: { type: 'string', default: '20' },
    connections: { type: 'string', default: '200' },
    dir: { type: 'string' },
    'database-url': { type: 'string' },
    /** Writes a V8 CPU profile of the server thread during the chart-data and the mixed loads (in the temp directory). */
    'cpu-prof': { type: 'boolean', default: false },
    mixed: { type: 'boolean', default: false },
    'cold-share': { type: 'string', default: '0.05' },
  },
});
const orders = Number(values.orders);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const runId = Date.now().toString(36);

/** The figures of one load and the server's CPU time per answer (this process: user + system). */
type Load = LoadFigures & { cpuPerAnswerUs: number };

/** Runs a load in the child process (load.ts) and measures this process's CPU time meanwhile. */
function runLoad(request: LoadRequest): Promise<{ result: LoadResult; cpuUs: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./load.ts', import.meta.url));
    let cpu: NodeJS.CpuUsage | undefined;
    child.once('spawn', () => {
      cpu = process.cpuUsage();
      child.send(request);
    });
    child.once('message', (result: LoadResult) => {
      const used = process.cpuUsage(cpu);
      resolve({ result, cpuUs: used.user + used.system });
    });
    child.once('exit', (code) => code !== 0 && reject(new Error(`load generator exited with ${code}`)));
  });
}

async function load(url: string, options: Omit<FixedLoad, 'kind' | 'url' | 'connections' | 'seconds'>): Promise<Load> {
  const { result, cpuUs } = await runLoad({ kind: 'fixed', url, connections, seconds, ...options });
  if (result.kind !== 'fixed') throw new Error('expected a fixed load');
  return { ...result.figures, cpuPerAnswerUs: cpuUs / Math.max(1, result.figures.answered + result.figures.errors) };
}

const line = (label: string, r: LoadFigures & { cpuPerAnswerUs?: number }) =>
  `${label.padEnd(28)} ${Math.round(r.rps).toLocaleString('en').padStart(7)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   max ${String(r.max).padStart(5)} ms   (${r.errors} errors, ${r.timeouts} timeouts)${r.cpuPerAnswerUs === undefined ? '' : `   server CPU ${Math.round(r.cpuPerAnswerUs)} µs/answer`}`;

/** Runs `fn`, with `--cpu-prof` under a V8 CPU profile of this (the server's) thread written to the temp directory. */
async function profiled<T>(name: string, fn: () => Promise<T>): Promise<T> {
  if (!values['cpu-prof']) return fn();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  const result = await fn();
  const { profile } = await session.post('Profiler.stop');
  const out = path.join(os.tmpdir(), `shutu-viewers-${runId}-${name}.cpuprofile`);
  fs.writeFileSync(out, JSON.stringify(profile));
  console.log(`cpu profile: ${out}`);
  session.disconnect();
  return result;
}

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
  const chartOf = (key: string, name: string, title: string, rows: string[], aggregation: 'SUM' | 'COUNT' | 'AVG' | 'MAX') => ({
    key,
    name,
    title,
    dataconfig: { cubeId, rowParamList: rows.map((r) => ({ fieldId: fields[r] })), indexParamList: [{ fieldId: fields['金额'], aggregation }] },
  });
  // c1 is the chart of the fixed load; the mixed load reads all four.
  const charts = [
    chartOf('c1', 'bar', '各省各渠道金额', ['省份', '渠道'], 'SUM'),
    chartOf('c2', 'pie', '各渠道订单数', ['渠道'], 'COUNT'),
    chartOf('c3', 'bar', '各省平均金额', ['省份'], 'AVG'),
    chartOf('c4', 'table', '各渠道最大金额', ['渠道'], 'MAX'),
  ];
  const boardId = await api<number>('POST', '/api/board/boards', admin, {
    title: `观众压测 ${runId}`,
    categoryId,
    content: { type: 'quick', layout: charts.map((c, i) => ({ i: c.key, x: 0, y: i * 6, w: 12, h: 6 })) },
    charts,
    publicStatus: 0,
    dataPermIdList: [group],
  });
  const viewer = await login(account, 'secret123');
  const body = JSON.stringify({ boardId, chartKey: 'c1' });
  const headers = { authorization: `Bearer ${viewer}`, 'content-type': 'application/json' };
  const first = await fetch(`${base}/api/board/chart-data`, { method: 'POST', headers, body });
  const answer = (await first.json()) as { data: { dataList: Record<string, unknown>[]; elapsedMs: number } };
  if (first.status !== 200) throw new Error(`chart-data: ${first.status} ${JSON.stringify(answer)}`);
  const t0 = performance.now();
  await fetch(`${base}/api/board/chart-data`, { method: 'POST', headers, body }).then((r) => r.text());
  console.log(
    `answer: ${answer.data.dataList.length} rows (engine ${answer.data.elapsedMs} ms cold); one cached answer alone ${(performance.now() - t0).toFixed(1)} ms`,
  );

  const health = await load(`${base}/api/health`, { method: 'GET' });
  const cached = await profiled('cached', () => load(`${base}/api/board/chart-data`, { method: 'POST', headers, body }));
  console.log(line('GET /api/health', health));
  console.log(line('cached chart-data (member)', cached));
  console.log(`ratio ${(cached.rps / health.rps).toFixed(2)} of the bare health route`);

  if (values.mixed) {
    // The channels the member sees (the first answer's second column): a cold request's link picks some.
    const channels = [...new Set(answer.data.dataList.map((row) => String(row.d1)))];
    // Every chart answered once first: the board's own first (cold) reads are not what this measures.
    for (const c of charts) {
      const res = await fetch(`${base}/api/board/chart-data`, { method: 'POST', headers, body: JSON.stringify({ boardId, chartKey: c.key }) });
      if (res.status !== 200) throw new Error(`chart-data ${c.key}: ${res.status} ${await res.text()}`);
    }
    const mixedLoad: MixedLoad = {
      kind: 'mixed',
      url: `${base}/api/board/chart-data`,
      headers,
      boardId,
      chartKeys: charts.map((c) => c.key),
      linkFieldId: fields['渠道']!,
      linkValues: channels,
      coldShare: Number(values['cold-share']),
      connections,
      seconds,
    };
    const { result, cpuUs } = await profiled('mixed', () => runLoad(mixedLoad));
    if (result.kind !== 'mixed') throw new Error('expected a mixed load');
    console.log(
      `mixed load: ${connections} clients over ${charts.length} charts, ${(mixedLoad.coldShare * 100).toFixed(0)} % with a link no cache holds (${channels.length} channels), ${seconds} s:`,
    );
    console.log(line('  kept / cached answers', result.cached));
    console.log(line('  cold (engine) answers', result.cold));
    const answered = result.cached.answered + result.cold.answered;
    console.log(`  ${result.overTwoSeconds} of ${answered} requests waited more than 2 s; server CPU ${Math.round(cpuUs / Math.max(1, answered))} µs/answer`);
  }
  console.log(
    `load average after: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await server?.close();
  if (!values.dir) fs.rmSync(dataDir, { recursive: true, force: true });
}
