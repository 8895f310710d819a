import type { Logger } from 'pino';
import { AUDIENCE_REFRESH_JOB, AUDIENCE_TICK_JOB } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import type { JobDefinition } from '../../platform/jobs/boss.ts';
import { sweepMemberTables } from './member-gc.ts';
import { advanceLastSlot, claimRefresh, finishRefresh, updateAudience } from './repo.ts';
import { enqueueRefresh, refreshAudience } from './service.ts';

/**
 * Scheduled refreshes (spec 3 §3 requestFreq: 1 daily, 2 weekly, 3 monthly; docs/audiences.md
 * "Refresh"). Every process computes the same due time (slot) of an audience: the start of its day,
 * week (Monday) or month in China time (UTC+8). The tick sends one job per new slot; the job claims
 * (audience_id, slot) in audience_refresh before it works, so a slot is computed exactly once
 * however many processes tick or restart. 0 (立即) is computed at save and on 刷新 only. Dataset and
 * tag-driven audiences are scheduled (imported groups have nothing to compute); a stopped one
 * (isOnline 2) is skipped.
 */

const CHINA_OFFSET_MS = 8 * 3600_000;

export function dueSlot(requestFreq: number, now: Date): Date | null {
  if (requestFreq < 1 || requestFreq > 3) return null;
  const local = new Date(now.getTime() + CHINA_OFFSET_MS);
  const day = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  let start = day;
  if (requestFreq === 2) start = day - ((local.getUTCDay() + 6) % 7) * 86_400_000;
  if (requestFreq === 3) start = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1);
  return new Date(start - CHINA_OFFSET_MS);
}

/** Each scheduled audience in use whose current slot is newer than its last one gets one refresh job. */
export async function runAudienceTick(ctx: AppContext, log: Logger, now = new Date()): Promise<number> {
  if (!ctx.jobs) return 0;
  const rows = await ctx.db
    .selectFrom('audience')
    .select(['id', 'requestFreq', 'lastSlot'])
    .where('kind', 'in', ['dataset', 'tag'])
    .where('requestFreq', '>', 0)
    .where('isOnline', '<>', 2)
    .execute();
  let due = 0;
  for (const row of rows) {
    const slot = dueSlot(row.requestFreq, now);
    if (!slot || (row.lastSlot && row.lastSlot >= slot)) continue;
    // The job first, then last_slot: a crash in between re-sends a job whose claim then fails.
    await enqueueRefresh(ctx, row.id, slot);
    if (await advanceLastSlot(ctx.db, row.id, slot)) due += 1;
  }
  if (due > 0) log.info({ due }, 'audience tick');
  return due;
}

export interface RefreshJobData {
  audienceId: number;
  slot: string;
}

/** One refresh of one slot: claimed, computed, logged. */
export async function runRefresh(ctx: AppContext, log: Logger, data: RefreshJobData, runId: string | null): Promise<'done' | 'failed' | 'taken'> {
  const claim = await claimRefresh(ctx.db, data.audienceId, new Date(data.slot), runId).catch(() => null);
  if (claim === null) return 'taken';
  const started = performance.now();
  try {
    const result = await refreshAudience(ctx, data.audienceId);
    await finishRefresh(ctx.db, claim, { status: 'done', size: result.size, durationMs: result.durationMs });
    return 'done';
  } catch (error) {
    log.warn({ err: error, audienceId: data.audienceId }, 'audience refresh failed');
    await finishRefresh(ctx.db, claim, {
      status: 'failed',
      durationMs: Math.round(performance.now() - started),
      error: String((error as Error).message ?? error).slice(0, 1000),
    });
    return 'failed';
  }
}

export function audienceJobs(ctx: AppContext, log: Logger): JobDefinition[] {
  const tick: JobDefinition = {
    name: AUDIENCE_TICK_JOB,
    cron: '*/10 * * * *',
    policy: 'singleton',
    runAtStart: true,
    handle: async () => {
      // Also at each start (runAtStart): tables left by a killed computation or past their grace go.
      const dropped = await sweepMemberTables(ctx).catch((error: unknown) => {
        log.warn({ err: error }, 'audience member-table sweep failed');
        return 0;
      });
      if (dropped > 0) log.info({ dropped }, 'audience member tables dropped');
      await runAudienceTick(ctx, log);
    },
  };
  const refresh: JobDefinition<RefreshJobData> = {
    name: AUDIENCE_REFRESH_JOB,
    policy: 'short',
    handle: async (data, run) => {
      await runRefresh(ctx, log, data, run?.id ?? null);
    },
    // The process died mid-refresh: the audience must not stay 计算中 (a retry claims nothing: the slot is taken).
    abandoned: async (data) => {
      await updateAudience(ctx.db, data.audienceId, { status: 'failed', error: '服务重启或异常退出，任务已中断，请重试' });
    },
  };
  return [tick, refresh as JobDefinition];
}
