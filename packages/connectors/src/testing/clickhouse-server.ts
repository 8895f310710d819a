import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A throwaway ClickHouse server for the tests: Debian's clickhouse-server (18.16), installed
 * with apt-get when missing, started on 127.0.0.1 with a free HTTP port and a temporary data
 * directory, stopped (and the directory removed) by `stop()`.
 */
export interface ClickHouseServer {
  port: number;
  version: string;
  stop(): Promise<void>;
}

const CANDIDATES = ['/usr/bin/clickhouse-server', '/usr/sbin/clickhouse-server', '/usr/bin/clickhouse'];

function findBinary(): string | null {
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

/** Installs the Debian package (under a lock, so parallel test files do not race apt). */
function install(): string {
  const script =
    'command -v clickhouse-server >/dev/null 2>&1 || [ -x /usr/sbin/clickhouse-server ] || ' +
    'apt-get install -y -q -o DPkg::Lock::Timeout=300 clickhouse-server || ' +
    '(apt-get update -q -o DPkg::Lock::Timeout=300 && apt-get install -y -q -o DPkg::Lock::Timeout=300 clickhouse-server)';
  const result = spawnSync('flock', [path.join(os.tmpdir(), 'shutu-clickhouse-apt.lock'), 'sh', '-c', script], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    encoding: 'utf8',
    timeout: 15 * 60_000,
  });
  return `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function config(dir: string, port: number): string {
  const data = `${dir}/data/`;
  return `<?xml version="1.0"?>
<yandex>
  <logger><level>error</level><log>${dir}/server.log</log><errorlog>${dir}/error.log</errorlog></logger>
  <http_port>${port}</http_port>
  <listen_host>127.0.0.1</listen_host>
  <path>${data}</path>
  <tmp_path>${data}tmp/</tmp_path>
  <user_files_path>${data}user_files/</user_files_path>
  <format_schema_path>${data}format_schemas/</format_schema_path>
  <users_config>${dir}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <max_concurrent_queries>50</max_concurrent_queries>
  <mark_cache_size>268435456</mark_cache_size>
  <uncompressed_cache_size>268435456</uncompressed_cache_size>
</yandex>
`;
}

const USERS = `<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>2000000000</max_memory_usage></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip><ip>::1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
`;

async function waitReady(port: number, child: ChildProcess, log: () => string): Promise<string> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`clickhouse-server exited with ${child.exitCode}: ${log()}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/?query=SELECT%20version()`, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return (await response.text()).trim();
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`clickhouse-server did not answer on port ${port} within 60 s: ${log()}`);
}

/** Starts a server; null when none can be had and `required` is false. */
export async function startClickHouse(required: boolean): Promise<ClickHouseServer | null> {
  let binary = findBinary();
  let installLog = '';
  if (!binary) {
    installLog = install();
    binary = findBinary();
  }
  if (!binary) {
    if (required) throw new Error(`clickhouse-server is not installed and apt-get could not install it:\n${installLog.slice(-2000)}`);
    return null;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'shutu-clickhouse-'));
  const port = await freePort();
  writeFileSync(path.join(dir, 'config.xml'), config(dir, port));
  writeFileSync(path.join(dir, 'users.xml'), USERS);
  const args = binary.endsWith('/clickhouse') ? ['server', `--config-file=${dir}/config.xml`] : [`--config-file=${dir}/config.xml`];
  const child = spawn(binary, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const version = await waitReady(port, child, () => stderr);
    return { port, version, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
