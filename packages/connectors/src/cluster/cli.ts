/**
 * node --import tsx packages/connectors/src/cluster/cli.ts <start|stop|status|load-demo> [options]
 * (run through scripts/clickhouse-cluster.mjs). Options:
 *   --dir DIR          where the shards live (default: $SHUTU_CLICKHOUSE_CLUSTER_DIR or data/clickhouse-cluster, git-ignored)
 *   --ports H1,T1,H2,T2  HTTP and TCP port of shard 1 and shard 2 (default 18123,19000,18124,19001);
 *                        `free`: free ports, chosen again if one is taken before its shard listens
 *   --orders N         load-demo: order rows (default 20000)
 *   --seed N, --anchor-date YYYY-MM-DD, --from-duckdb FILE, --force   load-demo
 * load-demo starts the cluster first when it is not running. Prints one JSON line.
 */
import path from 'node:path';
import { makePlan } from '../demo/plan.ts';
import { clusterStatus, DEFAULT_PORTS, loadDemo, startClickHouseCluster, stopClickHouseCluster, type ShardPorts } from './index.ts';

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

function ports(text: string | undefined): ShardPorts[] | 'free' {
  if (!text) return [...DEFAULT_PORTS];
  if (text === 'free') return 'free';
  const n = text.split(',').map(Number);
  if (n.length !== 4 || n.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) throw new Error(`--ports needs four port numbers: ${text}`);
  return [
    { http: n[0]!, tcp: n[1]! },
    { http: n[2]!, tcp: n[3]! },
  ];
}

const integer = (text: string | undefined, name: string) => {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new Error(`${name} must be an integer: ${text}`);
  return n;
};

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  const root = path.resolve(import.meta.dirname, '../../../..');
  const baseDir = path.resolve(option(args, '--dir') ?? process.env.SHUTU_CLICKHOUSE_CLUSTER_DIR ?? path.join(root, 'data', 'clickhouse-cluster'));
  const print = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value)}\n`);
  switch (command) {
    case 'start':
    case 'load-demo': {
      const demo = {
        orders: integer(option(args, '--orders'), '--orders'),
        seed: integer(option(args, '--seed'), '--seed'),
        anchorDate: option(args, '--anchor-date'),
        duckdbPath: option(args, '--from-duckdb'),
        force: args.includes('--force'),
      };
      // Bad options are refused before any server starts.
      if (command === 'load-demo' && !demo.duckdbPath) makePlan({ seed: demo.seed, scale: demo.orders ?? 20_000, anchorDate: demo.anchorDate });
      const cluster = await startClickHouseCluster({ baseDir, ports: ports(option(args, '--ports')) });
      const started = { baseDir, version: cluster.version, shards: cluster.shards };
      if (command === 'start') return print(started);
      const result = await loadDemo(cluster, demo);
      return print({ ...started, ...result });
    }
    case 'stop':
      await stopClickHouseCluster(baseDir);
      return print({ baseDir, stopped: true });
    case 'status':
      return print({ baseDir, shards: await clusterStatus(baseDir) });
    default:
      process.stderr.write(
        'usage: clickhouse-cluster <start|stop|status|load-demo> [--dir DIR] [--ports H1,T1,H2,T2] [--orders N] [--seed N] [--anchor-date D] [--from-duckdb FILE] [--force]\n',
      );
      process.exitCode = 2;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
