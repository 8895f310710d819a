import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { DataSourceConfig } from '../types.ts';

/**
 * A two-shard ClickHouse cluster on this machine (issue 27): Debian's clickhouse-server (18.16),
 * one server process per shard on 127.0.0.1, each with its own ports, data directory, config and
 * log under `baseDir/shardN/`, and one `remote_servers` definition (cluster `shutu_cluster`)
 * naming both shards by their native TCP port. Either shard answers a query on a `Distributed`
 * table for the whole cluster, so a ShuTu ClickHouse data source points at shard 1's HTTP port.
 * Each shard's `http_port` macro is its HTTP port: the driver finds the other shard's HTTP
 * interface by it to create the tables it writes on every shard (clickhouse-cluster.ts).
 *
 * Starting is idempotent: a shard whose recorded process still answers on its port is kept, a
 * stopped one is started again on the same data. Nothing is downloaded: the installed binary
 * only (installed with apt-get, as the tests' single server is, when missing).
 */

export const CLUSTER_NAME = 'shutu_cluster';

export interface ShardPorts {
  /** HTTP interface (the driver's). */
  http: number;
  /** Native TCP protocol (Distributed tables reach the other shard through it). */
  tcp: number;
}

/** Ports of `npm run cluster` and the script when none are given. */
export const DEFAULT_PORTS: readonly ShardPorts[] = [
  { http: 18123, tcp: 19000 },
  { http: 18124, tcp: 19001 },
];

export interface ClusterOptions {
  /** Where the shards' directories and `cluster.json` live. */
  baseDir: string;
  /**
   * One entry per shard (two); default DEFAULT_PORTS. Ignored for shards already running.
   * 'free' (test clusters): free ports, chosen again when one is taken before its shard listens.
   */
  ports?: readonly ShardPorts[] | 'free';
  /**
   * false (tests): the servers are killed when this Node process exits. Default true: they
   * outlive the script that started them (stop them with stopClickHouseCluster).
   */
  keepRunning?: boolean;
}

export interface ShardState extends ShardPorts {
  pid: number;
  dir: string;
}

export interface ClickHouseCluster {
  baseDir: string;
  clusterName: string;
  shards: ShardState[];
  version: string;
  /** A driver config for shard 1 (any shard answers for the whole cluster). */
  config: DataSourceConfig;
  /** Stops both servers (their data stays under baseDir). */
  stop(): Promise<void>;
}

const BINARIES = ['/usr/sbin/clickhouse-server', '/usr/bin/clickhouse-server', '/usr/bin/clickhouse'];
const STATE_FILE = 'cluster.json';

function findBinary(): string | null {
  return BINARIES.find((p) => existsSync(p)) ?? null;
}

/** The binary, installed from Debian's packages (under the tests' apt lock) when missing. */
export function ensureClickHouseBinary(): string {
  const found = findBinary();
  if (found) return found;
  const script =
    'apt-get install -y -q -o DPkg::Lock::Timeout=300 clickhouse-server || ' +
    '(apt-get update -q -o DPkg::Lock::Timeout=300 && apt-get install -y -q -o DPkg::Lock::Timeout=300 clickhouse-server)';
  const result = spawnSync('flock', [path.join(os.tmpdir(), 'shutu-clickhouse-apt.lock'), 'sh', '-c', script], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    encoding: 'utf8',
    timeout: 15 * 60_000,
  });
  const binary = findBinary();
  if (!binary) throw new Error(`clickhouse-server is not installed and apt-get could not install it:\n${`${result.stdout}${result.stderr}`.slice(-2000)}`);
  return binary;
}

/** Whether a port is free on 127.0.0.1 now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * Free local ports for a test cluster (two per shard), below Linux's ephemeral range (32768 on):
 * a port the kernel handed out as free could be given to an outgoing connection before the shard
 * listens on it (a CI run failed with "Address already in use" that way).
 */
export async function freeShardPorts(shards = 2): Promise<ShardPorts[]> {
  const taken = new Set<number>();
  const one = async () => {
    for (;;) {
      const port = 20_000 + Math.floor(Math.random() * 12_000);
      if (taken.has(port) || !(await canListen(port))) continue;
      taken.add(port);
      return port;
    }
  };
  const out: ShardPorts[] = [];
  for (let i = 0; i < shards; i++) out.push({ http: await one(), tcp: await one() });
  return out;
}

function remoteServers(all: readonly ShardPorts[]): string {
  const shards = all.map((p) => `<shard><replica><host>127.0.0.1</host><port>${p.tcp}</port></replica></shard>`).join('');
  return `<remote_servers><${CLUSTER_NAME}>${shards}</${CLUSTER_NAME}></remote_servers>`;
}

function serverConfig(dir: string, own: ShardPorts, all: readonly ShardPorts[]): string {
  const data = `${dir}/data/`;
  return `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>${dir}/server.log</log><errorlog>${dir}/error.log</errorlog><size>10M</size><count>2</count></logger>
  <http_port>${own.http}</http_port>
  <tcp_port>${own.tcp}</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>${data}</path>
  <tmp_path>${data}tmp/</tmp_path>
  <user_files_path>${data}user_files/</user_files_path>
  <format_schema_path>${data}format_schemas/</format_schema_path>
  <users_config>${dir}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <max_concurrent_queries>100</max_concurrent_queries>
  <mark_cache_size>134217728</mark_cache_size>
  <uncompressed_cache_size>134217728</uncompressed_cache_size>
  ${remoteServers(all)}
  <macros><http_port>${own.http}</http_port></macros>
</yandex>
`;
}

// Distributed queries pass the initiator's settings on to the other shard: the same profile
// on both sides keeps a read-only query read-only there too.
const USERS = `<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>2000000000</max_memory_usage></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip><ip>::1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
`;

interface SavedState {
  shards: ShardState[];
}

function readState(baseDir: string): SavedState | null {
  try {
    return JSON.parse(readFileSync(path.join(baseDir, STATE_FILE), 'utf8')) as SavedState;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The server's version when it answers on `port`, else null. */
export async function ping(port: number, timeoutMs = 1000): Promise<string | null> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/?query=SELECT%20version()`, { signal: AbortSignal.timeout(timeoutMs) });
    return response.ok ? (await response.text()).trim() : null;
  } catch {
    return null;
  }
}

async function waitReady(shard: ShardState): Promise<string> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const version = await ping(shard.http);
    if (version) return version;
    if (!alive(shard.pid)) break;
    await new Promise((r) => setTimeout(r, 150));
  }
  const log = (name: string) => {
    try {
      return readFileSync(path.join(shard.dir, name), 'utf8').slice(-2000);
    } catch {
      return '';
    }
  };
  throw new Error(`clickhouse-server of ${shard.dir} did not answer on port ${shard.http} within 60 s: ${log('stderr.log')}${log('error.log')}`);
}

function launch(binary: string, dir: string, own: ShardPorts, all: readonly ShardPorts[]): number {
  mkdirSync(path.join(dir, 'data'), { recursive: true });
  writeFileSync(path.join(dir, 'config.xml'), serverConfig(dir, own, all));
  writeFileSync(path.join(dir, 'users.xml'), USERS);
  const err = openSync(path.join(dir, 'stderr.log'), 'a');
  const args = binary.endsWith('/clickhouse') ? ['server', `--config-file=${dir}/config.xml`] : [`--config-file=${dir}/config.xml`];
  // Detached: the servers outlive the script that started them (its own process group).
  const child = spawn(binary, args, { cwd: dir, detached: true, stdio: ['ignore', 'ignore', err] });
  closeSync(err);
  child.unref();
  return child.pid!;
}

async function terminate(pid: number): Promise<void> {
  if (!alive(pid)) return;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 15_000;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
}

/** Stops the cluster recorded under baseDir (a no-op when nothing runs). Data is kept. */
export async function stopClickHouseCluster(baseDir: string): Promise<void> {
  const state = readState(baseDir);
  if (!state) return;
  await Promise.all(state.shards.map((s) => terminate(s.pid)));
}

/** Starts (or finds running) the two shards under baseDir and waits until both answer. */
export async function startClickHouseCluster(options: ClusterOptions): Promise<ClickHouseCluster> {
  if (options.ports !== 'free' || readState(path.resolve(options.baseDir))) return startOn(options, options.ports === 'free' ? undefined : options.ports);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(options, await freeShardPorts());
    } catch (error) {
      // Taken between the choice and the shard's listen: choose again (the failed start left no state).
      if (attempt >= 3 || !/Address already in use/i.test(String(error))) throw error;
      rmSync(path.join(path.resolve(options.baseDir), STATE_FILE), { force: true });
    }
  }
}

async function startOn(options: ClusterOptions, given: readonly ShardPorts[] | undefined): Promise<ClickHouseCluster> {
  const baseDir = path.resolve(options.baseDir);
  mkdirSync(baseDir, { recursive: true });
  const saved = readState(baseDir);
  const ports = saved?.shards.map(({ http, tcp }) => ({ http, tcp })) ?? given ?? DEFAULT_PORTS;
  if (ports.length !== 2) throw new Error(`a cluster has two shards: ${ports.length} port pairs given`);
  let binary: string | null = null;
  const shards: ShardState[] = [];
  for (const [i, own] of ports.entries()) {
    const dir = path.join(baseDir, `shard${i + 1}`);
    const previous = saved?.shards[i];
    if (previous && alive(previous.pid) && (await ping(own.http))) {
      shards.push(previous);
      continue;
    }
    binary ??= ensureClickHouseBinary();
    shards.push({ ...own, dir, pid: launch(binary, dir, own, ports) });
  }
  writeFileSync(path.join(baseDir, STATE_FILE), `${JSON.stringify({ shards }, null, 2)}\n`);
  let killOnExit: (() => void) | null = null;
  if (options.keepRunning === false) {
    killOnExit = () => shards.forEach((s) => alive(s.pid) && process.kill(s.pid, 'SIGKILL'));
    process.once('exit', killOnExit);
  }
  const stop = async () => {
    if (killOnExit) process.removeListener('exit', killOnExit);
    await stopClickHouseCluster(baseDir);
  };
  try {
    const versions = await Promise.all(shards.map(waitReady));
    return {
      baseDir,
      clusterName: CLUSTER_NAME,
      shards,
      version: versions[0]!,
      config: { type: 'clickhouse', host: '127.0.0.1', port: shards[0]!.http, user: 'default', password: '', database: 'default' },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export interface ShardStatus extends ShardState {
  running: boolean;
  version: string | null;
}

/** What runs under baseDir: each shard's ports, process and version (null when not answering). */
export async function clusterStatus(baseDir: string): Promise<ShardStatus[]> {
  const state = readState(path.resolve(baseDir));
  if (!state) return [];
  return Promise.all(
    state.shards.map(async (s) => {
      const version = alive(s.pid) ? await ping(s.http) : null;
      return { ...s, running: version !== null, version };
    }),
  );
}

/** Stops the cluster and removes baseDir (tests). */
export async function removeClickHouseCluster(baseDir: string): Promise<void> {
  await stopClickHouseCluster(baseDir);
  rmSync(baseDir, { recursive: true, force: true });
}
