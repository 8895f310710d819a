import type { Logger } from 'pino';
import { ALERT_CHECK_JOB, ALERT_TICK_JOB } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import type { JobDefinition } from '../../platform/jobs/boss.ts';
import { enqueueCheck, runCheck, type CheckJobData } from './check.ts';
import { removeOldAlertImages } from './board-image.ts';
import { advanceLastSlot } from './check-repo.ts';

/**
 * The slot of an alert at `now`: the latest multiple of its request frequency since the epoch
 * (every process computes the same slots, so their claims meet on the same row).
 */
export function dueSlot(requestFreqSeconds: number, now: Date): Date {
  const ms = requestFreqSeconds * 1000;
  return new Date(Math.floor(now.getTime() / ms) * ms);
}

/**
 * The tick (every minute, and once when a process starts working): each enabled alert whose
 * current slot is newer than its last_slot gets ONE check of that slot — slots missed while no
 * server ran are not replayed one by one (docs/alerts.md "Missed slots"). The job is sent before
 * last_slot moves: a crash in between re-sends a job whose claim then fails.
 */
export async function runAlertTick(ctx: AppContext, log: Logger, now = new Date()): Promise<number> {
  if (!ctx.jobs) return 0;
  const alerts = await ctx.db.selectFrom('alert').select(['id', 'requestFreq', 'lastSlot']).where('enableStatus', '=', 1).execute();
  let due = 0;
  for (const alert of alerts) {
    const slot = dueSlot(alert.requestFreq, now);
    if (alert.lastSlot && alert.lastSlot >= slot) continue;
    await enqueueCheck(ctx, alert.id, slot);
    if (await advanceLastSlot(ctx.db, alert.id, slot)) due += 1;
  }
  if (due > 0) log.info({ due }, 'alert tick');
  return due;
}

export function alertJobs(ctx: AppContext, log: Logger): JobDefinition[] {
  const tick: JobDefinition = {
    name: ALERT_TICK_JOB,
    cron: '* * * * *',
    policy: 'singleton',
    runAtStart: true,
    handle: async () => {
      await runAlertTick(ctx, log);
      await removeOldAlertImages(ctx);
    },
  };
  const check: JobDefinition<CheckJobData> = {
    name: ALERT_CHECK_JOB,
    policy: 'short',
    // The claim records the run: when its process dies, the recovery sweep fails the job, pg-boss
    // retries it and the retry takes the claim over (check-repo.ts claimCheck).
    handle: async (data, run) => {
      await runCheck(ctx, log, data, run?.id ?? null);
    },
  };
  return [tick, check as JobDefinition];
}
