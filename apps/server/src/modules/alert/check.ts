import type { Logger } from 'pino';
import {
  ALERT_CHECK_JOB,
  ALERT_LOG_ROWS,
  ALERT_MESSAGE_ROWS,
  alertCheckRoute,
  subscriptionPreviewPath,
  templateVariables,
  type AlertRecord,
  type AlertWay,
  type ResultField,
} from '@shutu/contracts';
import type { Row } from '@shutu/connectors';
import type { AppContext } from '../../context.ts';
import { NotifyError, type NotifyMessage } from '../../platform/notify/message.ts';
import { linkBaseUrl, serverTimeZoneOffsetMinutes } from '../system/index.ts';
import { boardImage } from './board-image.ts';
import { deliver, recipientsOf, type SmsContent } from './channels.ts';
import { departmentMembers } from './recipients.ts';
import { loadSmsProvider } from './sms/settings.ts';
import { loadPushSettings, sendPush } from './push.ts';
import { clockOf, decide, type Decision } from './decide.ts';
import { checkRows } from './query.ts';
import { findAlert, toRecord } from './repo.ts';
import { claimCheck, claimSend, failCheck, finishCheck, finishSend, recordDecision, type CheckClaim, type Found } from './check-repo.ts';

/**
 * One check of one due slot (docs/alerts.md "Checks"). It first CLAIMS (alert, slot) — UNIQUE in
 * alert_check, so two processes, a duplicate job or a restart never check a slot twice — then
 * reads the rows as the alert's owner, decides (decide.ts) and records state and decision on the
 * alert and the check row in one transaction, then sends: each (check, channel, recipient) is
 * claimed in alert_send before it is sent, so a retried check (its run died) delivers only what
 * was not yet delivered. A claim whose run died is taken over once by the pg-boss retry.
 */

export interface CheckJobData {
  alertId: number;
  slot: string;
}

const text = (v: unknown) => (v === null || v === undefined ? '' : v instanceof Date ? v.toISOString().slice(0, 19).replace('T', ' ') : String(v));

/** `${字段标题}` → the first row's value; `${预警名称}`, `${行数}`, `${时间范围}` too. */
export function fillTemplate(template: string, fields: ResultField[], rows: Row[], extra: Record<string, string>): string {
  const first = rows[0] ?? {};
  return template.replace(/\$\{\s*([^}]+?)\s*\}/g, (m, name: string) => {
    if (name in extra) return extra[name]!;
    const field = fields.find((f) => f.title === name);
    return field ? text(first[field.alias]) : m;
  });
}

function buildMessage(
  alert: Pick<AlertRecord, 'id' | 'name' | 'messageDynamicContent' | 'visualDataJson'>,
  decision: Decision,
  check: Found,
  /** Where recipients reach the product (公开访问地址, else the server's own address). */
  base: string | undefined,
): NotifyMessage {
  const link = base ? `${base}${alertCheckRoute(alert.id)}` : undefined;
  if (decision.reason === 'recovered') {
    return { title: `【预警恢复】${alert.name}`, lines: [`预警【${alert.name}】已恢复正常（${check.window.join(' 至 ')}）`], link, images: [] };
  }
  const extra = { 预警名称: alert.name, 行数: String(check.rowCount), 时间范围: check.window.join(' 至 ') };
  const head = alert.messageDynamicContent.trim()
    ? fillTemplate(alert.messageDynamicContent, check.fields, check.rows, extra)
    : `预警【${alert.name}】触发：${check.rowCount} 行数据满足预警条件（${extra.时间范围}）`;
  const rows = check.rows.slice(0, ALERT_MESSAGE_ROWS).map((r) => check.fields.map((f) => `${f.title}：${text(r[f.alias])}`).join('，'));
  // Attached reports (visualDataJson) as links into the product; the recipient opens them signed in, with their own rights.
  const reports = alert.visualDataJson.map((v) => `报表【${v.title}】：${base ?? ''}${subscriptionPreviewPath('visual', v.id)}`);
  return { title: `【预警】${alert.name}`, lines: [head, ...rows, ...reports], link, images: [] };
}

/**
 * The SMS of a notice: the template's variables in order, each mapped (smsParams) to a field of
 * the rows (`field:<cubeColumnId>`, the first row's value) or a fixed text. Null when the
 * template is gone (each SMS send then fails with 短信模板不存在).
 */
async function smsContent(ctx: AppContext, alert: AlertRecord, found: Found): Promise<SmsContent | null> {
  if (!alert.checkedWays.includes('sms') || !alert.smsId) return null;
  const template = await ctx.db.selectFrom('alertSmsTemplate').select(['templateContent', 'category']).where('id', '=', alert.smsId).executeTakeFirst();
  if (!template) return null;
  const first = found.rows[0] ?? {};
  const params = templateVariables(template.templateContent).map((name): [string, string] => {
    const mapped = alert.smsParams[name] ?? '';
    const field = /^field:(\d+)$/.exec(mapped);
    if (!field) return [name, mapped];
    const column = found.fields.find((f) => String(f.fieldId) === field[1]);
    return [name, column ? text(first[column.alias]) : ''];
  });
  return { provider: await loadSmsProvider(ctx, template.category as SmsContent['provider']['category']), params };
}

/** The third-party push of a notice: one claimed send (channel push), the signed JSON webhook (push.ts). */
async function push(ctx: AppContext, checkId: number, alert: AlertRecord, decision: Decision, found: Found, message: NotifyMessage, slot: Date): Promise<void> {
  const sendId = await claimSend(ctx.db, checkId, alert.id, 'push', 'webhook');
  if (sendId === undefined) return;
  try {
    await sendPush(await loadPushSettings(ctx), {
      alertId: alert.id,
      alertName: alert.name,
      state: decision.state,
      reason: decision.reason,
      slot: slot.toISOString(),
      window: found.window,
      rowCount: found.rowCount,
      content: message.lines[0] ?? '',
      rows: found.rows.map((r) => Object.fromEntries(found.fields.map((f) => [f.title, text(r[f.alias])]))),
      warningWays: alert.warningWays,
      flowId: alert.flowId ?? null,
    });
    await finishSend(ctx.db, sendId, null);
  } catch (error) {
    await finishSend(ctx.db, sendId, error instanceof Error ? error.message : String(error));
  }
}

/** The check job. Never throws for a failing query or channel: both are logged on the check row. */
export async function runCheck(
  ctx: AppContext,
  log: Logger,
  data: CheckJobData,
  runId: string | null = null,
  now = new Date(),
): Promise<'checked' | 'skipped' | 'failed'> {
  const row = await findAlert(ctx.db, data.alertId);
  if (!row) return 'skipped';
  const alert = toRecord(row);
  const slot = new Date(data.slot);
  const claim: CheckClaim | undefined = await claimCheck(ctx.db, alert.id, slot, runId, new Date(now.getTime() - ctx.config.subscriptionStaleClaimMs));
  if (!claim) {
    log.info(data, 'alert slot already claimed');
    return 'skipped';
  }
  const started = performance.now();
  let decision = claim.decision;
  let found = claim.found;
  if (!decision) {
    try {
      const owner = await ctx.db
        .selectFrom('sysUser')
        .select(['id', 'isAdministrator'])
        .where('id', '=', row.createUserId ?? 0)
        .where('status', '=', 1)
        .executeTakeFirst();
      if (!owner) throw new NotifyError('预警创建人不存在或已停用');
      const result = await checkRows(ctx, { userId: owner.id, isAdministrator: owner.isAdministrator }, alert, now);
      found = {
        fields: result.fields,
        rows: result.rows.slice(0, ALERT_LOG_ROWS),
        rowCount: result.rows.length,
        window: [result.window.start, result.window.end],
      };
      const offset = await serverTimeZoneOffsetMinutes(ctx, now);
      decision = decide(
        { state: row.state, stateSince: row.stateSince, lastNotifiedTime: row.lastNotifiedTime },
        result.rows.length > 0,
        {
          repeatIntervalSeconds: alert.repeatIntervalSeconds,
          notifyRecovery: alert.notifyRecovery,
          quietStart: alert.quietStart ?? null,
          quietEnd: alert.quietEnd ?? null,
        },
        now,
        clockOf(now, offset),
      );
      await recordDecision(ctx.db, claim.id, alert.id, decision, found, now, Math.round(performance.now() - started));
    } catch (error) {
      await failCheck(ctx.db, claim.id, alert.id, error instanceof Error ? error.message : String(error), now, Math.round(performance.now() - started));
      log.warn({ err: error, ...data }, 'alert check failed');
      return 'failed';
    }
  }
  if (decision.reason === 'started' || decision.reason === 'repeat' || decision.reason === 'recovered') {
    const base = await linkBaseUrl(ctx, ctx.selfUrl);
    const message = buildMessage(alert, decision, found!, base || undefined);
    // The first attached board as an image for email and the robots, rendered once per notice as the owner.
    const first = alert.visualDataJson[0];
    if (first && decision.reason !== 'recovered' && alert.checkedWays.some((w) => w !== 'sms')) {
      const image = await boardImage(ctx, row.createUserId ?? 0, first);
      if (typeof image === 'string') message.lines.push(image);
      else message.images.push(image);
    }
    const sms = await smsContent(ctx, alert, found!);
    // The chosen users and, as they are now, the members of the chosen departments (docs/alerts.md).
    const chosen = alert.warnUserIds
      .split(',')
      .map(Number)
      .filter((n) => n > 0);
    const users = [...new Set([...chosen, ...(await departmentMembers(ctx, alert.warnDeptIds))])];
    if (alert.pushEnabled && alert.warningWays.length > 0) await push(ctx, claim.id, alert, decision, found!, message, slot);
    for (const to of await recipientsOf(ctx, alert.checkedWays as AlertWay[], users)) {
      const sendId = await claimSend(ctx.db, claim.id, alert.id, to.channel, to.recipient);
      if (sendId === undefined) continue;
      try {
        await deliver(ctx, to, message, sms);
        await finishSend(ctx.db, sendId, null);
      } catch (error) {
        await finishSend(ctx.db, sendId, error instanceof Error ? error.message : String(error));
      }
    }
  }
  await finishCheck(ctx.db, claim.id);
  log.info({ ...data, state: decision.state, reason: decision.reason }, 'alert checked');
  return 'checked';
}

/** Enqueues a check of `slot` (the tick, 立即检查). Duplicate enqueues collapse; the claim is the real guard. */
export async function enqueueCheck(ctx: AppContext, alertId: number, slot: Date): Promise<void> {
  const data: CheckJobData = { alertId, slot: slot.toISOString() };
  await ctx.jobs!.send(ALERT_CHECK_JOB, data, { singletonKey: `${alertId}:${data.slot}` });
}
