import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { ExecuteSql } from '../db/execute-sql.ts';
import { CACHE_CHANNEL, installTableWatches } from './watch.ts';
import { CACHE_TOPICS, type CacheTopic } from './topics.ts';

export { CACHE_CHANNEL, CACHE_TOPICS, type CacheTopic };

/**
 * The cache bus (docs/scale-out.md): every per-process cache of metadata belongs to a topic, and
 * a change of that metadata is published on the topic. Publishing drops the topic's caches in
 * this process at once and, on a real PostgreSQL store, in every other process sharing it:
 *
 * - a row per topic in `cache_version` (migration 0037) counts the changes; a publish bumps it
 *   and sends `NOTIFY shutu_cache` with the new version in the same statement;
 * - each process LISTENs on its own connection; a notice from another process bumps the
 *   topic's local generation, which every cache of the topic compares on each read;
 * - the version rows are read again after a reconnect and every POLL_MS, so a notice missed
 *   (connection lost, server restart) keeps a stale entry for at most POLL_MS.
 *
 * On the embedded PGlite store there is one process: the bus is in-process only.
 */

/** How often the version rows are read as a fallback for a missed notice. */
export const POLL_MS = 1_000;

export interface CacheBus {
  readonly kind: 'local' | 'postgres';
  /** Changes whenever the topic is invalidated, here or in another process: caches compare it. */
  generation(topic: CacheTopic): number;
  /**
   * Invalidates the topic here at once and in every other process (after the change committed).
   * With a key (the read topic's data-source id), listeners are told which part changed.
   */
  publish(topic: CacheTopic, key?: string): void;
  /** Drops the topic's caches in this process only (a write this process made; its trigger tells the others). */
  invalidateLocal(topic: CacheTopic): void;
  /** Called on every invalidation of the topic, local or remote (with the key it was published with). Returns the unsubscribe. */
  subscribe(topic: CacheTopic, listener: (key?: string) => void): () => void;
  /** Resolves once the publishes made so far reached the store (tests, shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

type Log = { warn(obj: object, msg: string): void };

/** The in-process bus: generations and listeners only. */
export class LocalCacheBus implements CacheBus {
  readonly kind: 'local' | 'postgres' = 'local';
  private readonly generations = new Map<CacheTopic, number>();
  private readonly listeners = new Map<CacheTopic, Set<(key?: string) => void>>();

  generation(topic: CacheTopic): number {
    return this.generations.get(topic) ?? 0;
  }

  publish(topic: CacheTopic, key?: string): void {
    this.bump(topic, key);
  }

  invalidateLocal(topic: CacheTopic): void {
    this.bump(topic);
  }

  subscribe(topic: CacheTopic, listener: (key?: string) => void): () => void {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Drops the topic's caches in this process (a keyed change: what listeners keep under that key). */
  protected bump(topic: CacheTopic, key?: string): void {
    this.generations.set(topic, this.generation(topic) + 1);
    for (const listener of this.listeners.get(topic) ?? []) {
      try {
        listener(key);
      } catch {
        // A listener only forgets; one that throws must not keep the others from forgetting.
      }
    }
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

const PUBLISH_SQL = `with v as (
  insert into cache_version (topic, version) values ($1, 1)
  on conflict (topic) do update set version = cache_version.version + 1
  returning version
) select version::float8 as version, pg_notify('${CACHE_CHANNEL}', $1 || ':' || version || ':' || $2) from v`;

/** Between a topic and its key in a version row's name and a notice (`read/12`); topics hold no slash. */
const KEY_SEPARATOR = '/';

/** The bus of a process on a real PostgreSQL: LISTEN/NOTIFY plus the version rows. */
export class PostgresCacheBus extends LocalCacheBus {
  override readonly kind = 'postgres' as const;
  /** Last version of each topic this process has acted on. */
  private readonly seen = new Map<string, number>();
  private readonly instance = randomUUID();
  private readonly pending = new Set<Promise<void>>();
  private listener: pg.Client | undefined;
  private poller: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private polling: Promise<void> | undefined;

  private constructor(
    private readonly connectionString: string,
    private readonly executeSql: ExecuteSql,
    private readonly log: Log | undefined,
    private readonly pollMs: number,
  ) {
    super();
  }

  /** Listens, reads the versions, and starts the fallback poll. */
  static async open(options: { connectionString: string; executeSql: ExecuteSql; log?: Log; pollMs?: number }): Promise<PostgresCacheBus> {
    const bus = new PostgresCacheBus(options.connectionString, options.executeSql, options.log, options.pollMs ?? POLL_MS);
    // Writes to the tables the read path keeps bump their topic at commit, whoever makes them.
    await installTableWatches(options.executeSql);
    await bus.listen();
    bus.poller = setInterval(() => void bus.poll(), bus.pollMs);
    bus.poller.unref();
    return bus;
  }

  override publish(topic: CacheTopic, key?: string): void {
    this.bump(topic, key);
    // A keyed change has a version row of its own (`read/12`), so a missed notice is found by the poll too.
    const name = key === undefined ? topic : `${topic}${KEY_SEPARATOR}${key}`;
    const done = this.executeSql(PUBLISH_SQL, [name, this.instance])
      .then((result) => this.advance(name, Number((result.rows[0] as { version: number }).version), true))
      .catch((error: unknown) =>
        this.log?.warn({ err: error, topic }, 'cache bus: publish failed (other processes see it at their next poll of a later change)'),
      )
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  override async flush(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  override async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.poller);
    clearTimeout(this.reconnectTimer);
    await this.flush();
    await this.polling;
    const client = this.listener;
    this.listener = undefined;
    await client?.end().catch(() => undefined);
  }

  /**
   * A version of a topic seen (own publish, notice, poll). Our own next version needs nothing
   * (the publish already forgot locally); any other newer version means another process changed it.
   */
  private advance(topic: string, version: number, own: boolean): void {
    const seen = this.seen.get(topic) ?? 0;
    if (version <= seen) return;
    this.seen.set(topic, version);
    if (own && version === seen + 1) return;
    const at = topic.indexOf(KEY_SEPARATOR);
    const base = at < 0 ? topic : topic.slice(0, at);
    if ((CACHE_TOPICS as readonly string[]).includes(base)) this.bump(base as CacheTopic, at < 0 ? undefined : topic.slice(at + 1));
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) => {
      const [topic, version, instance] = (message.payload ?? '').split(':');
      if (topic && version) this.advance(topic, Number(version), instance === this.instance);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, undefined));
    await client.connect();
    await client.query(`listen ${CACHE_CHANNEL}`);
    this.listener = client;
    // What changed while we were not listening (first start: nothing is cached yet, this only sets `seen`).
    await this.poll();
  }

  private lost(client: pg.Client, error: Error | undefined): void {
    if (this.listener !== client || this.closed) return;
    this.listener = undefined;
    this.log?.warn({ err: error }, 'cache bus: listen connection lost, reconnecting');
    client.end().catch(() => undefined);
    const retry = (delay: number) => {
      this.reconnectTimer = setTimeout(() => {
        if (this.closed) return;
        this.listen().catch(() => retry(Math.min(delay * 2, 5_000)));
      }, delay);
      this.reconnectTimer.unref();
    };
    retry(100);
  }

  /** Reads every topic's version: a notice missed is found here. */
  private poll(): Promise<void> {
    if (this.polling || this.closed) return this.polling ?? Promise.resolve();
    this.polling = this.executeSql('select topic, version::float8 as version from cache_version')
      .then((result) => {
        for (const row of result.rows as { topic: string; version: number }[]) this.advance(row.topic, Number(row.version), false);
      })
      .catch((error: unknown) => this.log?.warn({ err: error }, 'cache bus: version poll failed'))
      .finally(() => (this.polling = undefined));
    return this.polling;
  }
}
