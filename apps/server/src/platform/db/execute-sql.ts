import type { QueryResult } from './pglite-pool.ts';

/** Runs one SQL text on the store; pg-boss, raw maintenance and the cache bus use it. */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<QueryResult>;
