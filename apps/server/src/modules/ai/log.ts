import { AI_RATE_PER_MINUTE, aiMessages, formatMessage, type AiLog } from '@shutu/contracts';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';

/**
 * The call log (ai_call_log, migration 0029): a row is written before the first request to the
 * endpoint, so the per-user rate limit (AI_RATE_PER_MINUTE, counted from the store) holds across
 * serve processes and counts calls still running; it is completed with tokens, duration and
 * outcome. No prompt, answer or key is kept.
 */

/** A call still `running` this long after it started died with its process (the endpoint timeout is at most 10 minutes). */
const STALE_AFTER_MS = 15 * 60_000;
const INTERRUPTED = '调用未完成：服务进程在调用过程中退出';

export interface CallTotals {
  promptTokens: number;
  completionTokens: number;
  attempts: number;
}

/** Starts a call for `userId`, or 429 when they made AI_RATE_PER_MINUTE calls in the last minute. */
export async function startCall(ctx: AppContext, userId: number, purpose: 'sql' | 'formula', datasourceId: number, model: string): Promise<number> {
  const recent = await ctx.db
    .selectFrom('aiCallLog')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('userId', '=', userId)
    .where('createTime', '>', sql<Date>`now() - interval '1 minute'`)
    .executeTakeFirstOrThrow();
  if (Number(recent.n) >= AI_RATE_PER_MINUTE) throw new AppError(429, formatMessage(aiMessages.rateLimited, { limit: AI_RATE_PER_MINUTE }));
  const row = await ctx.db.insertInto('aiCallLog').values({ userId, purpose, datasourceId, model }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function finishCall(
  ctx: AppContext,
  id: number,
  outcome: 'ok' | 'failed' | 'error',
  totals: CallTotals,
  durationMs: number,
  error: string | null,
): Promise<void> {
  await ctx.db
    .updateTable('aiCallLog')
    .set({ outcome, ...totals, durationMs: Math.round(durationMs), error: error === null ? null : error.slice(0, 2000) })
    .where('id', '=', id)
    .execute();
}

/** The user kept the result of their own call. */
export async function acceptCall(ctx: AppContext, userId: number, id: number): Promise<void> {
  const result = await ctx.db
    .updateTable('aiCallLog')
    .set({ accepted: true })
    .where('id', '=', id)
    .where('userId', '=', userId)
    .where('outcome', '=', 'ok')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound(aiMessages.logNotFound);
}

export async function latestCalls(ctx: AppContext, limit = 200): Promise<AiLog[]> {
  const rows = await ctx.db
    .selectFrom('aiCallLog as l')
    .leftJoin('sysUser as u', 'u.id', 'l.userId')
    .select([
      'l.id',
      'l.userId',
      'u.name as userName',
      'l.purpose',
      'l.model',
      'l.promptTokens',
      'l.completionTokens',
      'l.attempts',
      'l.durationMs',
      'l.outcome',
      'l.accepted',
      'l.error',
      'l.createTime',
    ])
    .orderBy('l.id', 'desc')
    .limit(limit)
    .execute();
  const stale = Date.now() - STALE_AFTER_MS;
  return rows.map((r) => {
    const interrupted = r.outcome === 'running' && new Date(r.createTime).getTime() < stale;
    return {
      ...r,
      userName: r.userName ?? null,
      createTime: new Date(r.createTime).toISOString(),
      ...(interrupted ? { outcome: 'error' as const, error: INTERRUPTED } : {}),
    };
  });
}
