import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { Database, SubscriptionLogTable, SubscriptionTable } from '../../platform/db/schema.ts';

export type SubscriptionRow = Selectable<SubscriptionTable> & { userName: string | null };
export type SubscriptionLogRow = Selectable<SubscriptionLogTable>;
type Db = Kysely<Database>;

const subscriptionColumns = [
  'subscription.id',
  'subscription.userId',
  'subscription.dataType',
  'subscription.dataId',
  'subscription.subTitle',
  'subscription.notifyTitle',
  'subscription.notifyType',
  'subscription.triggerPeriod',
  'subscription.triggerHour',
  'subscription.triggerWeekValue',
  'subscription.triggerDayValue',
  'subscription.format',
  'subscription.enabled',
  'subscription.createTime',
  'subscription.lastSlot',
] as const;

export function selectSubscriptions(db: Db) {
  return db
    .selectFrom('subscription')
    .leftJoin('sysUser', 'sysUser.id', 'subscription.userId')
    .select([...subscriptionColumns, 'sysUser.name as userName']);
}

export function findSubscription(db: Db, id: number): Promise<SubscriptionRow | undefined> {
  return selectSubscriptions(db).where('subscription.id', '=', id).executeTakeFirst();
}

/**
 * Claims one due time: inserts its log row (pending) unless one exists. Returns the row id,
 * or undefined when the slot was already claimed (UNIQUE subscription_id, slot).
 */
export async function claimSlot(
  db: Db,
  values: Omit<SubscriptionLogRow, 'id' | 'state' | 'attempts' | 'errCode' | 'errMsg' | 'createTime' | 'updateTime' | 'runId'> & { runId?: string | null },
): Promise<number | undefined> {
  const row = await db
    .insertInto('subscriptionLog')
    .values({ ...values, state: 'pending' })
    .onConflict((oc) => oc.columns(['subscriptionId', 'slot']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/**
 * A pending claim nobody is working on any more: pending since before `staleBefore`, or claimed
 * by a job run that is gone — its process died and the recovery sweep took the run over
 * (platform/jobs/recovery.ts; a live run keeps its job_run row until its handler returns).
 */
const abandonedClaim = (staleBefore: Date) => (eb: ExpressionBuilder<Database, 'subscriptionLog'>) =>
  eb.and([
    eb('subscriptionLog.state', '=', 'pending'),
    eb.or([
      eb('subscriptionLog.updateTime', '<', staleBefore),
      eb.and([
        eb('subscriptionLog.runId', 'is not', null),
        eb.not(eb.exists(eb.selectFrom('jobRun').select('jobRun.id').whereRef('jobRun.id', '=', 'subscriptionLog.runId'))),
      ]),
    ]),
  ]);

/**
 * Takes over a claim a crash left pending: once (attempts 1 → 2), when it is abandoned (see
 * abandonedClaim), as the run `runId`. Atomic: of two takers, one wins.
 */
export async function takeOverStaleClaim(
  db: Db,
  subscriptionId: number,
  slot: Date,
  staleBefore: Date,
  runId: string | null = null,
): Promise<number | undefined> {
  const row = await db
    .updateTable('subscriptionLog')
    .set({ attempts: 2, updateTime: new Date(), runId })
    .where('subscriptionId', '=', subscriptionId)
    .where('slot', '=', slot)
    .where('attempts', '<', 2)
    .where(abandonedClaim(staleBefore))
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function finishLog(db: Db, id: number, result: { errCode: number; errMsg: string | null; content: string | null }): Promise<void> {
  await db
    .updateTable('subscriptionLog')
    .set({
      state: result.errCode === 0 ? 'sent' : 'failed',
      errCode: result.errCode,
      errMsg: result.errMsg?.slice(0, 1000) ?? null,
      content: result.content,
      updateTime: new Date(),
    })
    .where('id', '=', id)
    .execute();
}

/** Abandoned claims (see abandonedClaim) that have not been retried yet. */
export function findStaleClaims(db: Db, staleBefore: Date) {
  return db
    .selectFrom('subscriptionLog')
    .select(['subscriptionId', 'slot'])
    .where('attempts', '<', 2)
    .where(abandonedClaim(staleBefore))
    .where('subscriptionId', 'is not', null)
    .execute();
}

/** Abandoned claims already retried once (or of a deleted subscription): failed with `errMsg`, never left pending. */
export async function failExhaustedClaims(db: Db, staleBefore: Date, errMsg: string): Promise<number> {
  const result = await db
    .updateTable('subscriptionLog')
    .set({ state: 'failed', errCode: 1, errMsg, updateTime: new Date() })
    .where(abandonedClaim(staleBefore))
    .where((eb) => eb.or([eb('attempts', '>=', 2), eb('subscriptionId', 'is', null)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Moves last_slot forward to `slot`; false when another tick already did (only the winner enqueues). */
export async function advanceLastSlot(db: Db, id: number, slot: Date): Promise<boolean> {
  const result = await db
    .updateTable('subscription')
    .set({ lastSlot: slot })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('lastSlot', 'is', null), eb('lastSlot', '<', slot)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
