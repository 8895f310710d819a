import { createHash } from 'node:crypto';
import type { CubePreviewResult } from '@shutu/contracts';
import type { Driver } from '@shutu/connectors';
import type { CompiledQuery } from '@shutu/query';
import type { AppContext } from '../../context.ts';
import { SingleFlightCache, type SingleFlightStats } from '../../platform/cache/single-flight.ts';
import { busOf } from '../../platform/cache/coherent.ts';

/**
 * Reads that the same page issues many times (a board's charts) share one execution: the key
 * is a hash of the data source, the source's **data version**, the compiled SQL and its bound
 * values (the reader's permission filters are compiled into them, so readers with different
 * filters never share). Failures are not kept. The cache lives per AppContext.
 *
 * The data version (issue 26): every load, rename or drop of a table through ShuTu's driver
 * (file tables, connected-platform pulls, audience tables — datasource/registry.ts) publishes
 * the `read` topic keyed by the source's id on the cache bus, before and after the write. Each
 * process then counts the source's version up and forgets its answers, so nothing read before
 * or during the change is served after it, here or in another process sharing the store. An
 * edited or deleted source (`datasource`) and an unkeyed `read` drop every answer.
 *
 * How long an answer is kept depends on who else may change the data: an embedded DuckDB file
 * is written only by the process that holds it (its lock), i.e. only through the paths above,
 * so its answers live READ_CACHE_WATCHED_TTL_MS; a server engine (PostgreSQL, MySQL,
 * ClickHouse) is written by other programs too, so its answers keep the short READ_CACHE_TTL_MS.
 */

/** How long an answer of a source that other programs may write is kept. */
export const READ_CACHE_TTL_MS = 30_000;
/** How long an answer of a source written only through ShuTu (embedded DuckDB) is kept: its changes bump its data version. */
export const READ_CACHE_WATCHED_TTL_MS = 10 * 60_000;
/** Most answers kept per server. */
export const READ_CACHE_MAX_ENTRIES = 500;
/** Most rows kept in total per server (an answer larger than this alone is not kept). */
export const READ_CACHE_MAX_ROWS = 200_000;

/** What is shared: the rows, the total and the time of the execution (the field dictionary is each reader's own). */
export type SharedRows = Pick<CubePreviewResult, 'dataList' | 'total' | 'elapsedMs'>;

interface ReadCache {
  answers: SingleFlightCache<SharedRows>;
  /** Data version per source id (absent: 0). */
  versions: Map<number, number>;
}

const caches = new WeakMap<AppContext, ReadCache>();

function cacheOf(ctx: AppContext): ReadCache {
  let cache = caches.get(ctx);
  if (!cache) {
    const made: ReadCache = {
      answers: new SingleFlightCache<SharedRows>({
        ttlMs: READ_CACHE_TTL_MS,
        maxEntries: READ_CACHE_MAX_ENTRIES,
        maxWeight: READ_CACHE_MAX_ROWS,
        weigh: (value) => value.dataList.length + 1,
      }),
      versions: new Map(),
    };
    cache = made;
    caches.set(ctx, made);
    const bus = busOf(ctx);
    bus.subscribe('read', (key) => {
      const source = key === undefined ? Number.NaN : Number(key);
      if (!Number.isInteger(source)) return made.answers.clear();
      made.versions.set(source, (made.versions.get(source) ?? 0) + 1);
      // Kept answers of older versions are never served again: free their room now.
      made.answers.forget((k) => k.startsWith(`${source}:`));
    });
    bus.subscribe('datasource', () => made.answers.clear());
  }
  return cache;
}

/** The data version of a source in this process (counts the changes announced for it). */
export function dataVersion(ctx: AppContext, datasourceId: number): number {
  return cacheOf(ctx).versions.get(datasourceId) ?? 0;
}

/**
 * The kept answer of a read of `source`, else the flight in progress for the same key, else a
 * new execution of `run`, kept as long as the source allows (see above).
 */
export function cachedRead(
  ctx: AppContext,
  source: { id: number; driver: Pick<Driver, 'type'> },
  compiled: Pick<CompiledQuery, 'sql' | 'params' | 'count'>,
  run: () => Promise<SharedRows>,
) {
  const cache = cacheOf(ctx);
  const key = readKey(source.id, cache.versions.get(source.id) ?? 0, compiled);
  return cache.answers.run(key, run, source.driver.type === 'duckdb' ? READ_CACHE_WATCHED_TTL_MS : READ_CACHE_TTL_MS);
}

/** Executions, hits, shared flights and the size of the read cache of this server (tests, diagnostics). */
export function readCacheStats(ctx: AppContext): SingleFlightStats {
  return cacheOf(ctx).answers.stats();
}

/** Forgets the kept answers of this server. */
export function clearReadCache(ctx: AppContext): void {
  cacheOf(ctx).answers.clear();
}

/** `<source>:` and the sha256 of the source's data version, the SQL and its bound values (and those of the count query). */
export function readKey(datasourceId: number, version: number, compiled: Pick<CompiledQuery, 'sql' | 'params' | 'count'>): string {
  const text = JSON.stringify(
    [datasourceId, version, compiled.sql, compiled.params, compiled.count?.sql ?? null, compiled.count?.params ?? null],
    (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value),
  );
  return `${datasourceId}:${createHash('sha256').update(text).digest('hex')}`;
}
