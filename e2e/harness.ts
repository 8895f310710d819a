import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM_ARGS } from '../apps/server/src/platform/render/pool.ts';
import { ensureSystemPackages } from '../apps/server/test/system-packages.ts';
import { buildServer } from '../scripts/build-server.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** An empty, migrated PGlite directory each fresh app start copies (global-setup.ts). */
    storeTemplate: string;
  }
}

export const REPO_ROOT = path.resolve(import.meta.dirname, '..');
export const ARTIFACTS = path.join(REPO_ROOT, 'e2e', 'artifacts');
export const CHROMIUM = '/usr/bin/chromium';
export const ADMIN = { account: 'admin', password: 'admin123' } as const;

/**
 * Content-Security-Policy violations seen by any page the test opened through newPage (console
 * "Refused to …" messages and securitypolicyviolation events). csp-check.ts (a setup file of every
 * e2e file) fails the test that saw one: the policy (apps/server/src/platform/http/security-headers.ts)
 * must let the app, antd and ECharts work untouched.
 */
const cspViolations: string[] = [];
const CSP_MARK = '[csp-violation]';

function isCspViolation(text: string): boolean {
  return text.startsWith(CSP_MARK) || (/Refused to /.test(text) && /Content Security Policy/i.test(text));
}

function watchCsp(context: BrowserContext): void {
  void context.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (e) => {
      console.error(${JSON.stringify(CSP_MARK)} + ' ' + e.violatedDirective + ' blocked ' + (e.blockedURI || '(inline)') + ' on ' + e.documentURI);
    });`,
  });
  context.on('console', (message) => {
    const text = message.text();
    if (isCspViolation(text)) cspViolations.push(`${message.page()?.url() ?? ''}: ${text}`);
  });
  context.on('weberror', (error) => {
    const text = error.error().message;
    if (isCspViolation(text)) cspViolations.push(`${error.page()?.url() ?? ''}: ${text}`);
  });
}

/** Hands over (and forgets) the violations seen so far: for a test that provokes one on purpose. */
export function takeCspViolations(): string[] {
  return cspViolations.splice(0);
}

/** Debian's Chromium, CJK fonts (no tofu boxes) and poppler-utils; installed with apt-get when missing. */
export function ensureChromium(): void {
  ensureSystemPackages();
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // The server renderer's flags: what the tests see is what subscriptions and PDFs render.
    args: CHROMIUM_ARGS,
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface E2EApp {
  url: string;
  dataDir: string;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM (graceful), then removes the data directory unless `keepData`. */
  stop(options?: { keepData?: boolean }): Promise<void>;
  /** SIGKILL, as a crash or a power cut would: no shutdown code runs; the data directory stays. */
  kill(): Promise<void>;
}

/** A new data directory holding the migrated store global-setup.ts made: the server opens it instead of creating a cluster. */
function freshDataDir(): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-e2e-'));
  fs.cpSync(inject('storeTemplate'), path.join(dataDir, 'metadata'), { recursive: true });
  return dataDir;
}

/**
 * The real server (`main.ts serve`) on a free port with a fresh data directory (or `dataDir`,
 * to start again on what a stopped or killed server left), serving the built web app. The web
 * app must have been built (`npm run build`) before. The administrator is seeded with
 * SHUTU_ADMIN_PASSWORD=admin123 (an operator's choice: no forced change at first login);
 * pass `SHUTU_ADMIN_PASSWORD: ''` for a default install, whose admin123 must be changed first.
 */
export async function startApp(env: Record<string, string> = {}, options: { dataDir?: string } = {}): Promise<E2EApp> {
  // E2E_BASE_URL: a server started elsewhere — the cluster of e2e/vitest.cluster.config.ts; `env` is its launcher's business.
  if (process.env.E2E_BASE_URL) return externalApp(process.env.E2E_BASE_URL);
  // E2E_WEB_DIST: a build of one's own (`vite build --outDir`), so parallel work does not rebuild the app under a running test.
  const webDist = process.env.E2E_WEB_DIST ?? path.join(REPO_ROOT, 'apps/web/dist');
  if (!fs.existsSync(path.join(webDist, 'index.html'))) throw new Error(`${webDist} is missing: run \`npm run build\` first`);
  const port = await freePort();
  const dataDir = options.dataDir ?? freshDataDir();
  const child: ChildProcess = spawn(process.execPath, [await buildServer(), 'serve'], {
    cwd: REPO_ROOT,
    // Thumbnails off unless a test asks for them: each would render boards in the server's own Chromium beside the test's.
    // A 20 000-order demo warehouse (a tenth of the default) unless a test asks for another: every start generates it.
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
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const serverExited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // The server's DuckDB engine processes (docs/architecture.md) exit a moment after it: a test that
  // opens the data directory's warehouse file, or a restart on it, waits for them too.
  const engines = () =>
    spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(child.pid)], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter((line) => line.includes('duckdb-host'))
      .map((line) => Number(line.trim().split(/\s+/)[0]));
  // Exited: no such process, or a zombie that no init has reaped yet whose every thread is gone. A
  // killed process's main thread turns zombie first; its files (the DuckDB lock) close only when the
  // last of its threads has exited, and an exited thread leaves /proc/<pid>/task.
  const threadExited = (pid: number, tid: string) => {
    try {
      return /^[ZX]/.test(fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!);
    } catch {
      return true;
    }
  };
  const gone = (pid: number) => {
    let threads: string[];
    try {
      threads = fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      return true;
    }
    return threads.every((tid) => threadExited(pid, tid));
  };
  let exited: Promise<void> | null = null;
  const exitedWithEngines = () => {
    exited ??= (async () => {
      const pids = child.exitCode === null && child.signalCode === null ? engines() : [];
      await serverExited;
      for (const deadline = Date.now() + 15_000; !pids.every(gone) && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 50));
    })();
    return exited;
  };
  return {
    url,
    dataDir,
    output: () => output,
    async stop({ keepData = false } = {}) {
      if (child.exitCode === null && child.signalCode === null) {
        const done = exitedWithEngines();
        child.kill('SIGTERM');
        await Promise.race([serverExited, new Promise((r) => setTimeout(r, 15_000))]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await done;
      }
      if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    },
    async kill() {
      const done = exitedWithEngines();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await done;
    },
  };
}

/** A server this run did not start: never stopped or killed by a test. */
function externalApp(url: string): E2EApp {
  return {
    url: url.replace(/\/$/, ''),
    dataDir: '',
    output: () => '',
    stop: async () => undefined,
    kill: async () => {
      throw new Error('E2E_BASE_URL: an external server is not killed by a test');
    },
  };
}

/** The demo warehouse's data source: E2E_WAREHOUSE_ID when set (a cluster's shared warehouse), else the built-in one. */
export function demoWarehouseId(sources: { id: number; isBuiltin: boolean }[]): number {
  const chosen = process.env.E2E_WAREHOUSE_ID ? Number(process.env.E2E_WAREHOUSE_ID) : sources.find((s) => s.isBuiltin)?.id;
  if (chosen === undefined || !sources.some((s) => s.id === chosen)) throw new Error('the demo warehouse data source is missing');
  return chosen;
}

/** Saves a full-page PNG under e2e/artifacts/ for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Logs in through the login page and waits for the main layout. */
export async function loginThroughPage(page: Page, app: E2EApp, account: string = ADMIN.account, password: string = ADMIN.password): Promise<void> {
  await page.goto(`${app.url}/login`);
  await page.getByPlaceholder('账号').fill(account);
  await page.getByPlaceholder('密码').fill(password);
  await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/auth/login')), page.getByRole('button', { name: /登\s*录/ }).click()]);
  await page.getByTestId('app-header').waitFor();
}

/** A fresh browser context (own storage, so its own session) with a desktop-sized page; its pages are watched for CSP violations. */
export async function newPage(browser: Browser, viewport = { width: 1440, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'zh-CN' });
  watchCsp(context);
  return context.newPage();
}

/** Signs in through the API (for test set-up) and returns the bearer token. */
export async function apiLogin(app: E2EApp, account: string = ADMIN.account, password: string = ADMIN.password): Promise<string> {
  const { createHash } = await import('node:crypto');
  const md5 = createHash('md5').update(password).digest('hex');
  const data = await apiCall<{ token: string }>(app, '', 'POST', '/api/auth/login', { account, password: md5 });
  return data.token;
}

/** Calls the API with a token and returns `data` of the envelope; throws on failure. */
export async function apiCall<T>(app: E2EApp, token: string, method: string, urlPath: string, body?: unknown): Promise<T> {
  const res = await fetch(`${app.url}${urlPath}`, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await res.json()) as { success: boolean; msg: string; data: T };
  if (!res.ok || !envelope.success) throw new Error(`${method} ${urlPath} failed: ${res.status} ${envelope.msg}`);
  return envelope.data;
}

/** Texts of the side menu's entries, in order. */
export async function menuLabels(page: Page): Promise<string[]> {
  const texts = await page.locator('.app-menu [role="menuitem"]').allInnerTexts();
  return texts.map((s) => s.trim());
}

/** Polls until `check` gives a value (not undefined), every 200 ms; no fixed sleeps. */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
