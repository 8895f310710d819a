// The cluster of this machine (issue 27, docs/deploy.md): one PostgreSQL database of its own on
// the machine's server, N ShuTu processes (own port, own DATA_DIR, one DATABASE_URL, one secret
// key, one file store) and a round-robin proxy in front. Used by `npm run cluster`, its smoke test,
// the e2e run against the cluster and bench/cluster.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensureDatabase, LOCAL_PG, startNode } from './nodes.mjs';
import { startProxy } from './proxy.mjs';

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
 * @property {{ bucket: string; endpoint: string; accessKeyId: string; secretAccessKey: string; region?: string }} [s3] files in this bucket instead of the shared directory
 * @property {Record<string, string>} [env] more environment for every process
 * @property {boolean} [echo] print the processes' output, prefixed with their name
 */

/**
 * @param {ClusterOptions} options
 * @returns {Promise<{ url: string; databaseUrl: string; nodes: import('./nodes.mjs').ServerNode[]; proxy: Awaited<ReturnType<typeof startProxy>>; stop(options?: { drop?: boolean }): Promise<void> }>}
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
  const storage = options.s3
    ? {
        SHUTU_FILE_STORAGE: 's3',
        SHUTU_S3_BUCKET: options.s3.bucket,
        SHUTU_S3_ENDPOINT: options.s3.endpoint,
        SHUTU_S3_ACCESS_KEY_ID: options.s3.accessKeyId,
        SHUTU_S3_SECRET_ACCESS_KEY: options.s3.secretAccessKey,
        SHUTU_S3_REGION: options.s3.region ?? 'us-east-1',
      }
    : { SHUTU_FILE_STORAGE: 'local', SHUTU_FILES_DIR: filesDir };
  const env = {
    SHUTU_SECRET_KEY: fs.readFileSync(keyFile, 'utf8').trim(),
    ...storage,
    ...(options.webDist ? { WEB_DIST: options.webDist } : {}),
    ...options.env,
  };
  /** @type {import('./nodes.mjs').ServerNode[]} */
  const nodes = [];
  /** @type {Awaited<ReturnType<typeof startProxy>> | undefined} */
  let proxy;
  const stopAll = async () => {
    await proxy?.close();
    await Promise.all(nodes.map((n) => n.stop()));
  };
  try {
    // One after the other: the first migrates and seeds the store, the others find it done.
    for (let i = 0; i < processes; i++) {
      const name = `node${i + 1}`;
      const port = options.ports?.[i];
      nodes.push(await startNode({ databaseUrl: db.url, dataDir: path.join(dir, name), name, env, echo: options.echo, ...(port ? { port } : {}) }));
    }
    proxy = await startProxy({ backends: nodes.map((n) => n.url), port: options.proxyPort ?? 0 });
  } catch (error) {
    await stopAll();
    throw error;
  }
  const running = proxy;
  return {
    url: running.url,
    databaseUrl: db.url,
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
