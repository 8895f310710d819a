import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { MetadataStore } from '../db/store.ts';
import {
  findOrphanedJobs,
  finishRun,
  forgetDeadInstances,
  heartbeat,
  HEARTBEAT_MS,
  jobStillRunning,
  recordRun,
  registerInstance,
  STALE_AFTER_MS,
  SWEEP_EVERY_MS,
  takeAbandonedRuns,
  unregisterInstance,
} from './recovery.ts';

/**
 * How often each queue's worker looks for due jobs. A job this process sends wakes its worker at
 * once (`send`); the poll finds jobs due later (retries, a minute's schedule, which pg-boss
 * itself sends up to 30 s into the minute) and, with a shared PostgreSQL, jobs other processes
 * sent. On the embedded store every job is this process's, and each poll is a query on the
 * server's own thread: 19 queues every 2 s kept PGlite busy 3–5 % of the time at idle, taken
 * from the requests and the warehouse engine (docs/board-speed.md "Per-request overhead").
 */
const POLL_SECONDS = 2;
const EMBEDDED_POLL_SECONDS = 5;

/** One run of a job: which pg-boss job, in which process (platform/jobs/recovery.ts). */
export interface JobRun {
  /** This run's own id (a retry of the same job is another run); tasks record it when they claim. */
  id: string;
  jobId: string;
  instanceId: string;
}

export interface JobDefinition<T extends object = object> {
  name: string;
  /** Cron expression (UTC) for recurring jobs. */
  cron?: string;
  /**
   * pg-boss queue policy (default 'standard'). 'short' keeps at most one queued job per
   * singletonKey: a burst of requests for the same thing (a board's thumbnail) runs once.
   */
  policy?: 'standard' | 'short' | 'singleton' | 'stately';
  /**
   * Also run once when a process starts working (a cron job catching up at once after a restart,
   * instead of at the next minute).
   */
  runAtStart?: boolean;
  /** `run` is absent when a test calls the handler directly. */
  handle(data: T, run?: JobRun): Promise<void>;
  /**
   * The process running this job died (it stopped heart-beating; docs/architecture.md "Jobs").
   * Called once, in a live process, soon after (the recovery sweep), before the pg-boss job is
   * failed on the dead process's behalf — pg-boss then retries it at once if it has retries
   * left (retryLimit), so handlers must be idempotent (claim before work). A job whose work a
   * user sees as a task marks the task of exactly this run failed here (INTERRUPTED_MESSAGE),
   * never leaving it running; a job without a hook is simply retried or failed by pg-boss.
   * A hook that answers 'handed-on' has sent the work again itself (a new job that carries its
   * own attempt count, export/recovery.ts): the dead job is then completed, not retried.
   */
  abandoned?(data: T, run: JobRun): Promise<void | 'handed-on'>;
}

export interface JobsOptions {
  /**
   * Run handlers in this process from the start (worker role, tests). `serve` passes false and
   * calls work() once it listens: a handler that renders the server's own pages needs its URL.
   */
  work: boolean;
  pollingIntervalSeconds?: number;
  /**
   * The embedded store (PGlite) is opened by one process only: when it starts working, every
   * other instance's runs are abandoned at once instead of after STALE_AFTER_MS.
   */
  exclusiveStore?: boolean;
  /** Heartbeat, staleness and sweep periods (tests shorten them). */
  heartbeatMs?: number;
  staleAfterMs?: number;
  sweepEveryMs?: number;
}

/**
 * pg-boss on the metadata store. On PGlite it runs through the store's own connection
 * (its `db` option); on PostgreSQL it opens its own small pool.
 */
export class Jobs {
  private working = false;
  /** This process as a job instance (job_instance.id). */
  readonly instanceId = randomUUID();
  private timers: NodeJS.Timeout[] = [];
  private sweeping: Promise<number> | undefined;
  /** Jobs without a run seen by the last sweep (id → started_on): failed if the next sweep sees them again. */
  private orphanCandidates = new Map<string, string>();
  /** This process's pg-boss worker of each queue (queue name → worker id), once it works. */
  private readonly workers = new Map<string, string>();

  private constructor(
    readonly boss: PgBoss,
    private readonly store: MetadataStore,
    private readonly log: Logger,
    private readonly definitions: JobDefinition[],
    private readonly options: JobsOptions,
  ) {}

  static async start(store: MetadataStore, log: Logger, definitions: JobDefinition[], options: JobsOptions): Promise<Jobs> {
    const boss = store.connectionString
      ? new PgBoss({ connectionString: store.connectionString, max: 3, schema: 'pgboss' })
      : new PgBoss({ db: { executeSql: (text: string, values: unknown[]) => store.executeSql(text, values) }, schema: 'pgboss' });
    boss.on('error', (err: Error) => log.error({ err }, 'job queue error'));
    await boss.start();
    for (const def of definitions) {
      await boss.createQueue(def.name, def.policy ? { name: def.name, policy: def.policy } : undefined);
      // pg-boss makes a due time's job once across processes by a 60 s bucket of its "send it"
      // job, taken from the database's clock, while it decides a time is due by this process's
      // clock corrected by an estimate of the skew: a check a few ms before the minute, judged
      // after it, and the next check 30 s later both sent the minute's job (a fresh-clone CI run
      // saw two of each per-minute tick). The job itself is bucketed by the minute it is created
      // in too, so the second copy of a minute is dropped by pg-boss's singleton index.
      if (def.cron) await boss.schedule(def.name, def.cron, {}, { tz: 'UTC', singletonSeconds: 60 });
    }
    const jobs = new Jobs(boss, store, log, definitions, options);
    if (options.work) await jobs.work();
    return jobs;
  }

  /**
   * Starts running handlers in this process (once): registers the instance and its heartbeat,
   * takes over the runs of dead processes (then every sweepEveryMs), starts the workers, then
   * sends the jobs that run at start.
   */
  async work(): Promise<void> {
    if (this.working) return;
    this.working = true;
    const db = this.store.db;
    await registerInstance(db, this.instanceId);
    this.every(this.options.heartbeatMs ?? HEARTBEAT_MS, () => heartbeat(db, this.instanceId), 'job heartbeat failed');
    await this.recover({ othersAreDead: this.options.exclusiveStore === true });
    this.every(this.options.sweepEveryMs ?? SWEEP_EVERY_MS, () => this.recover(), 'job recovery sweep failed');
    for (const def of this.definitions) {
      const pollingIntervalSeconds = this.options.pollingIntervalSeconds ?? (this.options.exclusiveStore === true ? EMBEDDED_POLL_SECONDS : POLL_SECONDS);
      const workerId = await this.boss.work(def.name, { pollingIntervalSeconds }, async (jobs) => {
        for (const job of jobs) {
          const run: JobRun = { id: randomUUID(), jobId: job.id, instanceId: this.instanceId };
          await recordRun(db, { ...run, queue: def.name, data: job.data });
          this.log.info({ job: def.name, id: job.id, run: run.id }, 'job started');
          try {
            await def.handle(job.data as object, run);
          } finally {
            await finishRun(db, run.id).catch((err: unknown) => this.log.warn({ err, run: run.id }, 'job run not cleared'));
          }
          this.log.info({ job: def.name, id: job.id }, 'job finished');
        }
      });
      this.workers.set(def.name, workerId);
    }
    // Marked, so a start's catch-up run is told apart from its schedule's due-time job (the schedule test counts those).
    for (const def of this.definitions.filter((d) => d.runAtStart)) await this.send(def.name, { atStart: true });
  }

  /**
   * The recovery sweep: takes over the runs of dead processes, hands each to its job's
   * `abandoned` hook, and fails its pg-boss job so pg-boss retries it now (per its retryLimit)
   * rather than after its expiry. Returns how many runs it took over. One sweep at a time.
   */
  recover(options: { othersAreDead?: boolean } = {}): Promise<number> {
    this.sweeping ??= this.sweep(options).finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async sweep({ othersAreDead = false }: { othersAreDead?: boolean }): Promise<number> {
    const db = this.store.db;
    const runs = await takeAbandonedRuns(db, this.instanceId, { staleAfterMs: this.options.staleAfterMs ?? STALE_AFTER_MS, othersAreDead });
    for (const row of runs) {
      const def = this.definitions.find((d) => d.name === row.queue);
      const run: JobRun = { id: row.id, jobId: row.jobId, instanceId: row.instanceId };
      this.log.warn({ job: row.queue, id: row.jobId, run: row.id, instance: row.instanceId }, 'job abandoned by a stopped process: taken over');
      let outcome: void | 'handed-on' = undefined;
      try {
        outcome = await def?.abandoned?.(JSON.parse(row.data) as object, run);
      } catch (err) {
        this.log.error({ err, job: row.queue, run: row.id }, 'abandoned job hook failed');
      }
      // A pg-boss retry of the same job may already run in a live process: then it is that one's.
      if (await jobStillRunning(db, row.jobId)) continue;
      if (outcome === 'handed-on') {
        await this.boss
          .complete(row.queue, row.jobId, { handedOn: true })
          .catch((err: unknown) => this.log.warn({ err, job: row.queue, id: row.jobId }, 'abandoned job not completed'));
        continue;
      }
      await this.boss
        .fail(row.queue, row.jobId, { message: 'interrupted: the process running it stopped' })
        .catch((err: unknown) => this.log.warn({ err, job: row.queue, id: row.jobId }, 'abandoned job not failed'));
    }
    const orphans = await this.failOrphanedJobs(othersAreDead);
    await forgetDeadInstances(db, this.instanceId, othersAreDead);
    return runs.length + orphans;
  }

  /**
   * Fails (so pg-boss retries, per its retryLimit) the jobs a dead process took but never
   * recorded a run for: seen on two sweeps in a row with the same start, or at once when the
   * embedded store says every other process is dead. Returns how many.
   */
  private async failOrphanedJobs(othersAreDead: boolean): Promise<number> {
    const queues = this.definitions.map((d) => d.name);
    const found = await findOrphanedJobs(this.store.db, queues, { staleAfterMs: this.options.staleAfterMs ?? STALE_AFTER_MS, othersAreDead });
    const confirmed = othersAreDead ? found : found.filter((job) => this.orphanCandidates.get(job.id) === job.startedOn);
    this.orphanCandidates = new Map(found.filter((job) => !confirmed.includes(job)).map((job) => [job.id, job.startedOn]));
    for (const job of confirmed) {
      this.log.warn({ job: job.queue, id: job.id }, 'job taken by a stopped process before it recorded a run: failed for a retry');
      await this.boss
        .fail(job.queue, job.id, { message: 'interrupted: the process that took it stopped before running it' })
        .catch((err: unknown) => this.log.warn({ err, job: job.queue, id: job.id }, 'orphaned job not failed'));
    }
    return confirmed.length;
  }

  private every(ms: number, task: () => Promise<unknown>, failure: string): void {
    const timer = setInterval(() => void task().catch((err: unknown) => this.log.warn({ err }, failure)), ms);
    timer.unref();
    this.timers.push(timer);
  }

  /**
   * Queues a job. When this process works that queue its worker looks for it at once instead of
   * at its next poll (up to pollingIntervalSeconds later: a user's export waited ≈ 2 s for it);
   * a worker busy with another job just looks again when that one ends. A job due later
   * (startAfter) is still found by the poll.
   */
  async send(name: string, data: object = {}, options: PgBoss.SendOptions = {}): Promise<string | null> {
    const id = await this.boss.send(name, data, options);
    const worker = this.workers.get(name);
    if (id && worker && options.startAfter === undefined) this.boss.notifyWorker(worker);
    return id;
  }

  /** Stops gracefully; a process that stops says so (its unfinished runs are abandoned at once). */
  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await this.sweeping?.catch(() => undefined);
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    if (this.working) await unregisterInstance(this.store.db, this.instanceId).catch((err: unknown) => this.log.warn({ err }, 'job instance not removed'));
  }
}
