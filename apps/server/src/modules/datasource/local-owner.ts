import os from 'node:os';
import path from 'node:path';
import { BUILTIN_WAREHOUSE_FILE } from '@shutu/contracts';
import type { Config } from '../../platform/config.ts';

/**
 * A process's embedded DuckDB warehouse is a file on its own disk that only it may open (DuckDB
 * allows one writer process). Its data-source row names its owner — this host and the file —
 * so that with several processes on one store no process opens or rewrites another's
 * (docs/scale-out.md "The built-in warehouse").
 */

/** DATA_DIR/warehouse.duckdb, absolute. */
export function warehouseFile(config: Pick<Config, 'dataDir'>): string {
  return path.join(path.resolve(config.dataDir), BUILTIN_WAREHOUSE_FILE);
}

/** os.hostname(), read once (nodeName). */
let hostName: string | undefined;

/**
 * The name of this machine in owners: SHUTU_NODE_ID when set (containers get a new hostname on
 * every start, while their data volume stays), else the hostname.
 */
function nodeName(): string {
  // Read once: every read of a data source asks (registry.ts), and os.hostname() is a system call
  // (≈ 0.7 ms per preview call in bench/query's profile on a loaded box).
  hostName ??= os.hostname();
  return process.env.SHUTU_NODE_ID || hostName;
}

/** host:file of this process's embedded warehouse. */
export function localOwnerOf(config: Pick<Config, 'dataDir'>): string {
  return `${nodeName()}:${warehouseFile(config)}`;
}

/** Whether `owner` names a file on this host (the part after the host). */
export function ownerOnThisHost(owner: string): string | undefined {
  const prefix = `${nodeName()}:`;
  return owner.startsWith(prefix) ? owner.slice(prefix.length) : undefined;
}
