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
  handle(data: T): Promise<void>;
}

export interface JobsOptions {
  /** Run handlers in this process (serve and worker roles); a pure API node only sends. */
  work: boolean;
  pollingIntervalSeconds?: number;
}

/**
 * pg-boss on the metadata store. On PGlite it runs through the store's own connection
 * (its `db` option); on PostgreSQL it opens its own small pool.
 */
export class Jobs {
  private constructor(readonly boss: PgBoss) {}

  static async start(store: MetadataStore, log: Logger, definitions: JobDefinition[], options: JobsOptions): Promise<Jobs> {
    const boss = store.connectionString
      ? new PgBoss({ connectionString: store.connectionString, max: 3, schema: 'pgboss' })
      : new PgBoss({ db: { executeSql: (text: string, values: unknown[]) => store.executeSql(text, values) }, schema: 'pgboss' });
    boss.on('error', (err: Error) => log.error({ err }, 'job queue error'));
    await boss.start();
    for (const def of definitions) {
      await boss.createQueue(def.name, def.policy ? { name: def.name, policy: def.policy } : undefined);
      if (def.cron) await boss.schedule(def.name, def.cron, {}, { tz: 'UTC' });
      if (options.work) {
        await boss.work(def.name, { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 }, async (jobs) => {
          for (const job of jobs) {
            log.info({ job: def.name, id: job.id }, 'job started');
            await def.handle(job.data as object);
            log.info({ job: def.name, id: job.id }, 'job finished');
          }
        });
      }
    }
    return new Jobs(boss);
  }

  send(name: string, data: object = {}, options: PgBoss.SendOptions = {}): Promise<string | null> {
    return this.boss.send(name, data, options);
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }
}
