/**
 * Lighthouse benchmark (issue 26, "the page itself"): Lighthouse 12 (mobile preset unless
 * --preset desktop: simulated slow 4G and a 4× slower CPU) on Debian's Chromium against the
 * real server serving a web build, on `/login` and on a share link of the demo board 销售概览.
 *
 *   npx tsx bench/lighthouse/run.ts [--web-dist apps/web/dist] [--runs 3] [--preset mobile|desktop] [--json out.json]
 *     [--page login|share] [--lhr-dir dir]
 *
 * `--page` measures one of the two pages only; `--lhr-dir` keeps every run's full Lighthouse
 * report (`<page>-<run>.json`: bootup-time, mainthread-work-breakdown, unused-javascript… tell
 * what to cut next).
 *
 * The server runs as its own process (`main.ts serve`, as `npm start` does) on a temporary data
 * directory with a 20 000-order demo warehouse, so that the page's server and Lighthouse's own
 * work do not share one event loop. Each page is measured `--runs` times in a fresh Chromium
 * (empty cache: a first visit); the run with the median performance score is printed with its
 * metrics, bytes transferred and the compressed script bytes, and the score of every run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { ensureSystemPackages } from '../../apps/server/test/system-packages.ts';
import { buildServer } from '../../scripts/build-server.mjs';
import { freePort } from '../src/server-bundle.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    'web-dist': { type: 'string', default: path.join(ROOT, 'apps/web/dist') },
    runs: { type: 'string', default: '3' },
    preset: { type: 'string', default: 'mobile' },
    json: { type: 'string' },
    page: { type: 'string' },
    'lhr-dir': { type: 'string' },
  },
});
const webDist = path.resolve(values['web-dist']);
const runs = Math.max(1, Number(values.runs));
const preset = values.preset === 'desktop' ? 'desktop' : 'mobile';
const onlyPage = values.page === undefined ? null : values.page === 'share' ? 'share' : values.page === 'login' ? 'login' : null;
if (values.page !== undefined && onlyPage === null) throw new Error(`--page ${values.page}: login or share`);
const lhrDir = values['lhr-dir'] ? path.resolve(values['lhr-dir']) : null;
if (lhrDir) fs.mkdirSync(lhrDir, { recursive: true });
const ADMIN = { account: 'admin', password: 'admin123' };

interface PageResult {
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  speedIndexMs: number;
  cls: number;
  totalBytes: number;
  scriptBytes: number;
  requests: number;
}

async function startServer(): Promise<{ url: string; child: ChildProcess; dataDir: string }> {
  if (!fs.existsSync(path.join(webDist, 'index.html'))) throw new Error(`${webDist}/index.html is missing: build the web app first`);
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-lighthouse-'));
  const child = spawn(process.execPath, [await buildServer(), 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIST: webDist,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      SHUTU_THUMBNAILS: '0',
      SHUTU_DEMO_SCALE: '20000',
      SHUTU_ADMIN_PASSWORD: ADMIN.password,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    // A busy 2-core box can take minutes to migrate the store and generate the warehouse.
    await until(
      async () => (await fetch(`${url}/api/health`).catch(() => undefined))?.ok,
      'the server to answer',
      () => child.exitCode !== null,
      600_000,
    );
  } catch (error) {
    child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return { url, child, dataDir };
}

/** Polls `check` every 250 ms until it is truthy (no fixed sleeps). */
async function until<T>(check: () => Promise<T | undefined>, what: string, failed: () => boolean = () => false, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (failed() || Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function api<T>(url: string, token: string, method: string, route: string, body?: unknown): Promise<T> {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await res.json()) as { success: boolean; msg: string; data: T };
  if (!res.ok || !envelope.success) throw new Error(`${method} ${route}: ${res.status} ${envelope.msg}`);
  return envelope.data;
}

/** A login-free share link of the demo board 销售概览 (made at first start, docs/demo-content.md). */
async function shareLink(url: string): Promise<string> {
  const token = (
    await api<{ token: string }>(url, '', 'POST', '/api/auth/login', {
      account: ADMIN.account,
      password: createHash('md5').update(ADMIN.password).digest('hex'),
    })
  ).token;
  const board = await until(async () => {
    const page = await api<{ records: { id: number; title: string }[] }>(url, token, 'GET', '/api/board/boards?kind=visual&size=100');
    return page.records.find((b) => b.title === '销售概览');
  }, 'the demo board 销售概览');
  const link = await api<{ code: string }>(url, token, 'POST', '/api/share/links', { dataType: 'visual', dataId: board.id });
  return `/share/${link.code}`;
}

async function measure(pageUrl: string, reportName: string): Promise<PageResult> {
  const chrome = await chromeLauncher.launch({
    chromePath: '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  try {
    const result = await lighthouse(
      pageUrl,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
      preset === 'desktop' ? desktopConfig : undefined,
    );
    if (!result) throw new Error(`no Lighthouse result for ${pageUrl}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
    if (lhrDir) fs.writeFileSync(path.join(lhrDir, `${reportName}.json`), JSON.stringify(lhr));
    const num = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    const items = ((lhr.audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? []) as {
      resourceType?: string;
      transferSize?: number;
    }[];
    return {
      score: lhr.categories.performance?.score ?? 0,
      fcpMs: num('first-contentful-paint'),
      lcpMs: num('largest-contentful-paint'),
      tbtMs: num('total-blocking-time'),
      speedIndexMs: num('speed-index'),
      cls: num('cumulative-layout-shift'),
      totalBytes: num('total-byte-weight'),
      scriptBytes: items.filter((i) => i.resourceType === 'Script').reduce((sum, i) => sum + (i.transferSize ?? 0), 0),
      requests: items.length,
    };
  } finally {
    chrome.kill();
  }
}

/**
 * A run again when Lighthouse itself failed to record it (NO_NAVSTART, NO_FCP: its trace missed
 * the navigation), at most twice; a page that fails every time still fails the bench.
 */
async function measureWithRetry(pageUrl: string, reportName: string): Promise<PageResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure(pageUrl, reportName);
    } catch (error) {
      if (attempt >= 3 || !/\((NO_NAVSTART|NO_FCP|NO_LCP)\)/.test(String(error))) throw error;
      console.log(`${reportName}: ${String(error)}; measured again`);
    }
  }
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(0)} kB`;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

ensureSystemPackages(); // Debian's Chromium and CJK fonts, installed with apt-get when missing
const server = await startServer();
const summary: Record<string, { median: PageResult; scores: number[] }> = {};
try {
  const pages: [name: string, key: 'login' | 'share', route: () => Promise<string>][] = [
    ['/login', 'login', async () => '/login'],
    ['share link (销售概览)', 'share', () => shareLink(server.url)],
  ];
  for (const [name, key, routeOf] of pages) {
    if (onlyPage !== null && key !== onlyPage) continue;
    const route = await routeOf();
    const results: PageResult[] = [];
    for (let i = 0; i < runs; i++) results.push(await measureWithRetry(`${server.url}${route}`, `${key}-${i + 1}`));
    const sorted = [...results].sort((a, b) => a.score - b.score);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    summary[name] = { median, scores: results.map((r) => r.score) };
    console.log(
      `${name} (${preset}): performance ${median.score.toFixed(2)} [runs ${results.map((r) => r.score.toFixed(2)).join(' ')}], ` +
        `FCP ${s(median.fcpMs)}, LCP ${s(median.lcpMs)}, TBT ${median.tbtMs.toFixed(0)} ms, SI ${s(median.speedIndexMs)}, CLS ${median.cls.toFixed(3)}, ` +
        `transferred ${kB(median.totalBytes)} (script ${kB(median.scriptBytes)}) in ${median.requests} requests`,
    );
  }
  if (values.json) fs.writeFileSync(values.json, `${JSON.stringify({ preset, webDist, date: new Date().toISOString(), pages: summary }, null, 2)}\n`);
} finally {
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.once('exit', resolve));
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}
