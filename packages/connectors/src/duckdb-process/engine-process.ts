import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { connectorError } from '../errors.ts';
import type { DataSourceConfig } from '../types.ts';
import { fromWire, toWire, type FromEngine, type ToEngine, type UnaryMethod } from './protocol.ts';

/** How long a closing engine may take to finish its work before it is killed. */
const CLOSE_GRACE_MS = 10_000;

/** The engine's entry: the bundle's duckdb-host.js beside this code, else the TypeScript source under tsx. */
function hostEntry(): { file: string; execArgv: string[] } {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const bundled = path.join(here, 'duckdb-host.js');
  if (fs.existsSync(bundled)) return { file: bundled, execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { file: path.join(here, 'duckdb-host.ts'), execArgv: ['--import', tsx] };
}

/** Receives the engine's messages about one request. */
export type ReplyHandler = (message: FromEngine) => void;

/**
 * One engine process of one database file (duckdb-host.ts), started on first use and again after
 * it died; every request in flight when it dies fails with 数据仓库引擎进程已退出. The server
 * process stays alive only while requests are in flight (the child and its channel are unref'd
 * when idle), so a script's last await still waits for its answer.
 */
export class EngineProcess {
  private child: ChildProcess | null = null;
  private nextId = 1;
  private readonly handlers = new Map<number, ReplyHandler>();
  /** Each request's first message until the channel took it: sent again to a new engine when the old one died first. */
  private readonly unsent = new Map<number, ToEngine>();
  private exited: Promise<void> = Promise.resolve();
  private closing = false;

  constructor(
    private readonly config: DataSourceConfig,
    /** A previous engine of the same file that is still exiting: its lock must be gone first. */
    private readonly previous: Promise<void> = Promise.resolve(),
  ) {}

  private async started(): Promise<ChildProcess> {
    if (this.closing) throw connectorError('closed', 'closed');
    await this.previous;
    if (this.closing) throw connectorError('closed', 'closed');
    if (this.child) return this.child;
    const entry = hostEntry();
    const child = fork(entry.file, [], { execArgv: entry.execArgv, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.on('message', (message: FromEngine) => {
      if ('id' in message) this.handlers.get(message.id)?.(message);
    });
    const gone = (reason: string) => {
      if (this.child !== child) return;
      this.child = null;
      const error = connectorError('unreachable', 'engineExited', { reason });
      const again: [number, ToEngine][] = [];
      for (const [id, handler] of [...this.handlers]) {
        const first = this.unsent.get(id);
        // Never reached the engine (it died before the channel took it): a new engine answers it.
        if (first && !this.closing) again.push([id, first]);
        else {
          this.handlers.delete(id);
          handler({ t: 'error', id, error: toWire(error) });
        }
      }
      if (again.length > 0)
        void this.started().then(
          () => again.forEach(([id, first]) => this.deliver(id, first)),
          (closed: unknown) => again.forEach(([id]) => this.handlers.get(id)?.({ t: 'error', id, error: toWire(closed) })),
        );
    };
    child.once('exit', (code, signal) => gone(signal ?? `退出码 ${code}`));
    child.once('error', (error) => gone(error.message));
    this.post({ t: 'open', config: this.config });
    this.idle();
    return child;
  }

  /** Keeps this process alive while requests are in flight, and only then. */
  private idle(): void {
    const child = this.child;
    if (!child) return;
    const busy = this.handlers.size > 0;
    const channel = child.channel as { ref(): void; unref(): void } | undefined;
    if (busy) {
      child.ref();
      channel?.ref();
    } else {
      child.unref();
      channel?.unref();
    }
  }

  /** Sends a message; one to an engine that is gone is dropped (its requests fail through `exit`). */
  post(message: ToEngine): void {
    const child = this.child;
    if (!child?.connected) return;
    try {
      child.send(message, () => undefined); // a broken channel ends in `exit`, which fails the requests
    } catch {
      // the channel closed in between: `exit` fails the requests
    }
  }

  /** Sends a request's first message, remembered until the channel has taken it. */
  private deliver(id: number, first: ToEngine): void {
    this.unsent.set(id, first);
    const child = this.child;
    if (!child?.connected) return; // `exit` sends it again to the next engine
    try {
      child.send(first, (error) => {
        if (!error) this.unsent.delete(id);
      });
    } catch {
      // the channel closed in between: `exit` sends it again
    }
  }

  /** Starts a request: `handler` gets every message about it until `finish(id)`. */
  async open(handler: ReplyHandler, first: (id: number) => ToEngine): Promise<number> {
    await this.started();
    const id = this.nextId++;
    this.handlers.set(id, handler);
    this.idle();
    this.deliver(id, first(id));
    return id;
  }

  finish(id: number): void {
    this.handlers.delete(id);
    this.unsent.delete(id);
    this.idle();
  }

  /** One call answered with one value; the signal, when given, cancels it in the engine. */
  call<T>(method: UnaryMethod, args: unknown[], signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    return new Promise<T>((resolve, reject) => {
      let requestId = 0;
      const onAbort = () => this.post({ t: 'cancel', id: requestId });
      const handler: ReplyHandler = (message) => {
        if (message.t !== 'result' && message.t !== 'error') return;
        this.finish(message.id);
        signal?.removeEventListener('abort', onAbort);
        if (message.t === 'result') resolve(message.value as T);
        else reject(fromWire(message.error));
      };
      this.open(handler, (id) => ({ t: 'call', id, method, args, cancellable: signal !== undefined }))
        .then((id) => {
          requestId = id;
          signal?.addEventListener('abort', onAbort, { once: true });
          if (signal?.aborted) onAbort();
        })
        .catch(reject);
    });
  }

  /** Asks the engine to close its file and exit; kills it when it does not within the grace period. */
  async close(): Promise<void> {
    this.closing = true;
    const child = this.child;
    if (!child) return;
    this.post({ t: 'close' });
    child.ref();
    const timer = setTimeout(() => child.kill('SIGKILL'), CLOSE_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }
}

interface Shared {
  engine: EngineProcess;
  users: number;
}

const shared = new Map<string, Shared>();
/** Engines being closed, by file: a new engine of the file starts after the old one exited. */
const closing = new Map<string, Promise<void>>();

/**
 * The engine process of a database file, shared by every driver of that file in this server (one
 * process may hold a DuckDB file). `:memory:` databases get one engine per driver.
 */
export function acquireEngine(config: DataSourceConfig, key: string): EngineProcess {
  const found = shared.get(key);
  if (found) {
    found.users += 1;
    return found.engine;
  }
  const engine = new EngineProcess(config, closing.get(key));
  shared.set(key, { engine, users: 1 });
  return engine;
}

export async function releaseEngine(key: string): Promise<void> {
  const found = shared.get(key);
  if (!found) return;
  found.users -= 1;
  if (found.users > 0) return;
  shared.delete(key);
  const done = found.engine.close().finally(() => {
    if (closing.get(key) === done) closing.delete(key);
  });
  closing.set(key, done);
  await done;
}
