import type { Kysely, Selectable } from 'kysely';
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
  values: Omit<SubscriptionLogRow, 'id' | 'state' | 'attempts' | 'errCode' | 'errMsg' | 'createTime' | 'updateTime'>,
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
 * Takes over a claim a crash left pending: once (attempts 1 → 2), and only when it has been
 * pending since before `staleBefore`. Atomic: of two takers, one wins.
 */
export async function takeOverStaleClaim(db: Db, subscriptionId: number, slot: Date, staleBefore: Date): Promise<number | undefined> {
  const row = await db
    .updateTable('subscriptionLog')
    .set({ attempts: 2, updateTime: new Date() })
    .where('subscriptionId', '=', subscriptionId)
    .where('slot', '=', slot)
    .where('state', '=', 'pending')
    .where('attempts', '<', 2)
    .where('updateTime', '<', staleBefore)
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

/** Claims a crash left pending before `staleBefore` that have not been retried yet. */
export function findStaleClaims(db: Db, staleBefore: Date) {
  return db
    .selectFrom('subscriptionLog')
    .select(['subscriptionId', 'slot'])
    .where('state', '=', 'pending')
    .where('attempts', '<', 2)
    .where('updateTime', '<', staleBefore)
    .where('subscriptionId', 'is not', null)
    .execute();
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
