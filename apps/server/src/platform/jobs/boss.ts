import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { MetadataStore } from '../db/store.ts';

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
  handle(data: T): Promise<void>;
}

export interface JobsOptions {
  /**
   * Run handlers in this process from the start (worker role, tests). `serve` passes false and
   * calls work() once it listens: a handler that renders the server's own pages needs its URL.
   */
  work: boolean;
  pollingIntervalSeconds?: number;
}

/**
 * pg-boss on the metadata store. On PGlite it runs through the store's own connection
 * (its `db` option); on PostgreSQL it opens its own small pool.
 */
export class Jobs {
  private working = false;

  private constructor(
    readonly boss: PgBoss,
    private readonly log: Logger,
    private readonly definitions: JobDefinition[],
    private readonly pollingIntervalSeconds: number,
  ) {}

  static async start(store: MetadataStore, log: Logger, definitions: JobDefinition[], options: JobsOptions): Promise<Jobs> {
    const boss = store.connectionString
      ? new PgBoss({ connectionString: store.connectionString, max: 3, schema: 'pgboss' })
      : new PgBoss({ db: { executeSql: (text: string, values: unknown[]) => store.executeSql(text, values) }, schema: 'pgboss' });
    boss.on('error', (err: Error) => log.error({ err }, 'job queue error'));
    await boss.start();
    for (const def of definitions) {
      await boss.createQueue(def.name, def.policy ? { name: def.name, policy: def.policy } : undefined);
      if (def.cron) await boss.schedule(def.name, def.cron, {}, { tz: 'UTC' });
    }
    const jobs = new Jobs(boss, log, definitions, options.pollingIntervalSeconds ?? 2);
    if (options.work) await jobs.work();
    return jobs;
  }

  /** Starts running handlers in this process (once), then sends the jobs that run at start. */
  async work(): Promise<void> {
    if (this.working) return;
    this.working = true;
    for (const def of this.definitions) {
      await this.boss.work(def.name, { pollingIntervalSeconds: this.pollingIntervalSeconds }, async (jobs) => {
        for (const job of jobs) {
          this.log.info({ job: def.name, id: job.id }, 'job started');
          await def.handle(job.data as object);
          this.log.info({ job: def.name, id: job.id }, 'job finished');
        }
      });
    }
    for (const def of this.definitions.filter((d) => d.runAtStart)) await this.boss.send(def.name, {});
  }

  send(name: string, data: object = {}, options: PgBoss.SendOptions = {}): Promise<string | null> {
    return this.boss.send(name, data, options);
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }
}
