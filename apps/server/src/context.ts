import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { CacheBus } from './platform/cache/bus.ts';
import type { Config } from './platform/config.ts';
import type { Database } from './platform/db/schema.ts';
import type { MetadataStore } from './platform/db/store.ts';

/** Sends background jobs (pg-boss); see platform/jobs/boss.ts. */
export interface JobQueue {
  send(name: string, data?: object, options?: { singletonKey?: string; retryLimit?: number; startAfter?: number | string | Date }): Promise<string | null>;
}

/** What every module gets: configuration and the metadata store. */
export interface AppContext {
  config: Config;
  store: MetadataStore;
  db: Kysely<Database>;
  /** The job queue; absent in API-only tests that start no jobs (callers then say the task service is off). */
  jobs?: JobQueue;
  /**
   * Invalidates this process's metadata caches and tells the other processes sharing the store
   * (platform/cache/bus.ts). Absent in API tests: they get an in-process bus (busOf).
   */
  bus?: CacheBus;
  /**
   * Where this server itself answers (set once it listens; SHUTU_SELF_URL overrides): the
   * server's headless Chromium opens its pages here (thumbnails, PDF, subscriptions).
   */
  selfUrl?: string;
}

/** The Fastify instance with zod schemas as its type provider. */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;
