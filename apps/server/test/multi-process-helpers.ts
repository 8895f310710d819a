import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, type ServerNode } from '../../../scripts/cluster/nodes.mjs';

/** Helpers of the tests that run real server processes (kill-9.test.ts, multi-process-schedules.test.ts). */

export const ADMIN_PASSWORD = 'admin123';

/** A built web app for the server's Chromium to render boards from: one's own, the repository's, or built here once. */
export function webDist(): string {
  const candidates = [process.env.E2E_WEB_DIST, path.join(REPO_ROOT, 'apps/web/dist')].filter((d): d is string => !!d);
  const built = candidates.find((d) => fs.existsSync(path.join(d, 'index.html')));
  if (built) return built;
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-kill-web-'));
  const result = spawnSync(process.execPath, [path.join(REPO_ROOT, 'node_modules/vite/bin/vite.js'), 'build', 'apps/web', '--outDir', out, '--emptyOutDir'], {
    cwd: REPO_ROOT,
    stdio: 'ignore',
  });
  if (result.status !== 0) throw new Error('vite build of apps/web failed: the server renders subscriptions from the built app');
  return out;
}

interface Envelope<T> {
  success: boolean;
  msg: string;
  data: T;
}

export async function api<T>(node: ServerNode, token: string, method: string, urlPath: string, body?: unknown): Promise<Envelope<T> & { status: number }> {
  const res = await fetch(`${node.url}${urlPath}`, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, ...((await res.json()) as Envelope<T>) };
}

export async function ok<T>(node: ServerNode, token: string, method: string, urlPath: string, body?: unknown): Promise<T> {
  const res = await api<T>(node, token, method, urlPath, body);
  if (res.status !== 200 || !res.success) throw new Error(`${method} ${urlPath}: ${res.status} ${res.msg}`);
  return res.data;
}

export async function login(node: ServerNode): Promise<string> {
  const password = createHash('md5').update(ADMIN_PASSWORD).digest('hex');
  return (await ok<{ token: string }>(node, '', 'POST', '/api/auth/login', { account: 'admin', password })).token;
}

/** Polls until `check` gives a value, every 100 ms (no fixed sleeps); fails after `timeoutMs`. */
export async function until<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
