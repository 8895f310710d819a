// The demo warehouse on a two-shard ClickHouse cluster of this machine (issue 27; docs/deploy.md
// "ClickHouse cluster"):
//   node scripts/clickhouse-cluster.mjs start | stop | status | load-demo [--orders N] [--dir DIR] [--ports H1,T1,H2,T2] …
// The work is done by packages/connectors/src/cluster (TypeScript, run through tsx); programs
// import startClickHouseCluster / loadDemo / stopClickHouseCluster from '@shutu/connectors/cluster'.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const cli = path.join(root, 'packages/connectors/src/cluster/cli.ts');
const result = spawnSync(process.execPath, ['--import', 'tsx', cli, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
