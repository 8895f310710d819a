import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Config } from './platform/config.ts';
import type { Database } from './platform/db/schema.ts';
import type { MetadataStore } from './platform/db/store.ts';

/** What every module gets: configuration and the metadata store. */
export interface AppContext {
  config: Config;
  store: MetadataStore;
  db: Kysely<Database>;
}

/** The Fastify instance with zod schemas as its type provider. */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;
