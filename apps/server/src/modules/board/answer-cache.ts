import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { chartDataResultSchema, envelopeSchema, type ChartDataResult } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import type { MaybeScoped } from '../../platform/auth/scope.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { stampOf } from '../../platform/cache/coherent.ts';
import type { CacheTopic } from '../../platform/cache/topics.ts';
import { ok } from '../../platform/http/envelope.ts';
import { pickEncoding } from '../../platform/http/static-assets.ts';
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
 *
 * The body in the key is the one the client sent, before validation: a kept answer is served
 * from the route's preValidation hook (serveKeptAnswer), so a hit skips the body's zod
 * validation too. Only a body that then passed validation and was answered is ever kept, so
 * a hit always stands for a valid request of the same caller; a body spelled differently (keys
 * in another order, defaults written out) is a miss, never a wrong answer.
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

/** The key of each request that may be kept, computed from its body as sent (before validation). */
const requestKeys = new WeakMap<FastifyRequest, string>();

/**
 * The cache key of a saved chart's request by a caller, from the body as the client sent it
 * (null for an editor's unsaved chart, or a body that names no saved chart: not kept).
 */
export function answerKey(caller: Caller & MaybeScoped, body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const { boardId, chartKey } = body as { boardId?: unknown; chartKey?: unknown };
  if (typeof boardId !== 'number' || !boardId || typeof chartKey !== 'string' || !chartKey) return null;
  return JSON.stringify([caller.userId, caller.isAdministrator, caller.scope ?? null, body]);
}

/**
 * preValidation hook of POST chart-data: sends the kept answer of this caller's body, if any,
 * before the body is validated (the bytes sent before: no lookups, no compilation, no
 * validation, no serialisation). Otherwise remembers the key for keptAnswerKey.
 */
export function serveKeptAnswer(ctx: AppContext) {
  return async function keptAnswerHook(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const key = answerKey(sessionOf(request), request.body);
    if (key === null) return undefined;
    const kept = keptAnswer(ctx, key);
    if (!kept) {
      requestKeys.set(request, key);
      return undefined;
    }
    const { body, gzip } = answerBody(kept, pickEncoding(request.headers['accept-encoding']) === 'gzip');
    reply.type('application/json; charset=utf-8');
    if (gzip) reply.header('content-encoding', 'gzip').header('vary', 'Accept-Encoding');
    // Bytes are sent as they are (the route's response schema is what they were made from);
    // returning the reply tells Fastify the request is answered.
    return reply.send(body);
  };
}

/** The key under which the handler keeps its answer (set by serveKeptAnswer on a miss). */
export function keptAnswerKey(request: FastifyRequest): string | null {
  return requestKeys.get(request) ?? null;
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
