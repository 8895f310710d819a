/**
 * Query benchmark: the dashboard aggregate (orders, distinct users and amount per province
 * and channel over the last N months of data) through the HTTP preview call, versus the same
 * SQL text — compiled by @shutu/query for the same dialect — run directly on DuckDB through
 * @duckdb/node-api on the same file in the same run, in a process of its own (raw-engine.ts) as the
 * server's DuckDB is in its engine process. Prints both medians and the ratio (goal ≤ 1.05,
 * issue 26), and the minimums' ratio (less sensitive to other load on the machine). The client
 * is node:http on a kept-alive socket asking for gzip as a browser does (until session 23 it was
 * fetch, whose web streams cost this shared thread 1–2 ms a call, and the raw side ran in this
 * process, its row objects collected during the server's turn).
 *
 *   npx tsx bench/query/run.ts                       # 10M orders in a temp data directory
 *   npx tsx bench/query/run.ts --orders 1000000 --runs 9 --months 3
 *   npx tsx bench/query/run.ts --dir /tmp/shutu-q    # keep (and reuse) the generated warehouse
 *   npx tsx bench/query/run.ts --cpu-prof            # and a CPU profile of the timed runs
 *
 * The warehouse is the demo generator's (default seed and anchor date) in DATA_DIR/warehouse.duckdb,
 * written before the server starts; the server (embedded PGlite, real HTTP on 127.0.0.1) then
 * registers it as its built-in source. Runs alternate (raw, HTTP, raw, …) after one warm-up each.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import nodeHttp from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import pino from 'pino';
import type { CubeModelInput, CubeQueryRequest } from '@shutu/contracts';
import { defaultCapabilities, dialectFor, ensureDemoWarehouse, makePlan, openDriver } from '@shutu/connectors';
import { compileCubeQuery, type Dialect } from '@shutu/query';
// The settings the DuckDB driver opens files with: the process-wide cache hands out one instance per file and settings.
import { loadConfig } from '../../apps/server/src/platform/config.ts';
import { md5Hex } from '../../apps/server/src/platform/auth/password.ts';
import { startServer, type RunningServer } from '../../apps/server/src/server.ts';
import { ratio, type Timing } from '../src/index.ts';
import { cpuMillisOf, enginePidOf, startServerBundle, type ServerBundle } from '../src/server-bundle.ts';
import type { RawReply, RawRequest } from './raw-engine.ts';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '10000000' },
    runs: { type: 'string', default: '9' },
    months: { type: 'string', default: '6' },
    dir: { type: 'string' },
    /**
     * Writes V8 CPU profiles to the temp directory: in-process, of the timed runs (server and client
     * share this thread); with the bundle, of the server's whole life (node --cpu-prof).
     */
    'cpu-prof': { type: 'boolean', default: false },
    /**
     * `bundle` (default since session 27): the server as `npm start` runs it, its bundle in a process
     * of its own. `in-process`: startServer in this process under tsx, as until session 26.
     */
    server: { type: 'string', default: 'bundle' },
  },
});
const orders = Number(values.orders);
if (values.server !== 'bundle' && values.server !== 'in-process') throw new Error('--server is bundle or in-process');
const inProcess = values.server === 'in-process';
const runs = Number(values.runs);
const months = Number(values.months);

/** The orders table of the demo warehouse as a dataset. */
const ordersModel: CubeModelInput = {
  tables: [{ tableName: 'orders', tableAliasName: 'o' }],
  fields: [
    { id: 1, columnName: 'province', columnTitle: '省份', tableAliasName: 'o' },
    { id: 2, columnName: 'channel_name', columnTitle: '渠道', tableAliasName: 'o' },
    { id: 3, columnName: 'phone', columnTitle: '手机号', tableAliasName: 'o' },
    { id: 4, columnName: 'amount', columnTitle: '金额', tableAliasName: 'o', viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' },
    { id: 5, columnName: 'order_time', columnTitle: '订购时间', tableAliasName: 'o', viewDataType: 'DATETIME' },
    { id: 6, columnName: 'order_id', columnTitle: '订单编号', tableAliasName: 'o', viewDataType: 'NUMBER' },
  ],
};

/** Per province and channel: orders, distinct users (phone), amount; the last `n` months of the data window. */
function dashboardRequest(window: readonly string[], n: number): CubeQueryRequest {
  return {
    dimensions: [{ fieldId: 1 }, { fieldId: 2 }],
    measures: [
      { fieldId: 6, aggregation: 'COUNT' },
      { fieldId: 3, aggregation: 'COUNT_DISTINCT' },
      { fieldId: 4, aggregation: 'SUM' },
    ],
    where: { conditions: [{ cubeColumnId: 5, conditions: [{ function: 'between', values: [window[window.length - n]!, window[window.length - 1]!] }] }] },
    sort: [{ fieldId: 4, aggregation: 'SUM', direction: 'DESC' }],
    // Every group (31 provinces × 11 channels): the preview's cap is 10 000.
    limit: 10_000,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

const dataDir = values.dir ? path.resolve(values.dir) : fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-bench-query-'));
fs.mkdirSync(dataDir, { recursive: true });
const file = path.join(dataDir, 'warehouse.duckdb');
let server: RunningServer | undefined;
let bundle: ServerBundle | undefined;
const profileDir = values['cpu-prof'] && !inProcess ? fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-query-prof-')) : undefined;
try {
  console.log(
    `query bench: ${orders.toLocaleString('en')} orders, ${runs} runs, server ${values.server}, last ${months} months, ${os.cpus().length} CPUs, load ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  const ensured = await ensureDemoWarehouse(file, { scale: orders });
  console.log(`warehouse ${ensured.action} in ${(ensured.millis / 1000).toFixed(1)} s: ${file}`);

  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    SHUTU_DEMO_SCALE: String(orders),
    LOG_LEVEL: 'warn',
    SHUTU_ADMIN_PASSWORD: 'admin123',
  };
  const config = { ...loadConfig(env), databaseUrl: undefined, webDist: undefined };
  let base: string;
  if (inProcess) {
    server = await startServer(config, pino({ level: 'warn' }), { jobs: false });
    base = server.url.replace('localhost', '127.0.0.1');
  } else {
    bundle = await startServerBundle(
      {
        ...env,
        DATABASE_URL: '',
        SHUTU_THUMBNAILS: '0',
        WEB_DIST: path.join(dataDir, 'no-web'),
      },
      profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    );
    base = bundle.url;
  }

  // node:http on a kept-alive socket, as a load tool's client is: fetch's web streams cost ≈ 1–2 ms
  // a call on this thread (which the server shares), and that is the client's work, not the server's.
  const agent = new nodeHttp.Agent({ keepAlive: true, maxSockets: 1 });
  const api = <T>(method: string, url: string, token: string | null, body?: unknown): Promise<{ data: T; bytes: number }> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      // Compressed as a browser asks for it: the server's gzip of the answer is part of its cost.
      const headers: nodeHttp.OutgoingHttpHeaders = { 'accept-encoding': 'gzip', ...(token ? { authorization: `Bearer ${token}` } : {}) };
      if (payload !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
      const req = nodeHttp.request(`${base}${url}`, { method, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const received = Buffer.concat(chunks);
          const text = (res.headers['content-encoding'] === 'gzip' ? gunzipSync(received) : received).toString('utf8');
          const parsed = JSON.parse(text) as { msg: string; data: T };
          if (res.statusCode !== 200) reject(new Error(`${method} ${url}: ${res.statusCode} ${parsed.msg}`));
          else resolve({ data: parsed.data, bytes: text.length });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  const token = (await api<{ token: string }>('POST', '/api/auth/login', null, { account: 'admin', password: md5Hex('admin123') })).data.token;
  const sources = (await api<{ records: { id: number; isBuiltin: boolean; path: string | null }[] }>('GET', '/api/datasource?size=100', token)).data;
  const datasourceId = sources.records.find((s) => s.isBuiltin && s.path === file)!.id;

  const window = makePlan({ scale: orders }).months;
  const request = dashboardRequest(window, months);
  // The dialect the server's driver compiles for (same file, same process-wide DuckDB instance).
  // Opened as the server's registry opens the source (connectionConfig): one file, one configuration per process.
  // With the bundle the file is its engine's: the dialect is the one a DuckDB file with the
  // registry's csvOutput has (capabilities.ts dialectFor).
  let dialect: Dialect;
  if (inProcess) {
    const probe = openDriver({
      type: 'duckdb',
      path: file,
      memoryLimit: config.duckdbMemoryLimit,
      csvOutput: true,
      engineProcess: config.duckdbEngineProcess,
      ...(config.duckdbThreads ? { threads: config.duckdbThreads } : {}),
    });
    dialect = await probe.dialect();
    await probe.close();
  } else dialect = dialectFor({ dialect: 'duckdb', capabilities: { ...defaultCapabilities('duckdb'), writesCsvFile: true }, serverVersion: '' });
  const { sql, params } = compileCubeQuery(ordersModel, request, { dialect, now: new Date() });
  console.log(`SQL (${params.length} params ${JSON.stringify(params)}):\n  ${sql}`);

  // DuckDB directly, in a process of its own (raw-engine.ts): the same file (or a copy), the server's settings.
  const rawEngine = fork(fileURLToPath(new URL('./raw-engine.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'] });
  const rawReplies: ((reply: RawReply) => void)[] = [];
  rawEngine.on('message', (reply: RawReply) => rawReplies.shift()?.(reply));
  const askRaw = (request: RawRequest) =>
    new Promise<Extract<RawReply, { t: 'ran' }> | undefined>((resolve, reject) => {
      rawReplies.push((reply) => (reply.t === 'failed' ? reject(new Error(reply.message)) : resolve(reply.t === 'ran' ? reply : undefined)));
      rawEngine.send(request);
    });
  await askRaw({ t: 'open', file, config, sql, params: [...params] });
  let rawCpuMillis = 0;
  let rawMillis = 0;
  const raw = async () => {
    const ran = (await askRaw({ t: 'run' }))!;
    rawCpuMillis = ran.cpuMillis;
    rawMillis = ran.millis;
    return ran.rows;
  };
  let serverMillis = 0;
  let responseBytes = 0;
  const http = async () => {
    const { data, bytes } = await api<{ dataList: unknown[]; elapsedMs: number }>('POST', '/api/query/preview', token, {
      datasourceId,
      model: ordersModel,
      request,
    });
    serverMillis = data.elapsedMs;
    responseBytes = bytes;
    return data.dataList.length;
  };

  const [rawRows, httpRows] = [await raw(), await http()]; // warm-up
  if (rawRows !== httpRows) throw new Error(`row counts differ: raw ${rawRows}, HTTP ${httpRows}`);
  const samples = { raw: [] as number[], http: [] as number[], queries: [] as number[] };
  // CPU time per call of this process (the client; in-process, the server too), the server's
  // process and its DuckDB engine (/proc stat, 10 ms ticks): on a shared box it grows less with
  // other load than the wall time does; both sides count the engine's work.
  const cpu = { raw: [] as number[], http: [] as number[] };
  const enginePid = bundle ? bundle.enginePid() : enginePidOf(process.pid);
  const engineCpu = () => cpuMillisOf(enginePid) + (bundle ? cpuMillisOf(bundle.child.pid ?? null) : 0);
  const profiler = values['cpu-prof'] && inProcess ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  for (let i = 0; i < runs; i++) {
    for (const [name, fn] of [
      ['raw', raw],
      ['http', http],
    ] as const) {
      if (name === 'raw') {
        // Timed in its own process: DuckDB's time, no IPC.
        await fn();
        samples.raw.push(rawMillis);
        cpu.raw.push(rawCpuMillis);
        continue;
      }
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const engineBefore = engineCpu();
      await fn();
      samples[name].push(performance.now() - started);
      const used = process.cpuUsage(cpuBefore);
      cpu[name].push((used.user + used.system) / 1000 + engineCpu() - engineBefore);
    }
    samples.queries.push(serverMillis);
  }
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    const out = path.join(os.tmpdir(), `shutu-query-${Date.now().toString(36)}.cpuprofile`);
    fs.writeFileSync(out, JSON.stringify(profile));
    console.log(`cpu profile: ${out}`);
    profiler.disconnect();
  }
  rawEngine.disconnect();

  const rawTiming: Timing = { label: 'DuckDB direct', millis: median(samples.raw) };
  const httpTiming: Timing = { label: 'HTTP preview', millis: median(samples.http) };
  console.log(`${rawRows} rows (groups), response ${(responseBytes / 1024).toFixed(1)} KiB`);
  const line = (t: Timing, xs: number[]) =>
    `${t.label.padEnd(14)} median ${fmt(t.millis)}, min ${fmt(Math.min(...xs))}  (runs: ${xs.map((x) => x.toFixed(0)).join(' ')})`;
  console.log(line(rawTiming, samples.raw));
  console.log(line(httpTiming, samples.http));
  console.log(
    `  of which the queries inside the server: median ${fmt(median(samples.queries))}; the rest (HTTP, auth, compile, JSON) ≈ ${fmt(httpTiming.millis - median(samples.queries))}`,
  );
  // Each HTTP call beside the direct run just before it: the fixed cost of the call, steadier under load than the medians' difference.
  const gaps = samples.http.map((h, i) => h - samples.raw[i]!);
  console.log(`  per-run difference HTTP − direct: median ${fmt(median(gaps))}, min ${fmt(Math.min(...gaps))}`);
  const cpuGaps = cpu.http.map((h, i) => h - cpu.raw[i]!);
  console.log(
    `  CPU per call (all threads): direct median ${fmt(median(cpu.raw))}, HTTP median ${fmt(median(cpu.http))}; per-run difference median ${fmt(median(cpuGaps))}`,
  );
  const r = ratio(httpTiming, rawTiming);
  console.log(
    `ratio HTTP / direct: ${r.toFixed(3)} (goal ≤ 1.05) ${r <= 1.05 ? 'OK' : 'ABOVE GOAL'}; of the minimums ${(Math.min(...samples.http) / Math.min(...samples.raw)).toFixed(3)}`,
  );
  console.log(
    `load average after: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await server?.close();
  await bundle?.stop();
  if (bundle && profileDir) console.log(`cpu profile of the server: ${profileDir}/${fs.readdirSync(profileDir).join(', ')}`);
  if (!values.dir) fs.rmSync(dataDir, { recursive: true, force: true });
}
