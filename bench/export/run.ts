/**
 * bench/export (issue 20): demo orders → CSV through the order-data export task (add → job →
 * statuses 0…9 → the file) vs. DuckDB's own `COPY (same statement) TO csv` on the same file in
 * the same run; the server's peak RSS (its own process) while the task runs; optionally a batch of phones.
 *
 *   npx tsx bench/export/run.ts [--orders 1000000] [--phones 0] [--dir d] [--database-url postgres://…]
 *
 * --excel: also the existing chart export (modules/export) of a detail table of every order
 * through HTTP (POST /api/export/tasks → done), capped at EXPORT_MAX_ROWS = 1M rows: as CSV (the
 * same read with the cheapest sink), then as Excel (export/xlsx-writer.ts; goal ≤ 30 s).
 *
 * --database-url: the server's store on PostgreSQL instead of the embedded PGlite (≈ 210 MiB of
 * the server's resident memory). SHUTU_DUCKDB_MEMORY_LIMIT / SHUTU_DUCKDB_THREADS pass through.
 * The raw COPY runs first on its own DuckDB instance (the server's instance is sealed: no COPY),
 * which is closed before the server starts on the same file.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { orderQuerySchema } from '@shutu/contracts';
import { ensureDemoWarehouse } from '@shutu/connectors';
import { getDialect } from '@shutu/query';
import { md5Hex } from '../../apps/server/src/platform/auth/password.ts';
import { copyStatement } from '../../apps/server/src/modules/orderexport/query.ts';
import { ordersDataset } from '../board/builder.ts';
import { ratio, type Timing } from '../src/index.ts';
import { buildServer } from '../../scripts/build-server.mjs';
import { freePort } from '../src/server-bundle.ts';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '1000000' },
    phones: { type: 'string', default: '0' },
    dir: { type: 'string' },
    'database-url': { type: 'string', default: '' },
    excel: { type: 'boolean', default: false },
  },
});
const orders = Number(values.orders);
const phoneCount = Number(values.phones);
const dataDir = values.dir ? path.resolve(values.dir) : fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-bench-export-'));
fs.mkdirSync(dataDir, { recursive: true });
const file = path.join(dataDir, 'warehouse.duckdb');
const FORM = { utype: 3, CUsertype: 1, outputProvince: 1, outputSpid: 1, outputSpname: 1, outputOrdertime: 1, outputOrderchannelname: 1 };
const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
let server: ChildProcess | undefined;
const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** The resident memory of a process (VmRSS of /proc/<pid>/status), bytes. */
function rssOf(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb ?? 0) * 1024;
}

try {
  console.log(
    `export bench: ${orders.toLocaleString('en')} orders, ${os.cpus().length} CPUs, load ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}; store ${values['database-url'] ? 'PostgreSQL' : 'PGlite'}; DuckDB memory_limit ${process.env.SHUTU_DUCKDB_MEMORY_LIMIT || '1GB (default)'}`,
  );
  const ensured = await ensureDemoWarehouse(file, { scale: orders });
  console.log(`warehouse ${ensured.action} in ${(ensured.millis / 1000).toFixed(1)} s`);

  // The same statement the task runs, for DuckDB, with its values inlined as literals for COPY.
  // (No driver here: this process must not hold the file the server opens.)
  const dialect = getDialect('duckdb');
  // The task's file is in no particular order (slices of order ids, each as the engine gives it):
  // COPY runs the same unordered statement.
  const form = orderQuerySchema.parse(FORM);
  const statement = copyStatement(dialect, form, { kind: 'all' });
  const rawCsv = path.join(dataDir, 'raw.csv');
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  const rawStarted = performance.now();
  await connection.run(`COPY (${statement.sql}) TO '${rawCsv}' (HEADER, DELIMITER ',')`);
  const raw: Timing = { label: 'DuckDB COPY', millis: performance.now() - rawStarted };
  const rawRows = Number((await connection.runAndReadAll(`SELECT count(*) FROM (${statement.sql})`)).getRows()[0]![0]);
  let phonesFile: string | null = null;
  if (phoneCount > 0) {
    phonesFile = path.join(dataDir, 'phones.txt');
    await connection.run(`COPY (SELECT phone FROM users ORDER BY phone LIMIT ${phoneCount}) TO '${phonesFile}' (HEADER false)`);
  }
  connection.closeSync();
  instance.closeSync();
  console.log(`${raw.label}: ${fmt(raw.millis)}, ${rawRows.toLocaleString('en')} rows, ${(fs.statSync(rawCsv).size / 2 ** 20).toFixed(0)} MiB`);

  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    SHUTU_DEMO_SCALE: String(orders),
    LOG_LEVEL: 'warn',
    SHUTU_ADMIN_PASSWORD: 'admin123',
    SHUTU_THUMBNAILS: '0',
  };
  // The server as its own process (`main.ts serve`), so that its RSS is the server's alone.
  const port = await freePort();
  server = spawn(process.execPath, [await buildServer(), 'serve'], {
    cwd: REPO_ROOT,
    env: { ...env, PORT: String(port), DATABASE_URL: values['database-url'], WEB_DIST: path.join(dataDir, 'no-web') },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (server.exitCode !== null) throw new Error('the server exited early');
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 600) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  const serverRss = () => rssOf(server!.pid!);
  // The server's DuckDB engine process (SHUTU_DUCKDB_PROCESS, default on): its buffer pool is
  // measured beside the server's own memory, never hidden.
  let enginePid: number | null = null;
  const engineRss = (): number => {
    try {
      if (enginePid !== null) return rssOf(enginePid);
    } catch {
      enginePid = null; // exited: look again
    }
    const line = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(server!.pid)], { encoding: 'utf8' })
      .stdout.split('\n')
      .find((l) => l.includes('duckdb-host'));
    enginePid = line ? Number(line.trim().split(/\s+/)[0]) : null;
    return enginePid === null ? 0 : rssOf(enginePid);
  };
  const call = async <T>(method: string, url: string, token: string | null, body?: unknown | FormData): Promise<T> => {
    const json = body !== undefined && !(body instanceof FormData);
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(json ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : json ? JSON.stringify(body) : (body as FormData),
    });
    const parsed = (await res.json()) as { msg: string; data: T };
    if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${parsed.msg}`);
    return parsed.data;
  };
  const token = (await call<{ token: string }>('POST', '/api/auth/login', null, { account: 'admin', password: md5Hex('admin123') })).token;

  /** Runs one task to 9: its time, rows and the process's peak RSS meanwhile. */
  const runTask = async (submit: () => Promise<number>) => {
    let peak = serverRss();
    let enginePeak = engineRss();
    const sampler = setInterval(() => {
      peak = Math.max(peak, serverRss());
      enginePeak = Math.max(enginePeak, engineRss());
    }, 100);
    const started = performance.now();
    const taskId = await submit();
    for (;;) {
      const task = await call<{ taskStatus1: number; fetchedNums: number | null; errorMsg: string | null; history: { status: number; time: string }[] }>(
        'GET',
        `/api/orderexport/details?taskId=${taskId}`,
        token,
      );
      if (task.taskStatus1 === 9) {
        clearInterval(sampler);
        // Where the time went: each status until the next (0 is the wait for the job to be picked up).
        const steps = task.history.slice(0, -1).map((h, i) => `${h.status}: ${fmt(Date.parse(task.history[i + 1]!.time) - Date.parse(h.time))}`);
        console.log(`  statuses ${steps.join(', ')}`);
        return { millis: performance.now() - started, rows: task.fetchedNums ?? 0, peak, enginePeak };
      }
      if ([3, 6, 8].includes(task.taskStatus1)) throw new Error(`task ${taskId} failed: ${task.errorMsg}`);
      // Polled twice a second, as lightly as the page (once a second) would.
      await new Promise((r) => setTimeout(r, 500));
    }
  };
  const before = serverRss();
  const engineBefore = engineRss();
  const all = await runTask(() => call<number>('POST', '/api/orderexport/add', token, FORM));
  if (all.rows !== rawRows) throw new Error(`row counts differ: task ${all.rows}, raw ${rawRows}`);
  const task: Timing = { label: 'export task', millis: all.millis };
  console.log(
    `${task.label}: ${fmt(task.millis)}, ${all.rows.toLocaleString('en')} rows; RSS ${(before / 2 ** 20).toFixed(0)} → peak ${(all.peak / 2 ** 20).toFixed(0)} MiB`,
  );
  if (all.enginePeak > 0)
    console.log(`  DuckDB engine process (its buffer pool): RSS ${(engineBefore / 2 ** 20).toFixed(0)} → peak ${(all.enginePeak / 2 ** 20).toFixed(0)} MiB`);
  const r = ratio(task, raw);
  console.log(`ratio task / COPY: ${r.toFixed(2)} (goal ≤ 1.5) ${r <= 1.5 ? 'OK' : 'ABOVE GOAL'}`);

  if (phonesFile) {
    const form = new FormData();
    form.append('form', JSON.stringify({ ...FORM, utype: 2 }));
    form.append('file', new Blob([fs.readFileSync(phonesFile)]), 'phones.txt');
    const batch = await runTask(() => call<number>('POST', '/api/orderexport/addtxt', token, form));
    console.log(
      `${phoneCount.toLocaleString('en')} phones → ${batch.rows.toLocaleString('en')} orders: ${fmt(batch.millis)}; peak RSS ${(batch.peak / 2 ** 20).toFixed(0)} MiB`,
    );
  }

  if (values.excel) {
    // The chart export's Excel (docs/exports.md): a detail table of every order, streamed (export/xlsx-writer.ts).
    // Names carry the run's time: a kept --dir keeps the metadata of earlier runs.
    const run = new Date().toISOString().slice(11, 19);
    const sources = await call<{ records: { id: number; isBuiltin: boolean }[] }>('GET', '/api/datasource?size=100', token);
    const warehouseId = sources.records.find((s) => s.isBuiltin)!.id;
    const workspaceId = (await call<{ id: number }>('POST', '/api/dataset/categories', token, { wsName: `导出基准 ${run}` })).id;
    const cubeId = await call<number>('POST', '/api/dataset/cubes', token, ordersDataset(workspaceId, warehouseId, `导出基准订单 ${run}`));
    const fields = await call<{ id: number; columnTitle: string }[]>('GET', `/api/dataset/cubes/${cubeId}/fields`, token);
    const ids = Object.fromEntries(fields.map((f) => [f.columnTitle, f.id]));
    const categoryId = (await call<{ id: number }>('POST', '/api/board/categories', token, { kind: 'visual', categoryValue: `导出基准 ${run}` })).id;
    const boardId = await call<number>('POST', '/api/board/boards', token, {
      title: '导出基准',
      categoryId,
      content: { type: 'quick', layout: [{ i: 'd1', x: 0, y: 0, w: 24, h: 10 }] },
      charts: [
        {
          key: 'd1',
          name: 'detail',
          title: '订单明细',
          dataconfig: {
            cubeId,
            rowParamList: [{ fieldId: ids['省份'] }, { fieldId: ids['订单编号'] }, { fieldId: ids['订购时间'] }, { fieldId: ids['渠道'] }],
            indexParamList: [{ fieldId: ids['金额'] }],
            pageSize: 20,
          },
        },
      ],
    });
    /** One chart export of the detail table to the end: its time, stages as polled, the server's peak RSS. */
    const chartExport = async (format: 'xlsx' | 'csv') => {
      let peak = serverRss();
      const sampler = setInterval(() => (peak = Math.max(peak, serverRss())), 100);
      const started = performance.now();
      const task = await call<{ id: number }>('POST', '/api/export/tasks', token, { boardId, chartKey: 'd1', fileName: '导出基准', format });
      let done: { id: number; status: string; rowCount: number | null; fileSize: number; errMsg: string | null } | undefined;
      // Where the time goes, as polled: picked up (running), first rows written, last progress seen.
      const seen: { running?: number; firstRows?: number; lastProgress?: number } = {};
      for (;;) {
        const list = await call<{ records: NonNullable<typeof done>[] }>('GET', '/api/export/tasks?size=100', token);
        done = list.records.find((t) => t.id === task.id);
        const at = performance.now() - started;
        if (done?.status === 'running') seen.running ??= at;
        if (done?.status === 'running' && (done.rowCount ?? 0) > 0) {
          seen.firstRows ??= at;
          seen.lastProgress = at;
        }
        if (done?.status === 'done' || done?.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 500));
      }
      clearInterval(sampler);
      if (done.status !== 'done') throw new Error(`${format} export failed: ${done.errMsg}`);
      const millis = performance.now() - started;
      const stage = (ms: number | undefined) => (ms === undefined ? '—' : fmt(ms));
      console.log(
        `${format === 'xlsx' ? 'Excel' : 'CSV'} export (chart export, detail table): ${(done.rowCount ?? 0).toLocaleString('en')} rows, ${(done.fileSize / 2 ** 20).toFixed(0)} MiB in ${fmt(millis)}; peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB; load ${os
          .loadavg()
          .map((x) => x.toFixed(2))
          .join(' ')}`,
      );
      console.log(`  running at ${stage(seen.running)}, first rows written at ${stage(seen.firstRows)}, last progress at ${stage(seen.lastProgress)}`);
      return { label: `${format} export`, millis } satisfies Timing;
    };
    // The same chart's CSV first: the same read (driver → rows → sink) with the cheapest sink, so
    // the Excel writer's own share is the difference of the two in this run.
    const csv = await chartExport('csv');
    const excel = await chartExport('xlsx');
    console.log(
      `Excel export ${fmt(excel.millis)} (goal ≤ 30 s) ${excel.millis <= 30_000 ? 'OK' : 'ABOVE GOAL'}; ratio Excel / CSV of the same chart export: ${ratio(excel, csv).toFixed(2)}; Excel / DuckDB COPY of this run (the order-data statement, for scale): ${ratio(excel, raw).toFixed(1)}`,
    );
  }
} finally {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once('exit', r));
    server.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  }
  if (!values.dir) fs.rmSync(dataDir, { recursive: true, force: true });
}
