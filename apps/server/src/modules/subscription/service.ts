import type { Kysely } from 'kysely';
import {
  instantOfWallClock,
  NOTIFY_TYPES,
  SUBSCRIPTION_SEND_JOB,
  subscriptionMessages,
  type NotifySettings,
  type NotifyType,
  type Page,
  type Subscription,
  type SubscriptionLog,
  type subscriptionListQuerySchema,
  type subscriptionLogQuerySchema,
  type subscriptionSaveSchema,
} from '@shutu/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../platform/db/schema.ts';
import { AppError, badRequest, forbidden, notFound } from '../../platform/http/errors.ts';
import { page } from '../../platform/http/envelope.ts';
import type { Caller } from '../perm/index.ts';
import { loadNotifySettings, serverTimeZone } from '../system/index.ts';
import { advanceLastSlot, findSubscription, selectSubscriptions, type SubscriptionLogRow, type SubscriptionRow } from './repo.ts';
import { latestSlot, nextSlot } from './schedule.ts';
import { assertBoardsShowNoHiddenColumns } from '../board/index.ts';
import { requireSubscriptionTarget } from './targets.ts';

type SubscriptionSaveParsed = z.output<typeof subscriptionSaveSchema>;

/** The send job's data: one subscription, one due time (ISO). */
export interface SendJobData {
  subscriptionId: number;
  slot: string;
}

/** Why a method cannot be used, or undefined when it can (the channel is configured; email: the user has an address). */
export function unusableReason(settings: NotifySettings, notifyType: NotifyType, userEmail: string | null): string | undefined {
  switch (notifyType) {
    case 'email':
      if (!settings.smtpHost || !settings.smtpFrom) return subscriptionMessages.emailServerMissing;
      if (!userEmail) return subscriptionMessages.userEmailMissing;
      return undefined;
    case 'qywechat':
      return settings.wecomWebhook ? undefined : subscriptionMessages.qywechatMissing;
    case 'dingtalk':
      return settings.dingtalkWebhook ? undefined : subscriptionMessages.dingtalkMissing;
    case 'feishu':
      return settings.feishuWebhook ? undefined : subscriptionMessages.feishuMissing;
    case 'tianxiangyun':
      return settings.tianxiangyunWebhook ? undefined : subscriptionMessages.tianxiangyunMissing;
  }
}

async function userEmail(db: Kysely<Database>, userId: number): Promise<string | null> {
  const row = await db.selectFrom('sysUser').select('email').where('id', '=', userId).executeTakeFirst();
  return row?.email ?? null;
}

/** Subscription check (spec 1 §7): 0 usable, 1 not, with the reason. */
export async function checkNotifyType(ctx: AppContext, caller: Caller, notifyType: NotifyType): Promise<{ data: number; msg: string }> {
  const reason = unusableReason(await loadNotifySettings(ctx), notifyType, await userEmail(ctx.db, caller.userId));
  return reason ? { data: 1, msg: reason } : { data: 0, msg: subscriptionMessages.usable };
}

/** A subscription as the list shows it; nextTime is counted in `zone` (the installation's time zone). */
export function toSubscription(row: SubscriptionRow, now: Date, zone: string): Subscription {
  return {
    id: row.id,
    userId: row.userId,
    userName: row.userName,
    dataType: row.dataType,
    dataId: row.dataId,
    subTitle: row.subTitle,
    notifyTitle: row.notifyTitle,
    notifyType: row.notifyType,
    triggerPeriod: row.triggerPeriod,
    triggerHour: row.triggerHour,
    triggerWeekValue: row.triggerWeekValue,
    triggerDayValue: row.triggerDayValue,
    format: row.format,
    enabled: row.enabled,
    createTime: new Date(row.createTime).toISOString(),
    nextTime: row.enabled ? nextSlot(row, now, zone).toISOString() : null,
  };
}

async function requireOwnSubscription(ctx: AppContext, caller: Caller, id: number): Promise<SubscriptionRow> {
  const row = await findSubscription(ctx.db, id);
  if (!row) throw notFound(subscriptionMessages.notFound);
  if (row.userId !== caller.userId && !caller.isAdministrator) throw forbidden(subscriptionMessages.notOwned);
  return row;
}

/**
 * Save (create / update) for the caller: the title is required (schema), the caller must see
 * the data, and the method must be usable (400 with the check's message). Saving moves
 * last_slot to the latest due time already past, so a save never sends at once for a time of
 * day that has gone by (docs/subscriptions.md).
 */
export async function saveSubscription(ctx: AppContext, caller: Caller, input: SubscriptionSaveParsed, now = new Date()): Promise<Subscription> {
  const existing = input.id ? await requireOwnSubscription(ctx, caller, input.id) : undefined;
  const ownerId = existing?.userId ?? caller.userId;
  const target = await requireSubscriptionTarget(ctx, caller, input.dataType, input.dataId);
  // What is sent is what the subscriber may see: a chart reading a column hidden from them is refused here.
  await assertBoardsShowNoHiddenColumns(ctx, caller, target.boardIds);
  const reason = unusableReason(await loadNotifySettings(ctx), input.notifyType, await userEmail(ctx.db, ownerId));
  if (reason) throw badRequest(reason, [{ field: 'notifyType', message: reason }]);
  const zone = await serverTimeZone(ctx);
  const values = {
    dataType: input.dataType,
    dataId: input.dataId,
    subTitle: input.subTitle,
    notifyTitle: input.notifyTitle,
    notifyType: input.notifyType,
    triggerPeriod: input.triggerPeriod,
    triggerHour: input.triggerHour,
    triggerWeekValue: input.triggerWeekValue,
    triggerDayValue: input.triggerDayValue,
    format: input.format,
    enabled: input.enabled,
    lastSlot: latestSlot(input, now, zone),
  };
  const id = existing
    ? (await ctx.db.updateTable('subscription').set(values).where('id', '=', existing.id).returning('id').executeTakeFirstOrThrow()).id
    : (
        await ctx.db
          .insertInto('subscription')
          .values({ ...values, userId: caller.userId })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
  return toSubscription((await findSubscription(ctx.db, id))!, now, zone);
}

/** The caller's subscriptions (administrators: everyone's), newest first. */
export async function listSubscriptions(ctx: AppContext, caller: Caller, query: z.output<typeof subscriptionListQuerySchema>): Promise<Page<Subscription>> {
  let base = selectSubscriptions(ctx.db);
  if (!caller.isAdministrator) base = base.where('subscription.userId', '=', caller.userId);
  if (query.dataType) base = base.where('subscription.dataType', '=', query.dataType);
  if (query.dataId) base = base.where('subscription.dataId', '=', query.dataId);
  const total = await base
    .clearSelect()
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const zone = await serverTimeZone(ctx);
  const now = new Date();
  const rows = await base
    .orderBy('subscription.createTime', 'desc')
    .orderBy('subscription.id', 'desc')
    .limit(query.size)
    .offset((query.current - 1) * query.size)
    .execute();
  return page(
    rows.map((row) => toSubscription(row, now, zone)),
    Number(total.n),
    query.current,
    query.size,
  );
}

export async function setSubscriptionEnabled(ctx: AppContext, caller: Caller, id: number, enabled: boolean, now = new Date()): Promise<Subscription> {
  const row = await requireOwnSubscription(ctx, caller, id);
  const zone = await serverTimeZone(ctx);
  // Re-enabling does not send the times that passed while it was off.
  await ctx.db
    .updateTable('subscription')
    .set({ enabled, lastSlot: latestSlot(row, now, zone) })
    .where('id', '=', id)
    .execute();
  return toSubscription((await findSubscription(ctx.db, id))!, now, zone);
}

/**
 * After 系统设置 → 时区 changes: every subscription keeps its hour in the new zone (8:00 stays
 * 8:00 on the new clock), and a due time of the new zone that has already passed is treated
 * as handed out, as a save does — so the change itself never sends anything, nor a second
 * report for a day already served (docs/subscriptions.md "Scheduler"). last_slot only moves
 * forward: a zone further east, whose latest time is older than the last send, changes nothing.
 */
export async function realignSchedules(ctx: AppContext, zone: string, now = new Date()): Promise<void> {
  const subs = await ctx.db
    .selectFrom('subscription')
    .select(['id', 'triggerPeriod', 'triggerHour', 'triggerWeekValue', 'triggerDayValue'])
    .where('enabled', '=', true)
    .execute();
  for (const sub of subs) await advanceLastSlot(ctx.db, sub.id, latestSlot(sub, now, zone));
}

export async function deleteSubscription(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  await requireOwnSubscription(ctx, caller, id);
  await ctx.db.deleteFrom('subscription').where('id', '=', id).execute();
}

/** 立即发送 (administrators): the same job and log as a due time, for the current instant. */
export async function sendNow(ctx: AppContext, id: number): Promise<void> {
  if (!ctx.jobs) throw new AppError(503, subscriptionMessages.jobsOff);
  if (!(await findSubscription(ctx.db, id))) throw notFound(subscriptionMessages.notFound);
  const slot = new Date().toISOString();
  const data: SendJobData = { subscriptionId: id, slot };
  await ctx.jobs.send(SUBSCRIPTION_SEND_JOB, data, { singletonKey: `${id}:${slot}` });
}

export function toLog(row: SubscriptionLogRow): SubscriptionLog {
  return {
    id: row.id,
    subscriptionId: row.subscriptionId,
    subTitle: row.subTitle,
    dataType: row.dataType,
    dataId: row.dataId,
    userId: row.userId,
    userName: row.userName,
    notifyType: NOTIFY_TYPES.includes(row.notifyType) ? row.notifyType : 'email',
    state: row.state,
    errCode: row.errCode,
    errMsg: row.errMsg,
    content: row.content,
    slot: new Date(row.slot).toISOString(),
    createTime: new Date(row.createTime).toISOString(),
  };
}

/** A bound of the log's range: an instant with its offset, or a bare yyyy-MM-dd taken as the start of that day in the installation's zone. */
function dayStart(bound: string, zone: string): Date {
  if (bound.length > 10 && !Number.isNaN(Date.parse(bound))) return new Date(bound);
  const [year, month, day] = bound.slice(0, 10).split('-').map(Number);
  return instantOfWallClock(zone, year!, month!, day!);
}

/**
 * The log (spec 1 §7 "Subscription log"): administrators see everyone's (userId filters),
 * others their own. startTime / endTime are day starts: bare yyyy-MM-dd (what the page sends)
 * are days of the installation's time zone, an instant with its offset is taken as is; endTime is exclusive — the page
 * sends the chosen end day plus one (spec 1 §5).
 */
export async function listLogs(ctx: AppContext, caller: Caller, query: z.output<typeof subscriptionLogQuerySchema>): Promise<Page<SubscriptionLog>> {
  let base = ctx.db.selectFrom('subscriptionLog');
  if (!caller.isAdministrator) base = base.where('userId', '=', caller.userId);
  else if (query.userId) base = base.where('userId', '=', query.userId);
  if (query.subTitle) base = base.where('subTitle', 'ilike', `%${query.subTitle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  if (query.dataType) base = base.where('dataType', '=', query.dataType);
  if (query.dataId) base = base.where('dataId', '=', query.dataId);
  if (query.errCode !== undefined) base = query.errCode === 0 ? base.where('errCode', '=', 0) : base.where('errCode', '<>', 0);
  const zone = await serverTimeZone(ctx);
  if (query.startTime) base = base.where('createTime', '>=', dayStart(query.startTime, zone));
  if (query.endTime) base = base.where('createTime', '<', dayStart(query.endTime, zone));
  const total = await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('createTime', 'desc')
    .orderBy('id', 'desc')
    .limit(query.size)
    .offset((query.current - 1) * query.size)
    .execute();
  return page(rows.map(toLog), Number(total.n), query.current, query.size);
}

export async function getLog(ctx: AppContext, caller: Caller, id: number): Promise<SubscriptionLog> {
  const row = await ctx.db.selectFrom('subscriptionLog').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row || (!caller.isAdministrator && row.userId !== caller.userId)) throw notFound(subscriptionMessages.logNotFound);
  return toLog(row);
}
