import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startCluster } from '../scripts/cluster/launch.mjs';

/**
 * Starts the cluster the e2e-cluster run tests (vitest.cluster.config.ts): `npm run cluster` with
 * two processes, S3 file storage (a local s3rver) and the demo warehouse (20 000 orders) on the
 * two-shard ClickHouse cluster, registered as a data source. The test files reach it through
 * E2E_BASE_URL (the proxy) and use E2E_WAREHOUSE_ID as their demo warehouse.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const webDist = process.env.E2E_WEB_DIST ?? path.resolve(import.meta.dirname, '../apps/web/dist');
  if (!fs.existsSync(path.join(webDist, 'index.html'))) throw new Error(`${webDist} is missing: run \`npm run build\` first`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-e2e-cluster-'));
  const cluster = await startCluster({
    dir,
    database: `shutu_e2e_cluster_${Date.now().toString(36)}`,
    fresh: true,
    webDist,
    s3: true,
    // Free ports: another ClickHouse cluster of this machine (scripts/clickhouse-cluster.mjs) may hold the default ones.
    // Chosen by the cluster script, below the ephemeral range and again if one is taken before its shard listens.
    clickhouse: { orders: 20_000, ports: 'free' },
    // Thumbnails off as in the single-server runs; the built-in DuckDB warehouse kept small (unused here).
    env: { SHUTU_THUMBNAILS: '0', SHUTU_DEMO_SCALE: '1000', LOG_LEVEL: 'warn' },
  });
  process.env.E2E_BASE_URL = cluster.url;
  process.env.E2E_WAREHOUSE_ID = String(cluster.clickhouseSourceId);
  process.stdout.write(`cluster: ${cluster.url} → ${cluster.nodes.map((n) => n.url).join(', ')}; warehouse data source ${cluster.clickhouseSourceId}\n`);
  return async () => {
    const served = cluster.proxy.served.join(' / ');
    await cluster.stop({ drop: true });
    process.stdout.write(`cluster stopped; requests per process: ${served}\n`);
  };
}
