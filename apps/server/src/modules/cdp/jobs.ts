import type { Logger } from 'pino';
import { CDP_PULL_JOB, CDP_TICK_JOB, CYCLE_UNIT_SECONDS, type CycleUnit } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import type { JobDefinition } from '../../platform/jobs/boss.ts';
import { releaseTask, runPull } from './pull.ts';

/**
 * Scheduled pulls (docs/platforms.md "Schedules"). Each data task's request cycle is a pg-boss
 * schedule: the tick (every minute, and when a process starts working) finds each task of an
 * authorised app whose current slot — the latest multiple of its cycle since the epoch, the same
 * in every process — is newer than its last_slot, moves last_slot with one conditional UPDATE
 * (of several processes exactly one wins the slot) and sends that one pull. Slots missed while no
 * server ran are not replayed one by one: the next pull is incremental anyway.
 */

export interface PullJobData {
  taskId: number;
  trigger: 'schedule' | 'manual';
}

export function slotOf(unit: CycleUnit, value: number, now: Date): Date {
  const ms = CYCLE_UNIT_SECONDS[unit] * value * 1000;
  return new Date(Math.floor(now.getTime() / ms) * ms);
}

export async function runPullTick(ctx: AppContext, log: Logger, now = new Date()): Promise<number> {
  if (!ctx.jobs) return 0;
  const tasks = await ctx.db
    .selectFrom('cdpTask')
    .innerJoin('cdpApp', 'cdpApp.id', 'cdpTask.applyId')
    .select(['cdpTask.id', 'cdpTask.unit', 'cdpTask.value', 'cdpTask.lastSlot'])
    .where('cdpApp.status', '=', 1)
    .where('cdpTask.unit', 'is not', null)
    .where('cdpTask.value', 'is not', null)
    .execute();
  let due = 0;
  for (const task of tasks) {
    const slot = slotOf(task.unit as CycleUnit, task.value!, now);
    if (task.lastSlot && task.lastSlot >= slot) continue;
    const won = await ctx.db
      .updateTable('cdpTask')
      .set({ lastSlot: slot })
      .where('id', '=', task.id)
      .where((eb) => eb.or([eb('lastSlot', 'is', null), eb('lastSlot', '<', slot)]))
      .returning('id')
      .executeTakeFirst();
    if (!won) continue;
    await ctx.jobs.send(CDP_PULL_JOB, { taskId: task.id, trigger: 'schedule' } satisfies PullJobData, { singletonKey: `${task.id}:${slot.toISOString()}` });
    due += 1;
  }
  if (due > 0) log.info({ due }, 'cdp pull tick');
  return due;
}

export function cdpJobs(ctx: AppContext, log: Logger): JobDefinition[] {
  const tick: JobDefinition = {
    name: CDP_TICK_JOB,
    cron: '* * * * *',
    policy: 'singleton',
    runAtStart: true,
    handle: async () => {
      await runPullTick(ctx, log);
    },
  };
  const pull: JobDefinition<PullJobData> = {
    name: CDP_PULL_JOB,
    handle: async (data) => {
      await runPull(ctx, log, data.taskId, data.trigger);
    },
    // The process died mid-pull: free the task; pg-boss retries the job (retryLimit).
    abandoned: async (data) => {
      await releaseTask(ctx, data.taskId);
    },
  };
  return [tick, pull as JobDefinition];
}
