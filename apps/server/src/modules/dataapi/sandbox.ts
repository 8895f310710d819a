import { Worker } from 'node:worker_threads';
import { dataApiMessages, formatMessage } from '@shutu/contracts';
import { AppError, badRequest } from '../../platform/http/errors.ts';

/**
 * The JavaScript handler sandbox (docs/dataapi.md "The handler sandbox"): QuickJS in worker
 * threads (sandbox-worker.mjs), a fresh runtime and context per call, no network, no modules,
 * 32 MB of memory, interrupted at 200 ms. A call that has not answered after 1 s of wall clock
 * — an interrupt that never comes, a memory bomb outside QuickJS' own accounting — gets its
 * whole worker terminated and replaced; the other workers keep serving. A handler is plain
 * source of a function expression `function (data, params) { … }`; it gets the external
 * answer and the call's parameters as JSON and returns JSON.
 */

export const SANDBOX_WALL_CLOCK_MS = 1_000;
const POOL_SIZE = 2;
const MAX_QUEUED = 200;

interface Job {
  kind: 'run' | 'check';
  source: string;
  input?: string;
}

interface Reply {
  id: number;
  ok: boolean;
  value?: string | null;
  error?: { kind: 'interrupt' | 'memory' | 'syntax' | 'error' | 'notFunction'; message: string };
}

interface Pending {
  job: Job;
  resolve(reply: Reply): void;
  reject(error: Error): void;
}

class Slot {
  worker: Worker;
  ready: Promise<void>;
  busy = false;

  constructor() {
    this.worker = new Worker(new URL('./sandbox-worker.mjs', import.meta.url));
    this.worker.unref();
    this.ready = new Promise((resolve, reject) => {
      const onMessage = (message: { ready?: boolean }) => {
        if (message.ready) {
          this.worker.off('message', onMessage);
          resolve();
        }
      };
      this.worker.on('message', onMessage);
      this.worker.once('error', reject);
    });
    // A start-up failure is reported to the job that waits for it; never unhandled.
    this.ready.catch(() => undefined);
  }
}

let nextId = 1;

export class SandboxPool {
  private slots: Slot[] = [];
  private queue: Pending[] = [];

  constructor(private readonly size = POOL_SIZE) {}

  /** Runs a job on a free worker (starting workers on first use), queued while all are busy. */
  submit(job: Job): Promise<Reply> {
    if (this.queue.length >= MAX_QUEUED) return Promise.reject(new AppError(503, dataApiMessages.rateLimited));
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => !s.busy);
      if (!slot && this.slots.length < this.size) {
        slot = new Slot();
        this.slots.push(slot);
      }
      if (!slot) return;
      this.dispatch(slot, this.queue.shift()!);
    }
  }

  private dispatch(slot: Slot, pending: Pending): void {
    slot.busy = true;
    const id = nextId++;
    let settled = false;
    const finish = (fn: () => void, replace: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      slot.worker.off('message', onMessage);
      slot.worker.off('error', onError);
      if (replace) {
        void slot.worker.terminate();
        this.slots = this.slots.filter((s) => s !== slot);
      } else slot.busy = false;
      fn();
      this.pump();
    };
    const onMessage = (reply: Reply) => {
      if (reply.id === id) finish(() => pending.resolve(reply), false);
    };
    const onError = (error: Error) => finish(() => pending.reject(error), true);
    // The wall clock runs from dispatch: start-up of a new worker is part of its second.
    const timer = setTimeout(() => finish(() => pending.reject(new AppError(400, dataApiMessages.handlerKilled)), true), SANDBOX_WALL_CLOCK_MS);
    slot.worker.on('message', onMessage);
    slot.worker.on('error', onError);
    slot.ready.then(
      () => {
        if (!settled) slot.worker.postMessage({ id, ...pending.job });
      },
      (error: Error) => finish(() => pending.reject(error), true),
    );
  }

  /** Stops every worker (tests). */
  async close(): Promise<void> {
    const slots = this.slots;
    this.slots = [];
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}

let shared: SandboxPool | undefined;
/** The process's pool. */
export function sandboxPool(): SandboxPool {
  shared ??= new SandboxPool();
  return shared;
}

function handlerFailure(error: NonNullable<Reply['error']>): AppError {
  if (error.kind === 'interrupt') return new AppError(400, dataApiMessages.handlerTimeout);
  if (error.kind === 'memory') return new AppError(400, dataApiMessages.handlerMemory);
  return new AppError(400, formatMessage(dataApiMessages.handlerError, { detail: error.message }));
}

/** Runs the handler on `data` and `params`; its JSON answer, or a 400 saying what stopped it. */
export async function runHandler(source: string, data: unknown, params: Record<string, unknown>, pool = sandboxPool()): Promise<unknown> {
  const reply = await pool.submit({ kind: 'run', source, input: JSON.stringify({ data: data ?? null, params }) });
  if (!reply.ok) throw handlerFailure(reply.error!);
  return JSON.parse(reply.value ?? 'null') as unknown;
}

/** A handler's source at save: a function expression that compiles, else 400 请检查语法. */
export async function checkHandlerSyntax(source: string, pool = sandboxPool()): Promise<void> {
  const reply = await pool.submit({ kind: 'check', source });
  if (reply.ok) return;
  const message = reply.error?.kind === 'notFunction' ? dataApiMessages.handlerNotFunction : dataApiMessages.checkSyntax;
  throw badRequest(dataApiMessages.checkSyntax, [{ field: 'apiJsFunction', message }]);
}
