// Types of launch.mjs for the TypeScript users (e2e run against the cluster, bench/cluster).
import type { ServerNode } from './nodes.mjs';
export declare const CLICKHOUSE_SOURCE_NAME: string;
export interface ClusterOptions {
  processes?: number;
  dir: string;
  database?: string;
  serverUrl?: string;
  fresh?: boolean;
  proxyPort?: number;
  ports?: number[];
  webDist?: string;
  s3?: boolean | { bucket: string; endpoint: string; accessKeyId: string; secretAccessKey: string; region?: string; prefix?: string };
  clickhouse?: { orders: number; ports?: number[] | 'free'; fromDuckdb?: string };
  adminPassword?: string;
  env?: Record<string, string>;
  echo?: boolean;
}
export interface Cluster {
  url: string;
  databaseUrl: string;
  clickhouseSourceId: number | undefined;
  nodes: ServerNode[];
  proxy: { url: string; port: number; served: number[]; close(): Promise<void> };
  stop(options?: { drop?: boolean }): Promise<void>;
}
export declare function startCluster(options: ClusterOptions): Promise<Cluster>;
