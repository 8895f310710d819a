import type { Logger } from 'pino';
import {
  NOTIFY_TYPE_LABELS,
  SUBSCRIPTION_DATA_TYPE_LABELS,
  SUBSCRIPTION_SEND_JOB,
  formatInZone,
  subscriptionMessages,
  subscriptionPreviewPath,
  timeZoneLabel,
} from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { NotifyError, type NotifyMessage } from '../../platform/notify/message.ts';
import { sendEmail } from '../../platform/notify/email.ts';
import { sendDingtalk, sendFeishu, sendTianxiangyun, sendWecom } from '../../platform/notify/robots.ts';
import { assemblePdf } from '../ppt/index.ts';
import { rendererOf } from '../../platform/render/renderer.ts';
import { linkBaseUrl, loadNotifySettings, serverTimeZone } from '../system/index.ts';
import {
  advanceLastSlot,
  claimSlot,
  failExhaustedClaims,
  finishLog,
  findStaleClaims,
  findSubscription,
  takeOverStaleClaim,
  type SubscriptionRow,
} from './repo.ts';
import { renderBoardWithChromium, removeOldSubscriptionFiles, storeSubscriptionFile, type RenderBoard } from './render.ts';
import { dueSlot } from './schedule.ts';
import type { SendJobData } from './service.ts';
import { unusableReason } from './service.ts';
import { requireSubscriptionTarget } from './targets.ts';

/**
 * Sending (docs/subscriptions.md "Exactly once"). The per-minute tick enqueues one send job per
 * due (subscription, slot); the job first CLAIMS the slot by inserting its log row (pending) —
 * UNIQUE (subscription_id, slot) lets only one claim win, so duplicate jobs, two ticks or a
 * retried job never send twice — then renders, delivers and records the outcome on the row.
 * A crash between claim and outcome leaves a pending row. It is taken over and sent once more
 * (attempts 2) as soon as its job run is known dead — the recovery sweep of a live process fails
 * the job so pg-boss retries it, and the tick re-enqueues it, both within a minute
 * (platform/jobs/recovery.ts) — or, for a claim without a run, after
 * config.subscriptionStaleClaimMs (10 minutes by default). A second crash fails the row
 * (发送中断…), never leaving it pending. The only window for a double delivery is a crash after
 * the channel accepted the message and before the row records it.
 */

/** The log of a send whose retry was interrupted too. */
export const SEND_INTERRUPTED_MESSAGE = '发送过程中服务重启或异常退出，重试一次后仍未完成';

/** Test seams: a fake renderer (Chromium is irrelevant to most tests). */
export interface SubscriptionDeps {
  renderBoard: RenderBoard;
}
const overrides = new WeakMap<AppContext, Partial<SubscriptionDeps>>();
export function overrideSubscriptionDeps(ctx: AppContext, deps: Partial<SubscriptionDeps>): void {
  overrides.set(ctx, deps);
}
const depsOf = (ctx: AppContext): SubscriptionDeps => ({ renderBoard: renderBoardWithChromium, ...overrides.get(ctx) });

/** 2026-11-26 08:00（北京时间）: the due time on the installation's clock, labelled — a recipient may read it anywhere. */
const formatSlot = (instant: Date, zone: string) => `${formatInZone(zone, instant, 'minute')}（${timeZoneLabel(zone, instant)}）`;
/** Characters that cannot be in a file name: separators, reserved ones and control characters. */
const safeFileName = (title: string) =>
  Array.from(title, (ch) => (ch.charCodeAt(0) < 0x20 || '\\/:*?"<>|'.includes(ch) ? '_' : ch))
    .join('')
    .trim() || '大屏';

/** Builds what the channel sends: rendered pages (or one PDF) with their public URLs. */
async function buildMessage(ctx: AppContext, sub: SubscriptionRow, slot: Date): Promise<NotifyMessage> {
  // Rendered as the subscriber, with what they may see today (a revoked grant stops the images).
  const user = await ctx.db.selectFrom('sysUser').select(['id', 'isAdministrator']).where('id', '=', sub.userId).where('status', '=', 1).executeTakeFirst();
  if (!user) throw new NotifyError(subscriptionMessages.userMissing);
  const target = await requireSubscriptionTarget(ctx, { userId: user.id, isAdministrator: user.isAdministrator }, sub.dataType, sub.dataId);
  if (target.boardIds.length === 0) throw new NotifyError(subscriptionMessages.nothingToSend);
  const { renderBoard } = depsOf(ctx);
  const pages = [];
  for (const boardId of target.boardIds) pages.push(await renderBoard(ctx, sub.userId, boardId));
  // 查看详情 points where the recipient reaches 数图: 公开访问地址, else PUBLIC_URL, else this server's own address.
  const base = await linkBaseUrl(ctx, ctx.selfUrl);
  const message: NotifyMessage = {
    title: sub.notifyTitle,
    lines: [
      `订阅内容：${sub.subTitle || target.title}（${SUBSCRIPTION_DATA_TYPE_LABELS[sub.dataType]}）`,
      `订阅时间：${formatSlot(slot, await serverTimeZone(ctx))}`,
    ],
    link: base ? `${base}${subscriptionPreviewPath(sub.dataType, sub.dataId)}` : undefined,
    images: [],
  };
  if (sub.format === 'pdf') {
    const pdf = await assemblePdf(
      rendererOf(ctx),
      pages.map((p) => ({ image: p.image, width: p.width, height: p.height })),
      { title: sub.notifyTitle, watermark: null },
    );
    message.pdf = {
      name: `${safeFileName(sub.notifyTitle)}.pdf`,
      data: pdf,
      contentType: 'application/pdf',
      url: await storeSubscriptionFile(ctx, pdf, 'pdf'),
    };
    return message;
  }
  for (const p of pages) {
    message.images.push({ name: `${safeFileName(p.title)}.jpg`, data: p.image, url: await storeSubscriptionFile(ctx, p.image, 'jpg'), reencode: p.reencode });
  }
  return message;
}

async function deliver(ctx: AppContext, sub: SubscriptionRow, message: NotifyMessage): Promise<void> {
  const settings = await loadNotifySettings(ctx);
  const email = (await ctx.db.selectFrom('sysUser').select('email').where('id', '=', sub.userId).executeTakeFirst())?.email ?? null;
  const reason = unusableReason(settings, sub.notifyType, email);
  if (reason) throw new NotifyError(reason);
  switch (sub.notifyType) {
    case 'email':
      return sendEmail(
        {
          host: settings.smtpHost,
          port: settings.smtpPort,
          secure: settings.smtpSecure,
          user: settings.smtpUser,
          password: settings.smtpPassword,
          from: settings.smtpFrom,
        },
        email!,
        message,
      );
    case 'qywechat':
      return sendWecom(settings.wecomWebhook, message);
    case 'dingtalk':
      return sendDingtalk(settings.dingtalkWebhook, settings.dingtalkSecret, message);
    case 'feishu':
      return sendFeishu(settings.feishuWebhook, settings.feishuSecret, message);
    case 'tianxiangyun':
      return sendTianxiangyun(settings.tianxiangyunWebhook, settings.tianxiangyunToken, message);
  }
}

const describeContent = (message: NotifyMessage) =>
  [`标题：${message.title}`, `文件：${[...message.images.map((i) => i.name), ...(message.pdf ? [message.pdf.name] : [])].join('、') || '无'}`].join('；');

/** The send job: claim, render, deliver, record. Never throws for a delivery failure (it is logged on the row). */
export async function sendSubscription(
  ctx: AppContext,
  log: Logger,
  data: SendJobData,
  now = new Date(),
  runId: string | null = null,
): Promise<'sent' | 'failed' | 'skipped'> {
  const slot = new Date(data.slot);
  const sub = await findSubscription(ctx.db, data.subscriptionId);
  if (!sub) return 'skipped';
  const logId =
    (await claimSlot(ctx.db, {
      subscriptionId: sub.id,
      subTitle: sub.subTitle,
      dataType: sub.dataType,
      dataId: sub.dataId,
      userId: sub.userId,
      userName: sub.userName,
      notifyType: sub.notifyType,
      content: `标题：${sub.notifyTitle}`,
      slot,
      runId,
    })) ?? (await takeOverStaleClaim(ctx.db, sub.id, slot, new Date(now.getTime() - ctx.config.subscriptionStaleClaimMs), runId));
  if (logId === undefined) {
    log.info({ subscriptionId: sub.id, slot: data.slot }, 'subscription slot already claimed');
    return 'skipped';
  }
  let message: NotifyMessage | undefined;
  try {
    message = await buildMessage(ctx, sub, slot);
    await deliver(ctx, sub, message);
    await finishLog(ctx.db, logId, { errCode: 0, errMsg: null, content: describeContent(message) });
    log.info({ subscriptionId: sub.id, slot: data.slot, via: NOTIFY_TYPE_LABELS[sub.notifyType] }, 'subscription sent');
    return 'sent';
  } catch (error) {
    const errMsg = error instanceof Error ? error.message : String(error);
    const errCode = error instanceof NotifyError ? error.code : 1;
    await finishLog(ctx.db, logId, { errCode: errCode || 1, errMsg, content: message ? describeContent(message) : `标题：${sub.notifyTitle}` });
    log.warn({ err: error, subscriptionId: sub.id, slot: data.slot }, 'subscription not sent');
    return 'failed';
  }
}

/**
 * The tick (every minute, and once when a server starts): enqueue every enabled subscription
 * whose latest due time is new and within the catch-up window (an hour by default: downtime),
 * re-enqueue claims a crash left pending, and fail those a crash interrupted twice. The job is
 * sent before last_slot moves: a crash in between re-sends a job whose claim fails.
 */
export async function runTick(ctx: AppContext, log: Logger, now = new Date()): Promise<number> {
  if (!ctx.jobs) return 0;
  const { subscriptionCatchUpMs, subscriptionStaleClaimMs } = ctx.config;
  let due = 0;
  let retried = 0;
  const zone = await serverTimeZone(ctx);
  const subs = await ctx.db
    .selectFrom('subscription')
    .select(['id', 'triggerPeriod', 'triggerHour', 'triggerWeekValue', 'triggerDayValue', 'lastSlot'])
    .where('enabled', '=', true)
    .execute();
  for (const sub of subs) {
    const slot = dueSlot(sub, sub.lastSlot, now, subscriptionCatchUpMs, zone);
    if (!slot) continue;
    const data: SendJobData = { subscriptionId: sub.id, slot: slot.toISOString() };
    await ctx.jobs.send(SUBSCRIPTION_SEND_JOB, data, { singletonKey: `${sub.id}:${data.slot}` });
    await advanceLastSlot(ctx.db, sub.id, slot);
    due += 1;
  }
  const staleBefore = new Date(now.getTime() - subscriptionStaleClaimMs);
  const abandoned = await failExhaustedClaims(ctx.db, staleBefore, SEND_INTERRUPTED_MESSAGE);
  if (abandoned > 0) log.warn({ abandoned }, 'subscription sends interrupted twice: failed');
  for (const stale of await findStaleClaims(ctx.db, staleBefore)) {
    const data: SendJobData = { subscriptionId: stale.subscriptionId!, slot: new Date(stale.slot).toISOString() };
    await ctx.jobs.send(SUBSCRIPTION_SEND_JOB, data, { singletonKey: `${data.subscriptionId}:${data.slot}` });
    log.warn(data, 'retrying a subscription send a crash left pending');
    retried += 1;
  }
  if (now.getUTCMinutes() === 7) await removeOldSubscriptionFiles(ctx, now.getTime());
  log.info({ due, retried }, 'subscription tick');
  return due + retried;
}
