/**
 * The demo warehouse on a two-shard ClickHouse cluster of this machine (issue 27,
 * docs/deploy.md "ClickHouse cluster"): start / stop / status of the two servers, and the demo
 * data loaded into local MergeTree tables under Distributed tables named as the demo tables.
 * `scripts/clickhouse-cluster.mjs` is the command line over these functions.
 */
export {
  CLUSTER_NAME,
  DEFAULT_PORTS,
  clusterStatus,
  ensureClickHouseBinary,
  freeShardPorts,
  removeClickHouseCluster,
  startClickHouseCluster,
  stopClickHouseCluster,
  type ClickHouseCluster,
  type ClusterOptions,
  type ShardPorts,
  type ShardStatus,
} from './server.ts';
export { clusterRowCounts, loadDemo, shardingKey, type ClusterTarget, type LoadDemoOptions, type LoadDemoResult } from './demo.ts';
