import type { Logger } from 'pino';
import { SUBSCRIPTION_SEND_JOB, SUBSCRIPTION_TICK_JOB } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import type { JobDefinition } from '../../platform/jobs/boss.ts';
import { runTick, sendSubscription } from './send.ts';
import type { SendJobData } from './service.ts';

/** The subscription module's jobs: the per-minute tick and the send of one due time. */
export function subscriptionJobs(ctx: AppContext, log: Logger): JobDefinition[] {
  const tick: JobDefinition = {
    name: SUBSCRIPTION_TICK_JOB,
    cron: '* * * * *',
    // One tick at a time: a slow tick is not stacked up behind itself.
    policy: 'singleton',
    // A restarted server catches up at once, not at the next minute.
    runAtStart: true,
    handle: async () => {
      await runTick(ctx, log);
    },
  };
  const send: JobDefinition<SendJobData> = {
    name: SUBSCRIPTION_SEND_JOB,
    // At most one queued job per `${id}:${slot}`: duplicate enqueues collapse (the claim is the real guard).
    policy: 'short',
    // The claim records the run: if its process dies, the pg-boss retry (the recovery sweep fails
    // the job at once) or the next tick takes the claim over and sends it once more.
    handle: async (data, run) => {
      await sendSubscription(ctx, log, data, new Date(), run?.id ?? null);
    },
  };
  return [tick, send as JobDefinition];
}
