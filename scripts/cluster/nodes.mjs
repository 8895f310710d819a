// ShuTu server processes for the cluster launcher and the multi-process tests: each is a real
// `main.ts serve` (its own port and DATA_DIR, one DATABASE_URL), started and stopped as an
// operator would, or killed with SIGKILL as a crash would.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildServer } from '../build-server.mjs';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
/** The machine's PostgreSQL (trust authentication for postgres on 127.0.0.1). */
export const LOCAL_PG = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A free TCP port on 127.0.0.1. @returns {Promise<number>} */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/** Whether PostgreSQL answers at `url`. @param {string} url */
export async function postgresReachable(url = LOCAL_PG) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * A database of its own on the server at `serverUrl` (created if absent; `fresh` drops it first).
 * @param {string} name lower-case letters, digits, underscores
 * @param {{ serverUrl?: string; fresh?: boolean }} [options]
 * @returns {Promise<{ url: string; name: string; drop(): Promise<void> }>}
 */
export async function ensureDatabase(name, { serverUrl = LOCAL_PG, fresh = false } = {}) {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`database name not allowed: ${name}`);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    if (fresh) await admin.query(`drop database if exists ${name} with (force)`);
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * @typedef {object} ServerNode
 * @property {string} url
 * @property {number} port
 * @property {number} pid
 * @property {string} dataDir
 * @property {() => string} output everything it printed so far
 * @property {() => boolean} alive
 * @property {() => Promise<void>} stop SIGTERM (graceful), SIGKILL after 15 s
 * @property {() => Promise<void>} kill SIGKILL: no shutdown code runs
 */

/**
 * Starts `main.ts serve` and waits until /api/health answers.
 * @param {{ databaseUrl: string; dataDir?: string; port?: number; env?: Record<string, string>; name?: string; echo?: boolean }} options
 * @returns {Promise<ServerNode>}
 */
export async function startNode({ databaseUrl, dataDir, port, env = {}, name = 'node', echo = false }) {
  const listen = port ?? (await freePort());
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `shutu-${name}-`));
  fs.mkdirSync(dir, { recursive: true });
  const child = spawn(process.execPath, [await buildServer(), 'serve'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(listen),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      // A stable node id per data directory: the built-in warehouse row names its owner by it.
      SHUTU_NODE_ID: `${os.hostname()}-${name}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  /** @param {Buffer} chunk */
  const keep = (chunk) => {
    output += chunk.toString();
    if (output.length > 2_000_000) output = output.slice(-1_000_000);
    if (echo) process.stdout.write(chunk.toString().replace(/^(?=.)/gm, `[${name}] `));
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', () => resolve(undefined)));
  const url = `http://127.0.0.1:${listen}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited early:\n${output}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not become healthy in 180 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    url,
    port: listen,
    pid: /** @type {number} */ (child.pid),
    dataDir: dir,
    output: () => output,
    alive,
    async stop() {
      if (!alive()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => alive() && child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
    async kill() {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
  };
}
