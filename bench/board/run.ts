/**
 * Board benchmark (issue 6): a 20-chart dashboard over N demo orders opened in headless
 * Chromium (/newbi/preview/{id}), time from navigation to `data-board-state="ready"` with the
 * server's chart cache empty (cold) and right after, within its 30 s life (warm), next to the
 * sum of the raw DuckDB times of the same SQL statements run one after another on the same
 * DuckDB instance (and the slowest one of them).
 *
 *   npm run build -w @shutu/web                          # the bench serves the built web app
 *   npx tsx bench/board/run.ts                           # 10M orders in a temp data directory
 *   npx tsx bench/board/run.ts --orders 200000 --runs 3
 *   npx tsx bench/board/run.ts --dir /tmp/shutu-b        # keep (and reuse) the generated warehouse
 *   npx tsx bench/board/run.ts --web /tmp/my-web          # serve a web build of one's own
 *   npx tsx bench/board/run.ts --modes batch              # time only the page as shipped
 *   npx tsx bench/board/run.ts --trace /tmp/board.json    # and trace one more warm load (trace.ts)
 *   npx tsx bench/board/run.ts --statements               # and print each statement's raw time, slowest first
 *   npx tsx bench/board/run.ts --approx                   # the distinct counts as 近似去重计数 (APPROX_COUNT_DISTINCT);
 *                                                         # the exact statements' raw sum is printed beside
 *
 * Issue 26: two pages are timed in turns within each run — `batch` (the page's streamed
 * chart-data/batch call; each chart read alone, but distinct counts of one column and time axes
 * of one column sharing a statement each) and `per-chart` (that call refused by Playwright, so
 * each chart asks by itself as before). The raw baseline stays the charts' own statements (one POST chart-data per chart,
 * captured at the driver before the browser starts); the board's grouped statements get a raw
 * sum of their own.
 *
 * The server is the real one (buildApp, embedded PGlite, HTTP on 127.0.0.1, the built web app),
 * assembled here as startServer does so that the bench holds its AppContext: "cold" clears the
 * read cache and the kept chart answers (clearReadCache, clearAnswerCache), and the statements the charts run are
 * captured at the data-source driver the server uses (exactly what ran, after the chart
 * request builder, the dataset read path and the compiler). See bench/README.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { BOARD_STATE_ATTRIBUTE, CHART_DATA_BATCH_STREAM_TYPE } from '@shutu/contracts';
import { ensureDemoWarehouse, type ParamValue } from '@shutu/connectors';
import { buildApp } from '../../apps/server/src/app.ts';
import type { AppContext } from '../../apps/server/src/context.ts';
import { loadConfig } from '../../apps/server/src/platform/config.ts';
import { md5Hex } from '../../apps/server/src/platform/auth/password.ts';
import { resolveSecretKey } from '../../apps/server/src/platform/crypto.ts';
import { migrateToLatest } from '../../apps/server/src/platform/db/store.ts';
import { seed } from '../../apps/server/src/platform/db/seed.ts';
import { openConfiguredStore } from '../../apps/server/src/server.ts';
import { clearReadCache, readCacheStats } from '../../apps/server/src/modules/read/cache.ts';
import { clearAnswerCache } from '../../apps/server/src/modules/board/answer-cache.ts';
import { getDataSourceDriver } from '../../apps/server/src/modules/datasource/registry.ts';
import { board20, CHARTS, ordersDataset } from './builder.ts';
import { ensureBuiltinWarehouse } from '../../apps/server/src/modules/datasource/warehouse.ts';

/** Names of this run's dataset and categories: a kept --dir holds earlier runs' metadata too. */
const RUN = new Date().toISOString().slice(0, 19).replace('T', ' ');
import { ARTIFACTS, launchBrowser } from '../../e2e/harness.ts';
import { serverWarehouseInstance } from '../src/index.ts';
import { cpuByProcess, cpuSince, cpuTotal, type CpuByProcess } from './cpu.ts';
import { traceLoad } from './trace.ts';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '10000000' },
    runs: { type: 'string', default: '3' },
    dir: { type: 'string' },
    /** The built web app to serve (default apps/web/dist), e.g. a build in a directory of one's own. */
    web: { type: 'string' },
    /** Which page loads to time: `batch` (the page's one chart-data/batch call) and/or `per-chart` (the batch refused, so every chart asks by itself, as before issue 26). */
    modes: { type: 'string', default: 'batch,per-chart' },
    /** Record one more warm load (the first mode) with Chromium's tracing and the CPU profiler into this JSON file and print where the main thread went. */
    trace: { type: 'string' },
    statements: { type: 'boolean', default: false },
    /** The board's three distinct counts of phones as 近似去重计数; the raw sum of the exact statements is measured too. */
    approx: { type: 'boolean', default: false },
  },
});
const modes = values.modes.split(',').map((m) => m.trim()) as ('batch' | 'per-chart')[];
const orders = Number(values.orders);
const runs = Number(values.runs);
const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const WEB_DIST = values.web ? path.resolve(values.web) : path.join(REPO_ROOT, 'apps/web/dist');
/** A cold load of 10M orders on a busy 2-core box takes a while; beyond this the bench gives up. */
const READY_TIMEOUT_MS = 15 * 60_000;

if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) {
  console.error(`${WEB_DIST} is missing: build the web app first with \`npm run build -w @shutu/web\` (or pass --web <dir>).`);
  process.exit(1);
}

// ---------------------------------------------------------------------------------------

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

const dataDir = values.dir ? path.resolve(values.dir) : fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-bench-board-'));
fs.mkdirSync(dataDir, { recursive: true });
const file = path.join(dataDir, 'warehouse.duckdb');
let close: (() => Promise<void>) | undefined;
try {
  console.log(`board bench: ${orders.toLocaleString('en')} orders, ${CHARTS.length} charts, ${runs} runs, ${os.cpus().length} CPUs, load ${load()}`);
  const ensured = await ensureDemoWarehouse(file, { scale: orders });
  console.log(`warehouse ${ensured.action} in ${(ensured.millis / 1000).toFixed(1)} s: ${file}`);

  // startServer's steps, keeping the context (no jobs, no demo content: not needed here).
  const env = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SHUTU_DEMO_SCALE: String(orders), LOG_LEVEL: 'warn' };
  const config = { ...loadConfig(env), databaseUrl: undefined, webDist: WEB_DIST };
  const store = await openConfiguredStore(config);
  await migrateToLatest(store.db);
  // An operator-chosen admin123: no forced first-login change in the way of the API calls below.
  await seed(store.db, { adminPassword: 'admin123' });
  const ctx: AppContext = { config, store, db: store.db };
  resolveSecretKey(config);
  const warehouse = await ensureBuiltinWarehouse(ctx);
  const app = await buildApp(ctx, { logger: pino({ level: 'warn' }) });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  close = async () => {
    await app.close();
    await store.close();
  };
  const base = address.replace('localhost', '127.0.0.1');

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
  const workspaceId = (await api<{ id: number }>('POST', '/api/dataset/categories', token, { wsName: `基准 ${RUN}` })).id;
  const cubeId = await api<number>('POST', '/api/dataset/cubes', token, ordersDataset(workspaceId, warehouse.id, `看板基准订单 ${RUN}`));
  const fields = await api<{ id: number; columnTitle: string }[]>('GET', `/api/dataset/cubes/${cubeId}/fields`, token);
  const ids = Object.fromEntries(fields.map((f) => [f.columnTitle, f.id]));
  const categoryId = (await api<{ id: number }>('POST', '/api/board/categories', token, { kind: 'visual', categoryValue: `基准 ${RUN}` })).id;
  const boardId = await api<number>('POST', '/api/board/boards', token, board20(categoryId, cubeId, ids, { approxDistinct: values.approx }));

  // Every statement the server sends to the warehouse, as sent (deduplicated), per phase.
  let statements = new Map<string, { sql: string; params: readonly ParamValue[] }>();
  const driver = await getDataSourceDriver(ctx, warehouse.id);
  const query = driver.query.bind(driver);
  driver.query = (sql, params = [], options) => {
    statements.set(
      JSON.stringify([sql, params], (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
      { sql, params },
    );
    return query(sql, params, options);
  };

  /** The statements a board's charts run alone (POST chart-data, one call per chart, nothing cached). */
  const statementsOfCharts = async (board: number) => {
    clearReadCache(ctx);
    clearAnswerCache(ctx);
    for (const chart of CHARTS.keys()) await api('POST', '/api/board/chart-data', token, { boardId: board, chartKey: `c${chart + 1}` });
    const captured = statements;
    statements = new Map();
    return captured;
  };
  // What each chart runs alone: the work before issue 26, whose sequential sum is the "raw sum".
  const perChartStatements = await statementsOfCharts(boardId);
  // --approx: what the same board runs with exact distinct counts (the raw sum), from a twin board.
  const exactStatements = values.approx
    ? await statementsOfCharts(
        await api<number>('POST', '/api/board/boards', token, { ...board20(categoryId, cubeId, ids), title: '二十图表基准大屏（精确去重）' }),
      )
    : null;

  const browser = await launchBrowser();
  try {
    // The benchmark polls the page's ready flag with a string expression, which the app's CSP (no eval) would refuse.
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 }, locale: 'zh-CN', bypassCSP: true });
    // Signed in as the web app is: its token in localStorage before the first script runs. (Page code as text: no DOM types here.)
    await context.addInitScript({ content: `localStorage.setItem('shutu.token', ${JSON.stringify(token)})` });
    const stateOfPage = `document.documentElement.getAttribute(${JSON.stringify(BOARD_STATE_ATTRIBUTE)})`;
    const page = await context.newPage();
    let chartRequests = 0;
    let sharedAnswers = 0;
    let lastAnswerAt = 0;
    /** When the page sent its first chart-data request (the app's start before it: issue 26, the page's own time). */
    let firstRequestAt = 0;
    page.on('request', (request) => {
      if (firstRequestAt === 0 && /\/api\/board\/chart-data(\/batch)?$/.test(request.url())) firstRequestAt = performance.now();
    });
    page.on('response', (response) => {
      const batch = response.url().endsWith('/api/board/chart-data/batch');
      if (!batch && !response.url().endsWith('/api/board/chart-data')) return;
      // The body as text: the batch streams NDJSON (one line per chart) until its last chart.
      response
        .text()
        .then((text) => {
          lastAnswerAt = performance.now();
          const answers: ({ shared?: boolean } | null | undefined)[] = batch
            ? text
                .split('\n')
                .filter((line) => line.trim())
                .map((line) => (JSON.parse(line) as { data: { shared?: boolean } | null }).data)
            : [(JSON.parse(text) as { data?: { shared?: boolean } }).data];
          chartRequests += answers.length;
          sharedAnswers += answers.filter((a) => a?.shared).length;
        })
        .catch(() => undefined);
    });
    const url = `${base}/newbi/preview/${boardId}`;
    /** Navigation (goto or reload) to the board's ready flag, in ms; its chart-data requests and shared answers. */
    const open = async (how: 'goto' | 'reload') => {
      chartRequests = 0;
      sharedAnswers = 0;
      firstRequestAt = 0;
      const started = performance.now();
      if (how === 'goto') await page.goto(url, { waitUntil: 'commit' });
      else await page.reload({ waitUntil: 'commit' });
      await page.waitForFunction(`['ready', 'error', 'refused'].includes(${stateOfPage})`, undefined, { timeout: READY_TIMEOUT_MS, polling: 20 });
      const millis = performance.now() - started;
      const state = await page.evaluate<string | null>(stateOfPage);
      if (state !== 'ready') throw new Error(`board state ${state} at ${url}`);
      // Responses are read asynchronously: let the last ones be counted.
      await page.waitForLoadState('networkidle');
      const dataMillis = lastAnswerAt - started;
      return { millis, dataMillis, askedMillis: firstRequestAt - started, requests: chartRequests, shared: sharedAnswers };
    };

    const refuseBatch = (route: { abort: () => Promise<void> }) => route.abort();
    const setMode = async (mode: 'batch' | 'per-chart') => {
      await page.unroute('**/api/board/chart-data/batch');
      if (mode === 'per-chart') await page.route('**/api/board/chart-data/batch', refuseBatch);
    };

    // Warm-up: the browser caches the app's assets, DuckDB reads the columns once, the board's statements are captured.
    await setMode(modes.includes('batch') ? 'batch' : 'per-chart');
    clearReadCache(ctx);
    clearAnswerCache(ctx);
    const first = await open('goto');
    const boardStatements = statements;
    statements = new Map();
    console.log(
      `warm-up load (${modes.includes('batch') ? 'batch' : 'per-chart'}) ${fmt(first.millis)}: ${first.requests} chart answers, ${boardStatements.size} distinct statements (${perChartStatements.size} when each chart runs alone), ${first.shared} shared answers`,
    );
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const shot = path.join(ARTIFACTS, `bench-board-${orders}.png`);
    await page.screenshot({ path: shot });
    console.log(`screenshot: ${path.relative(REPO_ROOT, shot)}`);

    type Timings = {
      cold: number[];
      warm: number[];
      coldData: number[];
      warmData: number[];
      warmAsked: number[];
      warmShared: number;
      answers: number;
      coldCpu: CpuByProcess[];
      warmCpu: CpuByProcess[];
    };
    const timings = new Map<string, Timings>(
      modes.map((m) => [m, { cold: [], warm: [], coldData: [], warmData: [], warmAsked: [], warmShared: 0, answers: 0, coldCpu: [], warmCpu: [] }]),
    );
    // The modes take turns within each run, so that load from elsewhere falls on both alike.
    for (let i = 0; i < runs; i++) {
      for (const mode of modes) {
        const t = timings.get(mode)!;
        await setMode(mode);
        // Cold: neither the read cache nor the kept chart answers (board/answer-cache.ts) hold anything.
        clearReadCache(ctx);
        clearAnswerCache(ctx);
        const beforeCold = cpuByProcess();
        const c = await open('goto');
        t.coldCpu.push(cpuSince(beforeCold));
        const beforeWarm = cpuByProcess();
        const w = await open('reload');
        t.warmCpu.push(cpuSince(beforeWarm));
        t.cold.push(c.millis);
        t.warm.push(w.millis);
        t.coldData.push(c.dataMillis);
        t.warmData.push(w.dataMillis);
        t.warmAsked.push(w.askedMillis);
        t.warmShared = w.shared;
        t.answers = w.requests;
        if (c.millis > 25_000) console.warn(`  cold load took ${fmt(c.millis)}: some answers may have left the 30 s cache before the warm load`);
      }
    }
    console.log(`chart cache after the runs: ${JSON.stringify(readCacheStats(ctx))}`);
    // The preview's batch call without a browser, cold: the server's and the engine's part of the
    // cold load (the rest is the page, and the browser's share of the two cores).
    // In turns with the GROUPING SETS form (`grouped: true`, which share links, embeds and the
    // renderer asked for until session 25).
    const serverCold: number[] = [];
    const serverColdGrouped: number[] = [];
    for (let i = 0; i < runs; i++) {
      for (const grouped of [false, true]) {
        clearReadCache(ctx);
        clearAnswerCache(ctx);
        const started = performance.now();
        const res = await fetch(`${base}/api/board/chart-data/batch`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: CHART_DATA_BATCH_STREAM_TYPE },
          body: JSON.stringify({ boardId, grouped }),
        });
        const lines = (await res.text()).split('\n').filter((line) => line.trim()).length;
        if (res.status !== 200 || lines !== CHARTS.length) throw new Error(`batch call: ${res.status}, ${lines} lines`);
        (grouped ? serverColdGrouped : serverCold).push(performance.now() - started);
      }
    }
    if (values.trace) {
      await setMode(modes[0]!);
      await open('reload');
      console.log(await traceLoad(page, path.resolve(values.trace), async () => void (await open('reload'))));
    }

    // The same statements, one after another, on DuckDB opened here with the server's settings.
    // The server is closed first: its engine process holds the file while it runs (one process
    // per file, docs/architecture.md "The DuckDB engine process").
    await close();
    close = undefined;
    const instance = await serverWarehouseInstance(file, config);
    const connection = await instance.connect();
    // The two sets take turns within each run (load from elsewhere falls on both alike).
    const sets = [perChartStatements, boardStatements].map((set) => [...set.values()]);
    // --approx: the same statements as the board would run with exact distinct counts (the raw sum).
    if (exactStatements) sets.push([...exactStatements.values()]);
    const perStatement = sets.map((list) => list.map(() => [] as number[]));
    for (let i = 0; i < runs; i++) {
      for (const [n, list] of sets.entries()) {
        for (const [k, st] of list.entries()) {
          const started = performance.now();
          await connection.runAndReadAll(st.sql, [...st.params] as never);
          perStatement[n]![k]!.push(performance.now() - started);
        }
      }
    }
    type RawSum = { count: number; sum: number; max: number };
    const [raw, rawBoard, rawExact] = perStatement.map((times) => {
      const each = times.map(median);
      return { count: each.length, sum: each.reduce((a, b) => a + b, 0), max: Math.max(...each) };
    }) as [RawSum, RawSum, RawSum | undefined];
    connection.closeSync();
    if (values.statements) {
      // The charts' statements, then the board's, slowest first: where the engine's time goes.
      // Written whole (with their parameters) to statements-<set>.json in the data directory, for probes.
      for (const [n, set] of ['charts', 'board'].entries()) {
        console.log(`the ${set}' statements, slowest first:`);
        const each = sets[n]!.map((st, k) => ({ millis: median(perStatement[n]![k]!), sql: st.sql.replace(/\s+/g, ' '), params: st.params }));
        for (const { millis, sql } of each.sort((a, b) => b.millis - a.millis)) console.log(`${fmt(millis).padStart(8)}  ${sql.slice(0, 400)}`);
        fs.writeFileSync(
          path.join(dataDir, `statements-${set}.json`),
          JSON.stringify(each, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2),
        );
      }
    }

    const runsOf = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' ');
    console.log('');
    console.log(`| ${orders.toLocaleString('en')} orders, ${CHARTS.length} charts | median | runs |`);
    console.log('|---|---|---|');
    for (const [mode, t] of timings) {
      console.log(`| ${mode}: cold, navigation → ready, chart cache empty | ${fmt(median(t.cold))} | ${runsOf(t.cold)} |`);
      console.log(`| ${mode}: warm, reload → ready (${t.warmShared} of ${t.answers} answers shared) | ${fmt(median(t.warm))} | ${runsOf(t.warm)} |`);
      console.log(`| ${mode}: cold, navigation → last chart answer | ${fmt(median(t.coldData))} | ${runsOf(t.coldData)} |`);
      console.log(`| ${mode}: warm, reload → last chart answer | ${fmt(median(t.warmData))} | ${runsOf(t.warmData)} |`);
      console.log(`| ${mode}: warm, reload → first chart-data request sent | ${fmt(median(t.warmAsked))} | ${runsOf(t.warmAsked)} |`);
      for (const [load, cpus] of [
        ['cold', t.coldCpu],
        ['warm', t.warmCpu],
      ] as const) {
        const of = (kind: keyof CpuByProcess) => median(cpus.map((cpu) => cpu[kind]));
        console.log(
          `| ${mode}: ${load} load's CPU time (median): engine ${fmt(of('engine'))}, Chromium's renderer ${fmt(of('renderer'))}, its other processes ${fmt(of('browserOther'))}, server ${fmt(of('server'))} | ${fmt(median(cpus.map(cpuTotal)))} | |`,
        );
      }
    }
    console.log(`| server alone (no browser): the preview's batch call, cold → last line | ${fmt(median(serverCold))} | ${runsOf(serverCold)} |`);
    console.log(
      `| server alone: the same call grouped (\`grouped: true\`, GROUPING SETS), cold → last line | ${fmt(median(serverColdGrouped))} | ${runsOf(serverColdGrouped)} |`,
    );
    console.log(`| raw DuckDB: the ${raw.count} statements of the charts run alone, sequential sum | ${fmt(raw.sum)} | |`);
    console.log(`| raw DuckDB: slowest of them | ${fmt(raw.max)} | |`);
    console.log(`| raw DuckDB: the board's ${rawBoard.count} statements (grouped), sequential sum | ${fmt(rawBoard.sum)} | |`);
    console.log(`| raw DuckDB: slowest of them | ${fmt(rawBoard.max)} | |`);
    if (rawExact) {
      console.log(`| raw DuckDB: the charts' statements with exact distinct counts, sequential sum | ${fmt(rawExact.sum)} | |`);
      console.log(`| raw DuckDB: slowest of them | ${fmt(rawExact.max)} | |`);
    }
    console.log('');
    for (const [mode, t] of timings) {
      console.log(`${mode}: cold / raw sum ${(median(t.cold) / raw.sum).toFixed(2)}, warm / raw sum ${(median(t.warm) / raw.sum).toFixed(2)}`);
      if (rawExact) console.log(`${mode}: cold / raw sum of the exact statements ${(median(t.cold) / rawExact.sum).toFixed(2)}`);
    }
    console.log(`load average after: ${load()}`);
  } finally {
    await browser.close();
  }
} finally {
  await close?.();
  if (!values.dir) fs.rmSync(dataDir, { recursive: true, force: true });
}
