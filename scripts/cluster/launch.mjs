// The cluster of this machine (issue 27, docs/deploy.md): one PostgreSQL database of its own on
// the machine's server, N ShuTu processes (own port, own DATA_DIR, one DATABASE_URL, one secret
// key, one file store) and a round-robin proxy in front. Used by `npm run cluster`, its smoke test,
// the e2e run against the cluster and bench/cluster.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { ensureDatabase, LOCAL_PG, REPO_ROOT, startNode } from './nodes.mjs';
import { startProxy } from './proxy.mjs';

/** The data source the launcher registers for the ClickHouse cluster's demo warehouse. */
export const CLICKHOUSE_SOURCE_NAME = '集群示例仓库（ClickHouse）';

/**
 * The local S3 server (scripts/cluster/s3-server.ts, s3rver) as a child process.
 * @returns {Promise<{ config: { bucket: string; endpoint: string; accessKeyId: string; secretAccessKey: string; region: string; prefix: string }; stop(): Promise<void> }>}
 */
async function startLocalS3() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/cluster/s3-server.ts'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', () => resolve(undefined)));
  const line = await new Promise((resolve, reject) => {
    readline.createInterface({ input: /** @type {import('node:stream').Readable} */ (child.stdout) }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the local S3 server exited (${code})`)));
  });
  return {
    config: JSON.parse(/** @type {string} */ (line)),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The two-shard ClickHouse cluster of this machine with the demo warehouse loaded
 * (scripts/clickhouse-cluster.mjs, docs/deploy.md "ClickHouse cluster").
 * @param {{ dir: string; orders: number; ports?: number[] | 'free'; fromDuckdb?: string }} options ports: HTTP and TCP of shard 1, then of shard 2 (default 18123, 19000, 18124, 19001), or 'free' (chosen by the script, again if one is taken before its shard listens); fromDuckdb: load that warehouse file instead of generating
 * @returns {{ http: number; stop(): void }}
 */
function startClickHouse({ dir, orders, ports, fromDuckdb }) {
  const script = path.join(REPO_ROOT, 'scripts/clickhouse-cluster.mjs');
  const run = (/** @type {string[]} */ args) => {
    const result = spawnSync(process.execPath, [script, ...args, '--dir', dir], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (result.status !== 0) throw new Error(`clickhouse-cluster ${args[0]} failed (exit ${result.status})`);
    return JSON.parse(result.stdout.trim().split('\n').pop() ?? '{}');
  };
  const source = fromDuckdb ? ['--from-duckdb', fromDuckdb] : ['--orders', String(orders)];
  const loaded = run(['load-demo', ...source, ...(ports ? ['--ports', ports === 'free' ? 'free' : ports.join(',')] : [])]);
  return { http: loaded.shards[0].http, stop: () => void run(['stop']) };
}

/**
 * Registers the ClickHouse cluster as a data source through `url` (once; found again by name).
 * @param {string} url @param {string} adminPassword @param {number} httpPort
 * @returns {Promise<number>} the data source's id
 */
async function registerClickHouse(url, adminPassword, httpPort) {
  const call = async (/** @type {string} */ method, /** @type {string} */ urlPath, /** @type {string} */ token, /** @type {unknown} */ body) => {
    const res = await fetch(`${url}${urlPath}`, {
      method,
      headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const envelope = await res.json();
    if (!res.ok || !envelope.success) throw new Error(`${method} ${urlPath}: ${res.status} ${envelope.msg}`);
    return envelope.data;
  };
  const password = createHash('md5').update(adminPassword).digest('hex');
  const { token } = await call('POST', '/api/auth/login', '', { account: 'admin', password });
  const sources = await call('GET', '/api/datasource?current=1&size=100', token);
  const known = sources.records.find((/** @type {{ dsDb: string }} */ s) => s.dsDb === CLICKHOUSE_SOURCE_NAME);
  const settings = {
    dsDb: CLICKHOUSE_SOURCE_NAME,
    type: 'clickhouse',
    host: '127.0.0.1',
    port: httpPort,
    database: 'default',
    username: 'default',
    password: '',
  };
  if (known) return known.id;
  return (await call('POST', '/api/datasource', token, settings)).id;
}

/**
 * @typedef {object} ClusterOptions
 * @property {number} [processes] ShuTu processes (default 2)
 * @property {string} dir where the cluster keeps its state: one data directory per process, the shared files, the secret key
 * @property {string} [database] PostgreSQL database name (default shutu_cluster)
 * @property {string} [serverUrl] the PostgreSQL server (default the machine's, 127.0.0.1:5432)
 * @property {boolean} [fresh] drop the database and the state directory first
 * @property {number} [proxyPort] default: a free port
 * @property {number[]} [ports] the processes' ports (default: free ports)
 * @property {string} [webDist] the built web app the processes serve
 * @property {boolean | { bucket: string; endpoint: string; accessKeyId: string; secretAccessKey: string; region?: string; prefix?: string }} [s3] files in this bucket (true: a local S3 server started here) instead of the shared directory
 * @property {{ orders: number; ports?: number[] | 'free'; fromDuckdb?: string }} [clickhouse] start the two-shard ClickHouse cluster with the demo loaded and register it as a data source
 * @property {string} [adminPassword] the first administrator's password (default admin123; no forced change)
 * @property {Record<string, string>} [env] more environment for every process
 * @property {boolean} [echo] print the processes' output, prefixed with their name
 */

/**
 * @param {ClusterOptions} options
 * @returns {Promise<{ url: string; databaseUrl: string; clickhouseSourceId: number | undefined; nodes: import('./nodes.mjs').ServerNode[]; proxy: Awaited<ReturnType<typeof startProxy>>; stop(options?: { drop?: boolean }): Promise<void> }>}
 */
export async function startCluster(options) {
  const { processes = 2, dir, database = 'shutu_cluster', serverUrl = LOCAL_PG, fresh = false } = options;
  if (fresh) fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const db = await ensureDatabase(database, { serverUrl, fresh });
  // One key for every process: a data source saved through one is read by the others.
  const keyFile = path.join(dir, 'secret.key');
  if (!fs.existsSync(keyFile)) fs.writeFileSync(keyFile, randomBytes(32).toString('base64'), { mode: 0o600 });
  const filesDir = path.join(dir, 'files');
  fs.mkdirSync(filesDir, { recursive: true });
  const adminPassword = options.adminPassword ?? 'admin123';
  /** @type {Array<() => Promise<void> | void>} */
  const extras = [];
  /** @type {import('./nodes.mjs').ServerNode[]} */
  const nodes = [];
  /** @type {Awaited<ReturnType<typeof startProxy>> | undefined} */
  let proxy;
  /** @type {number | undefined} */
  let clickhouseSourceId;
  const stopAll = async () => {
    await proxy?.close();
    await Promise.all(nodes.map((n) => n.stop()));
    for (const stop of extras.reverse()) await stop();
  };
  try {
    let s3 = typeof options.s3 === 'object' ? options.s3 : undefined;
    if (options.s3 === true) {
      const local = await startLocalS3();
      extras.push(() => local.stop());
      s3 = local.config;
    }
    const storage = s3
      ? {
          SHUTU_FILE_STORAGE: 's3',
          SHUTU_S3_BUCKET: s3.bucket,
          SHUTU_S3_ENDPOINT: s3.endpoint,
          SHUTU_S3_ACCESS_KEY_ID: s3.accessKeyId,
          SHUTU_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
          SHUTU_S3_REGION: s3.region ?? 'us-east-1',
          SHUTU_S3_PREFIX: s3.prefix ?? '',
        }
      : { SHUTU_FILE_STORAGE: 'local', SHUTU_FILES_DIR: filesDir };
    const env = {
      SHUTU_SECRET_KEY: fs.readFileSync(keyFile, 'utf8').trim(),
      SHUTU_ADMIN_PASSWORD: adminPassword,
      ...storage,
      ...(options.webDist ? { WEB_DIST: options.webDist } : {}),
      ...options.env,
    };
    const clickhouse = options.clickhouse ? startClickHouse({ dir: path.join(dir, 'clickhouse'), ...options.clickhouse }) : undefined;
    if (clickhouse) extras.push(() => clickhouse.stop());
    // One after the other: the first migrates and seeds the store, the others find it done.
    for (let i = 0; i < processes; i++) {
      const name = `node${i + 1}`;
      const port = options.ports?.[i];
      nodes.push(await startNode({ databaseUrl: db.url, dataDir: path.join(dir, name), name, env, echo: options.echo, ...(port ? { port } : {}) }));
    }
    proxy = await startProxy({ backends: nodes.map((n) => n.url), port: options.proxyPort ?? 0 });
    if (clickhouse) clickhouseSourceId = await registerClickHouse(proxy.url, adminPassword, clickhouse.http);
  } catch (error) {
    await stopAll();
    throw error;
  }
  const running = proxy;
  return {
    url: running.url,
    databaseUrl: db.url,
    clickhouseSourceId,
    nodes,
    proxy: running,
    async stop({ drop = false } = {}) {
      await stopAll();
      if (drop) {
        await db.drop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
