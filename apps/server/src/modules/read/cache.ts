import { createHash } from 'node:crypto';
import type { CubePreviewResult } from '@shutu/contracts';
import type { CompiledQuery } from '@shutu/query';
import type { AppContext } from '../../context.ts';
import { SingleFlightCache, type SingleFlightStats } from '../../platform/cache/single-flight.ts';
import { busOf } from '../../platform/cache/coherent.ts';

/**
 * Reads that the same page issues many times (a board's charts) share one execution: the key
 * is a hash of the data source, the compiled SQL and its bound values (the reader's permission
 * filters are compiled into them, so readers with different filters never share). An answer is
 * kept for READ_CACHE_TTL_MS; failures are not kept. The cache lives per AppContext.
 */

/** How long an answer is kept. */
export const READ_CACHE_TTL_MS = 30_000;
/** Most answers kept per server. */
export const READ_CACHE_MAX_ENTRIES = 500;
/** Most rows kept in total per server (an answer larger than this alone is not kept). */
export const READ_CACHE_MAX_ROWS = 200_000;

/** What is shared: the rows, the total and the time of the execution (the field dictionary is each reader's own). */
export type SharedRows = Pick<CubePreviewResult, 'dataList' | 'total' | 'elapsedMs'>;

const caches = new WeakMap<AppContext, SingleFlightCache<SharedRows>>();

export function readCacheOf(ctx: AppContext): SingleFlightCache<SharedRows> {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new SingleFlightCache<SharedRows>({
      ttlMs: READ_CACHE_TTL_MS,
      maxEntries: READ_CACHE_MAX_ENTRIES,
      maxWeight: READ_CACHE_MAX_ROWS,
      weigh: (value) => value.dataList.length + 1,
    });
    caches.set(ctx, cache);
    // Data or a source changed in any process sharing the store (platform/cache/bus.ts): answers go.
    for (const topic of ['read', 'datasource'] as const) busOf(ctx).subscribe(topic, () => readCacheOf(ctx).clear());
  }
  return cache;
}

/** Executions, hits, shared flights and the size of the read cache of this server (tests, diagnostics). */
export function readCacheStats(ctx: AppContext): SingleFlightStats {
  return readCacheOf(ctx).stats();
}

/** Forgets the kept answers of this server. */
export function clearReadCache(ctx: AppContext): void {
  readCacheOf(ctx).clear();
}

/** sha256 of the data source, the SQL and its bound values (and those of the count query). */
export function readKey(datasourceId: number, compiled: Pick<CompiledQuery, 'sql' | 'params' | 'count'>): string {
  const text = JSON.stringify(
    [datasourceId, compiled.sql, compiled.params, compiled.count?.sql ?? null, compiled.count?.params ?? null],
    (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value),
  );
  return createHash('sha256').update(text).digest('hex');
}
