import zlib from 'node:zlib';
import { chartDataResultSchema, envelopeSchema, type ChartDataResult } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import type { MaybeScoped } from '../../platform/auth/scope.ts';
import { stampOf } from '../../platform/cache/coherent.ts';
import type { CacheTopic } from '../../platform/cache/topics.ts';
import { ok } from '../../platform/http/envelope.ts';
import type { Caller } from '../perm/index.ts';

/**
 * The chart-data answers of saved charts, kept per viewer as the bytes sent (issue 26, many
 * viewers). A viewer reloading a board, or many tabs of one account (a wall screen, a share
 * link), get the kept answer without the board and chart lookups, the permission restriction,
 * the compilation that keys the read cache, and the response's validation and serialisation;
 * an answer of 1 kB or more is gzipped once, for every client that accepts gzip.
 *
 * Key: the caller (user, administrator or not, a share token's scope) and the request body as
 * sent. Kept while nothing it depends on changed — the `stamp` of the bus topics that cover the
 * board, chart, dataset, fields and filters (`dataset`), grants and groups (`perm`), sources
 * (`datasource`), the time zone (`settings`) and any source's data (`read`, bumped by every
 * load through ShuTu) — and at most ANSWER_TTL_MS: relative dates ("last 7 days") move with the
 * clock, and a server engine's data may change outside ShuTu (the read cache's 30 s bound).
 */

/** How long a kept answer is served at most. */
export const ANSWER_TTL_MS = 5_000;
const MAX_ENTRIES = 2_000;
/** Most bytes of kept answers (plain JSON) per server. */
const MAX_BYTES = 32 * 1024 * 1024;
/** Below this an answer is sent as it is (as installJsonCompression does for any JSON). */
const GZIP_FROM_BYTES = 1024;
const TOPICS: readonly CacheTopic[] = ['dataset', 'perm', 'datasource', 'settings', 'read'];

const answerSchema = envelopeSchema(chartDataResultSchema);

export interface KeptAnswer {
  /** The envelope as JSON, `shared: true`. */
  json: string;
  /** Its gzip, made on first use by a client that accepts gzip (answers of 1 kB or more). */
  gzip?: Buffer;
  stamp: number;
  expiresAt: number;
}

interface AnswerCache {
  entries: Map<string, KeptAnswer>;
  bytes: number;
}

const caches = new WeakMap<AppContext, AnswerCache>();

function cacheOf(ctx: AppContext): AnswerCache {
  let cache = caches.get(ctx);
  if (!cache) caches.set(ctx, (cache = { entries: new Map(), bytes: 0 }));
  return cache;
}

/** The cache key of a saved chart's request by a caller (null for an editor's unsaved chart: not kept). */
export function answerKey(caller: Caller & MaybeScoped, body: { boardId?: number | null; chartKey?: string | null }): string | null {
  if (!body.boardId || !body.chartKey) return null;
  return JSON.stringify([caller.userId, caller.isAdministrator, caller.scope ?? null, body]);
}

/** The kept answer for `key`, if still valid. */
export function keptAnswer(ctx: AppContext, key: string): KeptAnswer | undefined {
  const cache = cacheOf(ctx);
  const entry = cache.entries.get(key);
  if (!entry) return undefined;
  if (entry.stamp !== stampOf(ctx, TOPICS) || entry.expiresAt <= Date.now()) {
    remove(cache, key, entry);
    return undefined;
  }
  return entry;
}

/**
 * Keeps an answer computed under `stamp` (taken before the computation started: a change during
 * it leaves the answer unkept). Returns nothing; the caller sends its own result.
 */
export function keepAnswer(ctx: AppContext, key: string, stamp: number, result: ChartDataResult): void {
  if (stamp !== stampOf(ctx, TOPICS)) return;
  const json = JSON.stringify(answerSchema.parse(ok({ ...result, shared: true })));
  if (json.length > MAX_BYTES) return;
  const cache = cacheOf(ctx);
  const previous = cache.entries.get(key);
  if (previous) remove(cache, key, previous);
  cache.entries.set(key, { json, stamp, expiresAt: Date.now() + ANSWER_TTL_MS });
  cache.bytes += json.length;
  for (const [oldKey, old] of cache.entries) {
    if (cache.entries.size <= MAX_ENTRIES && cache.bytes <= MAX_BYTES) break;
    remove(cache, oldKey, old);
  }
}

/** The stamp to pass to keepAnswer: read it before computing the answer. */
export function answerStamp(ctx: AppContext): number {
  return stampOf(ctx, TOPICS);
}

/** The body to send for a kept answer: its gzip when the client accepts gzip and it is worth it, else the JSON. */
export function answerBody(entry: KeptAnswer, acceptsGzip: boolean): { body: string | Buffer; gzip: boolean } {
  if (!acceptsGzip || entry.json.length < GZIP_FROM_BYTES) return { body: entry.json, gzip: false };
  entry.gzip ??= zlib.gzipSync(entry.json, { level: 6 });
  return { body: entry.gzip, gzip: true };
}

/** Forgets every kept answer (tests, the bench's cold loads). */
export function clearAnswerCache(ctx: AppContext): void {
  const cache = cacheOf(ctx);
  cache.entries.clear();
  cache.bytes = 0;
}

function remove(cache: AnswerCache, key: string, entry: KeptAnswer): void {
  cache.entries.delete(key);
  cache.bytes -= entry.json.length;
}
