/**
 * Data-API benchmark (issue 17): a published type-1 API (orders of one province per channel:
 * count and amount, the province a bound parameter) over the demo warehouse, called over HTTP
 * with an access key by autocannon — uncached, then with the module's cache time on — beside a
 * bare Fastify route answering the same JSON, and the raw DuckDB statement timed on the same
 * instance, all in the same run.
 *
 *   npx tsx bench/dataapi/run.ts [--orders 200000] [--seconds 10] [--connections 10] [--dir d] [--database-url postgres://…]
 *
 * The data generator is the demo warehouse's (`ensureDemoWarehouse`, `--orders` rows); `--dir`
 * keeps and reuses the generated file. Server, bare route and client share this process.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pino from 'pino';
import { ensureDemoWarehouse } from '@shutu/connectors';
import { loadConfig } from '../../apps/server/src/platform/config.ts';
import { md5Hex } from '../../apps/server/src/platform/auth/password.ts';
import { startServer, type RunningServer } from '../../apps/server/src/server.ts';
import { medianMillis, serverWarehouseInstance } from '../src/index.ts';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '200000' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    dir: { type: 'string' },
    /** A PostgreSQL database for the metadata store (create it first); without it the embedded PGlite. */
    'database-url': { type: 'string' },
  },
});
const orders = Number(values.orders);
/** Names of this run's records: a kept --dir keeps the metadata store of earlier runs too. */
const runId = Date.now().toString(36);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const PROVINCES = ['广东', '浙江', '江苏', '山东', '河南', '四川', '湖北', '湖南'];
const SQL_TEMPLATE =
  'SELECT channel_name, COUNT(*) AS orders, SUM(amount) AS amount FROM orders WHERE province = ${p} GROUP BY channel_name ORDER BY channel_name';
const RAW_SQL = 'SELECT channel_name, COUNT(*) AS orders, SUM(amount) AS amount FROM orders WHERE province = $1 GROUP BY channel_name ORDER BY channel_name';

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** autocannon against `url`, the province parameter cycling through PROVINCES (8 distinct calls). */
async function load(url: string, headers: Record<string, string>): Promise<Load> {
  let next = 0;
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers,
    requests: [{ setupRequest: (req) => ({ ...req, path: `${new URL(url).pathname}?p=${encodeURIComponent(PROVINCES[next++ % PROVINCES.length]!)}` }) }],
  });
  return { rps: result['2xx'] / seconds, p50: result.latency.p50, p99: result.latency.p99, errors: result.non2xx + result.errors + result.timeouts };
}

const line = (label: string, r: Load) =>
  `${label.padEnd(30)} ${Math.round(r.rps).toLocaleString('en').padStart(7)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   (${r.errors} errors)`;

const dataDir = values.dir ? path.resolve(values.dir) : fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-bench-dataapi-'));
fs.mkdirSync(dataDir, { recursive: true });
const file = path.join(dataDir, 'warehouse.duckdb');
let server: RunningServer | undefined;
try {
  const load1 = os.loadavg().map((x) => x.toFixed(2));
  console.log(
    `data-API bench: ${orders.toLocaleString('en')} orders, ${connections} connections, ${seconds} s per run, ${os.cpus().length} CPUs, load ${load1.join(' ')}`,
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
  const config = { ...loadConfig(env), databaseUrl: values['database-url'], webDist: undefined };
  server = await startServer(config, pino({ level: 'warn' }), { jobs: false });
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
  const token = (await api<{ token: string }>('POST', '/api/auth/login', null, { account: 'admin', password: md5Hex('admin123') })).token;
  const sources = await api<{ records: { id: number; isBuiltin: boolean; path: string | null }[] }>('GET', '/api/datasource?size=100', token);
  const datasourceId = sources.records.find((s) => s.isBuiltin && s.path === file)!.id;
  const category = await api<{ id: number }>('POST', '/api/dataapi/categories', token, { categoryName: `压测 ${runId}` });
  const published = await api<{ id: number; apiKey: string }>('POST', '/api/dataapi/apis', token, {
    categoryId: category.id,
    apiKey: `bench_orders_${runId}`,
    apiName: '各渠道订单（压测）',
    apiType: 1,
    datasourceId,
    querySql: SQL_TEMPLATE,
    note: JSON.stringify({ params: [{ name: '省份', key: 'p', datatype: 'string' }] }),
  });
  const key = await api<{ secret: string }>('POST', '/api/dataapi/keys', token, { keyName: `压测 ${runId}`, apiIds: [published.id], rateLimit: 100_000 });
  const headers = { authorization: `Bearer ${key.secret}` };
  const url = `${base}/open/api/${published.apiKey}`;

  // The bare route answers the envelope the API gives for each province, computed once.
  const answers = new Map<string, string>();
  for (const p of PROVINCES) answers.set(p, await (await fetch(`${url}?p=${encodeURIComponent(p)}`, { headers })).text());
  console.log(`answer: ${answers.get('广东')!.length} bytes, ${(JSON.parse(answers.get('广东')!) as { data: unknown[] }).data.length} rows`);
  const bare = Fastify({ logger: false });
  bare.get('/open/api/:apiKey', async (request, reply) => reply.type('application/json; charset=utf-8').send(answers.get((request.query as { p: string }).p)));
  const bareUrl = `${await bare.listen({ port: 0, host: '127.0.0.1' })}/open/api/${published.apiKey}`;

  // The raw engine: the same statement on the process-wide DuckDB instance the driver uses — opened
  // with the server's own configuration (one process may hold a file once, with one configuration).
  const instance = await serverWarehouseInstance(file, config);
  const connection = await instance.connect();
  let turn = 0;
  const raw = await medianMillis('raw DuckDB', 21, () => connection.runAndReadAll(RAW_SQL, [PROVINCES[turn++ % PROVINCES.length]!]));

  const bareLoad = await load(bareUrl, {});
  await api('PUT', '/api/dataapi/settings', token, { cacheSeconds: 0 });
  const uncached = await load(url, headers);
  await api('PUT', '/api/dataapi/settings', token, { cacheSeconds: 60 });
  const cached = await load(url, headers);
  await bare.close();
  connection.closeSync();

  console.log(`raw DuckDB statement (median of 21): ${raw.millis.toFixed(2)} ms`);
  console.log(line('bare Fastify, same JSON', bareLoad));
  console.log(line('ShuTu /open/api uncached', uncached));
  console.log(line('ShuTu /open/api cached (60 s)', cached));
  console.log(
    `cached / bare: ${(cached.rps / bareLoad.rps).toFixed(2)} of the requests/s; uncached / bare: ${(uncached.rps / bareLoad.rps).toFixed(2)}; ` +
      `uncached p50 / raw statement: ${(uncached.p50 / Math.max(raw.millis, 0.01)).toFixed(1)}`,
  );
  console.log(`goal (cached ≥ 3,000 req/s, p99 < 50 ms): ${cached.rps >= 3000 && cached.p99 < 50 ? 'met' : 'not met'}`);
} finally {
  await server?.close();
  if (!values.dir) fs.rmSync(dataDir, { recursive: true, force: true });
}
