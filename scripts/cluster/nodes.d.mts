// Types of nodes.mjs for the TypeScript tests that start real server processes.
export declare const REPO_ROOT: string;
export declare const LOCAL_PG: string;
export declare function freePort(): Promise<number>;
export declare function postgresReachable(url?: string): Promise<boolean>;
export declare function ensureDatabase(
  name: string,
  options?: { serverUrl?: string; fresh?: boolean },
): Promise<{ url: string; name: string; drop(): Promise<void> }>;
export interface ServerNode {
  url: string;
  port: number;
  pid: number;
  dataDir: string;
  output(): string;
  alive(): boolean;
  stop(): Promise<void>;
  kill(): Promise<void>;
}
export declare function startNode(options: {
  databaseUrl: string;
  dataDir?: string;
  port?: number;
  env?: Record<string, string>;
  name?: string;
  echo?: boolean;
}): Promise<ServerNode>;
