import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import { getDialect } from '@shutu/query';

/**
 * Tables the ClickHouse driver writes into a cluster (issue 27, docs/deploy.md "ClickHouse
 * cluster" → "Tables ShuTu writes"): a file table, a CDP table, an audience's member table. On
 * a single server they are one MergeTree table, as before. When the source's server is a shard of
 * a cluster, a new table `t` is made on every shard as
 *   t_local  MergeTree, that shard's rows;
 *   t        Distributed(cluster, db, t_local, rand()), the whole table from any shard,
 * and its rows go in through `t` with insert_distributed_sync = 1 (spread evenly by rand(),
 * written to both shards before the insert returns). Drop and rename act on every shard.
 *
 * 18.16 has no `ON CLUSTER` DDL without ZooKeeper, so each statement runs on each shard over
 * its own HTTP interface. Which cluster, and where each shard answers HTTP, is probed from the
 * server the source points at:
 *   - the cluster: the one cluster in `system.clusters` with two or more shards of which this
 *     server is one (`is_local`); Debian's sample clusters (`test_…`) are ignored. None, or more
 *     than one: not a cluster source (tables stay on this server).
 *   - a shard's HTTP address: its host from `system.clusters` and the port of its `http_port`
 *     macro (read through `remote()`), or, without that macro, the source's own port (the usual
 *     layout: one port on every machine). Each address is checked to be that shard (its own
 *     `system.clusters` row is the local one); an address that is not makes the source a
 *     non-cluster one rather than writing a shard twice.
 */

const dialect = getDialect('clickhouse');
const q = (name: string) => dialect.quoteIdentifier(name);
const str = (text: string) => dialect.escapeString(text);

/** The local table under a Distributed table of ShuTu's. */
export const localTableName = (name: string): string => `${name}_local`;

export interface ShardEndpoint {
  shard: number;
  host: string;
  tcpPort: number;
  /** http://host:port of the shard's HTTP interface. */
  url: string;
  isLocal: boolean;
}

export interface ClusterLayout {
  cluster: string;
  shards: ShardEndpoint[];
}

/** How the driver's own client is reached, and how to open one on another shard. */
export interface ClusterAccess {
  /** The connected server's client (the data source's). */
  client: ClickHouseClient;
  /** The source's host and HTTP port. */
  host: string;
  port: number;
  username: string;
  password: string;
  database: string;
}

const hostUrl = (host: string, port: number) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

async function text(client: ClickHouseClient, query: string): Promise<string> {
  return (await (await client.query({ query, format: 'TabSeparated' })).text()).trim();
}

function openClient(access: ClusterAccess, url: string): ClickHouseClient {
  return createClient({
    url,
    username: access.username,
    password: access.password,
    database: access.database,
    application: 'shutu',
    request_timeout: 6 * 3600_000,
    log: { level: ClickHouseLogLevel.OFF },
  });
}

/** The cluster the connected server is a shard of, with each shard's HTTP address; null when none (or not one). */
export async function probeClusterLayout(access: ClusterAccess): Promise<ClusterLayout | null> {
  const listing = await text(
    access.client,
    `SELECT cluster, shard_num, host_address, port, is_local FROM system.clusters WHERE replica_num = 1 AND cluster NOT LIKE 'test\\_%' ORDER BY cluster, shard_num`,
  );
  const byCluster = new Map<string, ShardEndpoint[]>();
  for (const line of listing.split('\n').filter(Boolean)) {
    const [cluster, shard, host, port, isLocal] = line.split('\t');
    const list = byCluster.get(cluster!) ?? [];
    list.push({ shard: Number(shard), host: host!, tcpPort: Number(port), url: '', isLocal: isLocal === '1' });
    byCluster.set(cluster!, list);
  }
  const candidates = [...byCluster].filter(([, shards]) => shards.length >= 2 && shards.some((s) => s.isLocal));
  if (candidates.length !== 1) return null;
  const [cluster, shards] = candidates[0]!;
  for (const shard of shards) {
    if (shard.isLocal) {
      shard.url = hostUrl(access.host, access.port);
      continue;
    }
    const remote = `remote(${str(`${shard.host.includes(':') ? `[${shard.host}]` : shard.host}:${shard.tcpPort}`)}, system.macros)`;
    const macro = await text(access.client, `SELECT substitution FROM ${remote} WHERE macro = 'http_port'`);
    shard.url = hostUrl(shard.host, /^\d+$/.test(macro) ? Number(macro) : access.port);
  }
  // Each address must be its shard: its own local row names the shard's native port.
  for (const shard of shards.filter((s) => !s.isLocal)) {
    const client = openClient(access, shard.url);
    try {
      const own = await text(client, `SELECT port FROM system.clusters WHERE cluster = ${str(cluster)} AND is_local = 1 AND replica_num = 1`).catch(() => '');
      if (own !== String(shard.tcpPort)) return null;
    } finally {
      await client.close();
    }
  }
  return { cluster, shards };
}

/** The parts of a Distributed table's engine: `Distributed(cluster, 'db', local, key)`. */
interface DistributedEngine {
  cluster: string;
  local: string;
  key: string;
}

/** Splits the engine's arguments at top-level commas (the key may be an expression with commas). */
function engineArguments(inner: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let current = '';
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!;
    if (quote) {
      current += c;
      if (c === '\\') current += inner[++i] ?? '';
      else if (c === quote) quote = null;
    } else if (c === "'" || c === '`' || c === '"') {
      quote = c;
      current += c;
    } else if (c === '(') {
      depth++;
      current += c;
    } else if (c === ')') {
      depth--;
      current += c;
    } else if (c === ',' && depth === 0) {
      out.push(current.trim());
      current = '';
    } else current += c;
  }
  out.push(current.trim());
  return out;
}

/** An identifier or string argument as its plain name. */
function plainName(argument: string): string {
  const quoted = /^(['`"])(.*)\1$/s.exec(argument);
  return quoted ? quoted[2]!.replace(/\\(.)/g, '$1') : argument;
}

export function parseDistributedEngine(engineFull: string): DistributedEngine | null {
  const match = /^Distributed\((.*)\)$/s.exec(engineFull.trim());
  if (!match) return null;
  const args = engineArguments(match[1]!);
  if (args.length < 3) return null;
  return { cluster: plainName(args[0]!), local: plainName(args[2]!), key: args[3] ?? 'rand()' };
}

/** The shards of one cluster source, each with its own client: the DDL of ShuTu's tables on all of them. */
export class ClusterTables {
  private readonly clients: ClickHouseClient[];

  constructor(
    readonly layout: ClusterLayout,
    private readonly access: ClusterAccess,
  ) {
    this.clients = layout.shards.map((s) => (s.isLocal ? access.client : openClient(access, s.url)));
  }

  private database(schema: string | undefined): string {
    return schema ?? this.access.database;
  }

  private qualified(schema: string | undefined, name: string): string {
    return `${q(this.database(schema))}.${q(name)}`;
  }

  private async onEveryShard(statements: (string | null)[]): Promise<void> {
    for (const client of this.clients) for (const query of statements) if (query) await client.command({ query });
  }

  private distributedDdl(schema: string | undefined, name: string, local: string, key: string): string {
    const engine = `Distributed(${q(this.layout.cluster)}, ${str(this.database(schema))}, ${q(local)}, ${key})`;
    return `CREATE TABLE ${this.qualified(schema, name)} AS ${this.qualified(schema, local)} ENGINE = ${engine}`;
  }

  /**
   * Creates `name` on every shard: `name_local` with the given columns (MergeTree) and `name`
   * over it. A failure half-way removes what was made. Returns the table to insert into.
   */
  async create(schema: string | undefined, name: string, columnsSql: string, tableSuffix: string): Promise<string> {
    const local = localTableName(name);
    try {
      await this.onEveryShard([
        `CREATE TABLE ${this.qualified(schema, local)} (${columnsSql}) ENGINE = MergeTree() ORDER BY tuple()${tableSuffix}`,
        this.distributedDdl(schema, name, local, 'rand()'),
      ]);
    } catch (error) {
      await this.dropBoth(schema, name, local).catch(() => undefined);
      throw error;
    }
    return this.qualified(schema, name);
  }

  /** The Distributed table `name` of this cluster as the connected server defines it; null for any other table. */
  async distributed(schema: string | undefined, name: string): Promise<DistributedEngine | null> {
    const found = await text(
      this.access.client,
      `SELECT engine_full FROM system.tables WHERE database = ${str(this.database(schema))} AND name = ${str(name)} AND engine = 'Distributed'`,
    );
    const engine = found ? parseDistributedEngine(found.replace(/\\'/g, "'")) : null;
    return engine && engine.cluster === this.layout.cluster ? engine : null;
  }

  private dropBoth(schema: string | undefined, name: string, local: string): Promise<void> {
    return this.onEveryShard([`DROP TABLE IF EXISTS ${this.qualified(schema, name)}`, `DROP TABLE IF EXISTS ${this.qualified(schema, local)}`]);
  }

  /** Drops a Distributed table of the cluster and its local tables on every shard; false when `name` is not one (nothing done). */
  async drop(schema: string | undefined, name: string): Promise<boolean> {
    const engine = await this.distributed(schema, name);
    if (!engine) return false;
    await this.dropBoth(schema, name, engine.local);
    return true;
  }

  /**
   * Renames a Distributed table of the cluster on every shard, its local tables with it
   * (`to_local`), keeping its sharding key; false when `from` is not one (nothing done).
   * Not atomic across shards: for a moment `to` may be missing on a shard (ShuTu renames
   * staging tables no one reads yet).
   */
  async rename(schema: string | undefined, from: string, to: string): Promise<boolean> {
    const engine = await this.distributed(schema, from);
    if (!engine) return false;
    const local = localTableName(to);
    const statements = [
      engine.local === local ? null : `RENAME TABLE ${this.qualified(schema, engine.local)} TO ${this.qualified(schema, local)}`,
      `DROP TABLE IF EXISTS ${this.qualified(schema, from)}`,
      this.distributedDdl(schema, to, local, engine.key),
    ];
    for (const client of this.clients) for (const query of statements) if (query) await client.command({ query });
    return true;
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.filter((c) => c !== this.access.client).map((c) => c.close()));
  }
}
