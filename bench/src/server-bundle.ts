/**
 * The server as users run it: the bundle (`node apps/server/dist/main.js serve`, what `npm start`
 * runs) in a process of its own, its DuckDB engine process a child of it. A bench that starts the
 * server in its own process under tsx measures tsx's transpiled code (esbuild's `__name` wrappers
 * on every closure) and shares its thread with the bench's client.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { buildServer } from '../../scripts/build-server.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ServerBundle {
  url: string;
  child: ChildProcess;
  /** The engine process of the server's DuckDB files (the first one found), or null before it started. */
  enginePid(): number | null;
  /** SIGTERM, and waits for the exit (a `--cpu-prof` server writes its profile then). */
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The DuckDB engine process (duckdb-host) among a process's children, or null when it has none. */
export function enginePidOf(parentPid: number): number | null {
  const line = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(parentPid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .find((l) => l.includes('duckdb-host'));
  return line ? Number(line.trim().split(/\s+/)[0]) : null;
}

/** User and system CPU time of a process so far (/proc, ticks of 10 ms), 0 when it is gone. */
export function cpuMillisOf(pid: number | null): number {
  if (pid === null) return 0;
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** Starts the bundle with `env` on a free port of 127.0.0.1 and waits for `/api/health`. */
export async function startServerBundle(env: Record<string, string | undefined>, nodeArgs: string[] = []): Promise<ServerBundle> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, await buildServer(), 'serve'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited early (${child.exitCode})`);
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 1500) {
      child.kill('SIGKILL');
      throw new Error('the server did not start in 5 minutes');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  let engine: number | null = null;
  return {
    url,
    child,
    enginePid() {
      if (engine !== null && fs.existsSync(`/proc/${engine}`)) return engine;
      engine = enginePidOf(child.pid!);
      return engine;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
