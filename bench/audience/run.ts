/**
 * Audience benchmark (issue 18, docs/audiences.md): over the demo warehouse at `--orders` rows,
 * three audiences of the demo dataset 订单分析 and two datasets made here (orders by amount, users)
 * — A ∩ B, A ∪ C, A − C — previewed through `POST /api/audience/preview` (first 100 members and the
 * count), beside the same sets written by hand as one SQL statement each and run directly on the same
 * DuckDB instance; then a `--lines` phone file (with duplicates and bad lines) through
 * `POST /api/audience/import`, with the process's RSS growth.
 *
 *   npx tsx bench/audience/run.ts [--orders 10000000] [--lines 1000000] [--runs 5] [--dir d]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { loadConfig } from '../../apps/server/src/platform/config.ts';
import { md5Hex } from '../../apps/server/src/platform/auth/password.ts';
import { startServer, type RunningServer } from '../../apps/server/src/server.ts';
import { serverWarehouseInstance } from '../src/index.ts';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '10000000' },
    lines: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '5' },
    dir: { type: 'string' },
  },
});
const orders = Number(values.orders);
const lines = Number(values.lines);
const runs = Number(values.runs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rss = () => process.memoryUsage().rss;
const mib = (b: number) => (b / 1024 / 1024).toFixed(0);

const dataDir = values.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-bench-audience-'));
let server: RunningServer | undefined;
try {
  const file = path.join(dataDir, 'warehouse.duckdb');
  const started = performance.now();
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
  server = await startServer(config, pino({ level: 'warn' }), { jobs: false });
  console.log(`server with ${orders.toLocaleString('en')} orders up in ${Math.round(performance.now() - started)} ms`);
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
  const cubes = await api<{ records: { id: number; cubeName: string; workspaceId: number; datasourceId: number }[] }>(
    'GET',
    '/api/dataset/cubes?size=100',
    token,
  );
  const demo = cubes.records.find((c) => c.cubeName === '订单分析')!;
  const make = async (cubeName: string, table: string, columns: [string, string, string?][]) =>
    api<number>('POST', '/api/dataset/cubes', token, {
      cubeData: { cubeName, workspaceId: demo.workspaceId, cubeTableNames: [{ tableName: table, tableAliasName: 't' }], publicStatus: 1 },
      datasourceId: demo.datasourceId,
      columnList: columns.map(([title, name, measure]) => ({
        id: `f_${name}`,
        columnName: name,
        columnTitle: title,
        tableAliasName: 't',
        columnAttr: 'NORMAL',
        ...(measure ? { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' } : {}),
      })),
    });
  const fields = async (id: number) =>
    Object.fromEntries((await api<{ id: number; columnTitle: string }[]>('GET', `/api/dataset/cubes/${id}/fields`, token)).map((f) => [f.columnTitle, f.id]));
  const b = await make('订单金额', 'orders', [
    ['号码', 'phone'],
    ['金额', 'amount', 'm'],
  ]);
  const c = await make('用户网络', 'users', [
    ['号码', 'phone'],
    ['网络', 'net_type'],
  ]);
  const fa = await fields(demo.id);
  const fb = await fields(b);
  const fc = await fields(c);
  const A = {
    cubeId: demo.id,
    phoneField: fa['手机号'],
    filter: { conditions: [{ cubeColumnId: fa['省份'], conditions: [{ function: 'in', values: ['广东', '浙江', '江苏'] }] }] },
  };
  const B = (connectType: string) => ({
    cubeId: b,
    connectType,
    phoneField: fb['号码'],
    having: { conditions: [{ cubeColumnId: fb['金额'], conditions: [{ function: 'gt', values: [300] }] }] },
  });
  const C = (connectType: string) => ({
    cubeId: c,
    connectType,
    phoneField: fc['号码'],
    filter: { conditions: [{ cubeColumnId: fc['网络'], conditions: [{ function: 'eq', values: ['5G'] }] }] },
  });
  const a = `select distinct phone from orders where province in ('广东', '浙江', '江苏')`;
  const cases: [string, unknown[], string][] = [
    ['A ∩ B', [A, B('and')], `${a} intersect select phone from orders group by phone having sum(amount) > 300`],
    ['A ∪ C', [A, C('or')], `${a} union select distinct phone from users where net_type = '5G'`],
    ['A − C', [A, C('del')], `${a} except select distinct phone from users where net_type = '5G'`],
  ];
  // The server's own instance of the file (one process may hold a file once, with one configuration).
  const instance = await serverWarehouseInstance(file, config);
  const connection = await instance.connect();
  for (const [label, defineRule, sql] of cases) {
    const raw = async () => Number((await connection.runAndReadAll(`select count(*) as n from (${sql}) t`)).getRowObjects()[0]!.n);
    const http = async () => (await api<{ total: number }>('POST', '/api/audience/preview', token, { defineRule })).total;
    const rawT: number[] = [];
    const httpT: number[] = [];
    let counts: [number, number] = [0, 0];
    await raw();
    await http();
    for (let i = 0; i < runs; i++) {
      let t = performance.now();
      const r = await raw();
      rawT.push(performance.now() - t);
      t = performance.now();
      const h = await http();
      httpT.push(performance.now() - t);
      counts = [r, h];
    }
    if (counts[0] !== counts[1]) throw new Error(`${label}: ${counts[1]} members through the API, ${counts[0]} directly`);
    console.log(
      `${label}: ${counts[0].toLocaleString('en')} members — preview (100 rows + count) median ${median(httpT).toFixed(0)} ms vs DuckDB direct count ${median(rawT).toFixed(0)} ms, ratio ${(median(httpT) / median(rawT)).toFixed(2)}`,
    );
  }
  connection.closeSync();

  // Phone import: `lines` lines, 1 % duplicates, 0.5 % bad.
  const phoneFile = path.join(dataDir, 'phones.txt');
  const out = fs.createWriteStream(phoneFile);
  for (let i = 0; i < lines; i++) {
    const line = i % 200 === 7 ? 'bad-line' : i % 100 === 3 ? String(13_000_000_000 + i - 1) : String(13_000_000_000 + i);
    if (!out.write(`${line}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
  const size = fs.statSync(phoneFile).size;
  const form = new FormData();
  form.set('name', '百万导入');
  form.set('file', new Blob([fs.readFileSync(phoneFile)]), 'phones.txt');
  const before = rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rss())), 20);
  const t = performance.now();
  const res = await fetch(`${base}/api/audience/import`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const took = performance.now() - t;
  clearInterval(sampler);
  const body = (await res.json()) as { msg: string; data: { valid: number; invalid: number; duplicate: number; durationMs: number } };
  if (res.status !== 200) throw new Error(`import: ${body.msg}`);
  console.log(
    `import of ${lines.toLocaleString('en')} lines (${mib(size)} MiB): ${took.toFixed(0)} ms end to end (server ${body.data.durationMs} ms after the upload) — valid ${body.data.valid}, invalid ${body.data.invalid}, duplicate ${body.data.duplicate}; RSS ${mib(before)} → peak ${mib(peak)} MiB (this process: server + client)`,
  );
} finally {
  await server?.close();
  if (!values.dir) fs.rmSync(dataDir, { recursive: true, force: true });
}
