/**
 * Mobile benchmark (issue 24): an app whose first menu opens a dashboard, opened at /m/app/{id} in
 * headless Chromium at 390×844 (a phone: touch, device scale 3) with the network throttled through
 * CDP Network.emulateNetworkConditions; time from navigation to `data-board-state="ready"` of the
 * first dashboard (every chart drawn), on the page's own clock (navigation start → the attribute
 * set; Playwright's wait sees it up to 500 ms later). Goal ≤ 2 s on a 4G profile.
 *
 *   npx vite build apps/web --outDir /tmp/apps-web --emptyOutDir
 *   E2E_WEB_DIST=/tmp/apps-web npx tsx bench/mobile/run.ts [--runs 3] [--board 销售概览|订单明细报表] [--waterfall] [--profile 'fast 4G']
 *
 * --waterfall prints every request of every run (sent, first byte, done in ms; KiB on the wire).
 * --trace <file.json> records one more cold load of the last profile with Chromium's tracing and the
 * V8 profiler and prints where the main thread went (bench/board/trace.ts).
 *
 * The server is the real one as its own process (e2e harness startApp: `main.ts serve`, embedded
 * PGlite, a 20 000-order demo warehouse). The session is signed in before throttling. Two cases per
 * profile: cold (HTTP cache disabled: a first visit) and warm (the app's scripts cached: a return
 * visit); the chart data are fresh in both (the server's read cache is warm after the first run).
 * Profiles (Chromium DevTools presets): fast 4G 9 Mbit/s down, 1.5 Mbit/s up, 165 ms RTT;
 * slow 4G 1.6 Mbit/s down, 750 kbit/s up, 562.5 ms RTT; and none (unthrottled) for the box's own share.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, startApp } from '../../e2e/harness.ts';
import { traceLoad } from '../board/trace.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    board: { type: 'string', default: '销售概览' },
    waterfall: { type: 'boolean', default: false },
    profile: { type: 'string' },
    /** Record one more load (the last profile measured, cold) with Chromium's tracing and the CPU profiler into this JSON file (bench/board/trace.ts). */
    trace: { type: 'string' },
  },
});
const runs = Math.max(1, Number(values.runs));

const PROFILES = {
  // The same page unthrottled: what the box itself (CPU, load) costs.
  none: { latency: 0, downloadThroughput: -1, uploadThroughput: -1 },
  'fast 4G': { latency: 165, downloadThroughput: (9_000 * 1000) / 8, uploadThroughput: (1_500 * 1000) / 8 },
  'slow 4G': { latency: 562.5, downloadThroughput: (1_600 * 1000) / 8, uploadThroughput: (750 * 1000) / 8 },
} as const;

/**
 * When the page set `data-board-state="ready"`, in ms after its navigation started (its
 * performance clock's origin), stamped by a MutationObserver as it happens. Page code as text:
 * the bench has no DOM types.
 */
const READY_STAMP = `new MutationObserver(function () {
  if (document.documentElement.getAttribute('data-board-state') === 'ready' && globalThis.__shutuReadyAt === undefined) globalThis.__shutuReadyAt = performance.now();
}).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-board-state'] });`;

/** The harness's page type (playwright-core is the e2e package's dependency, not the bench's). */
type Page = Awaited<ReturnType<typeof newPage>>;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(
  page: Page,
  url: string,
  profile: (typeof PROFILES)[keyof typeof PROFILES],
  cold: boolean,
  trace?: string,
): Promise<{ ms: number; bytes: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: cold });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...profile });
  let bytes = 0;
  cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => (bytes += e.encodedDataLength));
  const waterfall = new Map<string, { url: string; sent: number; first?: number; done?: number; bytes?: number }>();
  if (values.waterfall) {
    cdp.on('Network.requestWillBeSent', (e: { requestId: string; request: { url: string; method: string }; timestamp: number }) =>
      waterfall.set(e.requestId, { url: `${e.request.method} ${e.request.url.replace(/^https?:\/\/[^/]+/, '')}`, sent: e.timestamp }),
    );
    cdp.on('Network.responseReceived', (e: { requestId: string; timestamp: number }) => {
      const row = waterfall.get(e.requestId);
      if (row) row.first = e.timestamp;
    });
    cdp.on('Network.loadingFinished', (e: { requestId: string; timestamp: number; encodedDataLength: number }) => {
      const row = waterfall.get(e.requestId);
      if (row) Object.assign(row, { done: e.timestamp, bytes: e.encodedDataLength });
    });
  }
  await page.goto('about:blank');
  waterfall.clear();
  const load = async () => {
    await page.goto(url);
    await page.waitForSelector('html[data-board-state="ready"]', { timeout: 120_000 });
  };
  if (trace) console.log(await traceLoad(page, trace, load));
  else await load();
  // The page's own clock (READY_STAMP): Playwright notices the attribute on a backing-off poll, up to 500 ms late.
  const readyAt = await page.evaluate(() => (globalThis as { __shutuReadyAt?: number }).__shutuReadyAt);
  if (typeof readyAt !== 'number') throw new Error('the page became ready without the ready stamp');
  const ms = Math.round(readyAt);
  if (values.waterfall) printWaterfall([...waterfall.values()], ms);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await cdp.detach();
  return { ms, bytes };
}

/** Each request of one visit: sent, first byte and done, in ms after the document's request; bytes on the wire. */
function printWaterfall(rows: { url: string; sent: number; first?: number; done?: number; bytes?: number }[], readyMs: number): void {
  const zero = Math.min(...rows.map((r) => r.sent));
  const at = (t: number | undefined) => (t === undefined ? '   -' : String(Math.round((t - zero) * 1000)).padStart(5));
  for (const r of rows.sort((a, b) => a.sent - b.sent))
    console.log(`  ${at(r.sent)} ${at(r.first)} ${at(r.done)} ${String(Math.round((r.bytes ?? 0) / 1024)).padStart(5)} KiB  ${r.url.slice(0, 90)}`);
  console.log(`  ready at ${readyMs} ms (from navigation)`);
}

// A data directory of our own: the harness's template copy exists only under vitest.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-bench-mobile-'));
const app = await startApp({}, { dataDir });
try {
  const token = await apiLogin(app);
  const boards = [
    ...(await apiCall<{ records: { id: number; title: string }[] }>(app, token, 'GET', '/api/board/boards?kind=visual&current=1&size=50')).records,
    ...(await apiCall<{ records: { id: number; title: string }[] }>(app, token, 'GET', '/api/board/boards?kind=report&current=1&size=50')).records,
  ];
  const board = boards.find((b) => b.title === values.board);
  if (!board) throw new Error(`no demo board ${values.board}`);
  const created = await apiCall<{ appId: number }>(app, token, 'POST', '/api/apps', { appName: '基准应用', publishStatus: 1, waterMarkStatus: 1 });
  await apiCall(app, token, 'PUT', `/api/apps/${created.appId}/menus`, { menus: [{ menuName: '首屏', visualId: board.id }] });
  const url = `${app.url}/m/app/${created.appId}`;

  const browser = await launchBrowser();
  const page = await newPage(browser, { width: 390, height: 844 });
  await page.context().addInitScript({ content: READY_STAMP });
  await loginThroughPage(page, app);
  // One unthrottled visit: the server's chart answers and the store are warm, as on a used server.
  await page.goto(url);
  await page.waitForSelector('html[data-board-state="ready"]', { timeout: 120_000 });

  console.log(`/m/app/${created.appId} → first dashboard (${board.title}) ready, 390×844, ${runs} runs each, load ${os.loadavg()[0]!.toFixed(1)}`);
  let traced: (typeof PROFILES)[keyof typeof PROFILES] = PROFILES.none;
  for (const [name, profile] of Object.entries(PROFILES)) {
    if (values.profile && values.profile !== name) continue;
    traced = profile;
    for (const cold of [true, false]) {
      const results: { ms: number; bytes: number }[] = [];
      for (let i = 0; i < runs; i++) results.push(await measure(page, url, profile, cold));
      const ms = results.map((r) => r.ms);
      console.log(
        `${name.padEnd(8)} ${cold ? 'cold' : 'warm'}: median ${median(ms)} ms (runs ${ms.join(', ')} ms), transferred ${Math.round(median(results.map((r) => r.bytes)) / 1024)} KiB`,
      );
    }
  }
  if (values.trace) await measure(page, url, traced, true, path.resolve(values.trace));
  console.log(`load after: ${os.loadavg()[0]!.toFixed(1)}`);
  await browser.close();
} finally {
  await app.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
