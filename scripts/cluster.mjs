// `npm run cluster`: ShuTu as a cluster on this machine (issue 27, docs/deploy.md) — a database of
// its own on the machine's PostgreSQL (127.0.0.1:5432), two ShuTu processes on two ports with their
// own data directories, and a round-robin proxy in front that people open.
//
//   npm run cluster -- [--processes 2] [--port 8080] [--node-ports 8081,8082] [--database shutu_cluster]
//                      [--dir data/cluster] [--fresh] [--quiet] [--s3] [--clickhouse] [--orders 20000]
//
// --s3: files (exports, PDFs, images) in a local S3 server (s3rver) instead of a shared directory.
// --clickhouse: the two-shard ClickHouse cluster of this machine with the demo warehouse (--orders
// rows) loaded, registered as the data source 集群示例仓库（ClickHouse） that every process opens.
//
// Ctrl-C stops the proxy and the processes (graceful); the database and data stay for the next start
// (--fresh drops both first). The web app must be built (`npm run build`, or `npm start` once).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startCluster } from './cluster/launch.mjs';
import { REPO_ROOT } from './cluster/nodes.mjs';

const { values } = parseArgs({
  options: {
    processes: { type: 'string', default: '2' },
    port: { type: 'string', default: '8080' },
    'node-ports': { type: 'string' },
    database: { type: 'string', default: 'shutu_cluster' },
    dir: { type: 'string', default: path.join(REPO_ROOT, 'data', 'cluster') },
    fresh: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
    s3: { type: 'boolean', default: false },
    clickhouse: { type: 'boolean', default: false },
    orders: { type: 'string', default: '20000' },
  },
});

const processes = Number(values.processes);
if (!Number.isInteger(processes) || processes < 1) throw new Error(`--processes: a whole number ≥ 1 (got ${values.processes})`);
const proxyPort = Number(values.port);
const ports = values['node-ports'] ? values['node-ports'].split(',').map(Number) : Array.from({ length: processes }, (_, i) => proxyPort + 1 + i);
const webDist = process.env.WEB_DIST ?? path.join(REPO_ROOT, 'apps/web/dist');
if (!fs.existsSync(path.join(webDist, 'index.html'))) {
  process.stderr.write(`${webDist} 不存在：请先运行 npm run build（或 npm start 一次）\n`);
  process.exit(1);
}

const started = Date.now();
const cluster = await startCluster({
  processes,
  dir: path.resolve(values.dir),
  database: values.database,
  fresh: values.fresh,
  proxyPort,
  ports,
  webDist,
  echo: !values.quiet,
  adminPassword: process.env.SHUTU_ADMIN_PASSWORD ?? 'admin123',
  s3: values.s3,
  ...(values.clickhouse ? { clickhouse: { orders: Number(values.orders) } } : {}),
});
const lines = [
  `数图 ShuTu 集群已启动（${((Date.now() - started) / 1000).toFixed(1)} s）: ${cluster.url}`,
  ...cluster.nodes.map((n, i) => `  进程 ${i + 1}: ${n.url}  pid ${n.pid}  数据目录 ${n.dataDir}`),
  `  元数据库: ${cluster.databaseUrl}`,
  `  文件存储: ${values.s3 ? '本机 S3 服务（s3rver）' : path.join(path.resolve(values.dir), 'files')}`,
  ...(cluster.clickhouseSourceId ? [`  数据源: 集群示例仓库（ClickHouse），id ${cluster.clickhouseSourceId}`] : []),
  `管理员  账号: admin  密码: ${process.env.SHUTU_ADMIN_PASSWORD ?? 'admin123'}`,
  '按 Ctrl-C 停止',
];
process.stdout.write(`\n${lines.join('\n')}\n\n`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('正在停止集群…\n');
    cluster.stop().then(
      () => process.exit(0),
      (error) => {
        process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
  });
}
