import type { AlertWay, NotifySettings } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { sendEmail } from '../../platform/notify/email.ts';
import { NotifyError, type NotifyMessage } from '../../platform/notify/message.ts';
import { sendDingtalk, sendFeishu, sendTianxiangyun, sendWecom } from '../../platform/notify/robots.ts';
import { loadNotifySettings } from '../system/index.ts';
import { sendSms, type SmsSend } from './sms/client.ts';
import type { SmsProvider } from '@shutu/contracts';

/**
 * Delivering one alert notice (docs/alerts.md "Channels"): through the subscriptions' notify code
 * (platform/notify), to each recipient of each chosen way — every user's email address, or the
 * configured group robot once. Each (check, channel, recipient) is a claimed alert_send row, so a
 * retried check never sends it twice. Robots are held to 20 messages a minute (DingTalk's and
 * WeCom's limit) counted over every process in the store.
 */

export const CHANNEL_PER_MINUTE: Partial<Record<AlertWay, number>> = { qywechat: 20, dingtalk: 20, feishu: 20, tianxiangyun: 20 };
export const ROBOT_RECIPIENT = 'robot';
export const alertChannelMessages = {
  noEmail: '用户【{name}】未填写邮箱',
  noPhone: '用户【{name}】未填写手机号',
  smsUnset: '短信模板不存在，请重新选择',
  emailServerMissing: '未配置邮件服务器，请联系管理员',
  robotMissing: '未配置{channel}，请联系管理员',
  rateLimited: '{channel}每分钟最多发送 {limit} 条，本次未能在一分钟内发出',
} as const;

export interface Recipient {
  channel: AlertWay;
  recipient: string;
  /** Why it cannot be sent (no email address …): recorded as a failed send. */
  problem?: string;
}

const ROBOT_NAMES = { qywechat: '企业微信机器人', dingtalk: '钉钉机器人', feishu: '飞书机器人', tianxiangyun: '天象云推送地址' } as const;

/** Who receives a notice on each chosen way. SMS and push are delivered elsewhere. */
export async function recipientsOf(ctx: AppContext, ways: readonly AlertWay[], userIds: number[]): Promise<Recipient[]> {
  const users =
    userIds.length === 0
      ? []
      : await ctx.db.selectFrom('sysUser').select(['id', 'name', 'realName', 'email', 'phone']).where('id', 'in', userIds).where('status', '=', 1).execute();
  const out: Recipient[] = [];
  for (const way of ways) {
    if (way === 'email') {
      for (const u of users) {
        out.push(
          u.email
            ? { channel: way, recipient: u.email }
            : { channel: way, recipient: `user:${u.id}`, problem: alertChannelMessages.noEmail.replace('{name}', u.realName || u.name) },
        );
      }
    } else if (way === 'sms') {
      for (const u of users) {
        out.push(
          u.phone
            ? { channel: way, recipient: u.phone }
            : { channel: way, recipient: `user:${u.id}`, problem: alertChannelMessages.noPhone.replace('{name}', u.realName || u.name) },
        );
      }
    } else {
      out.push({ channel: way, recipient: ROBOT_RECIPIENT });
    }
  }
  return out;
}

function robotMissing(settings: NotifySettings, channel: keyof typeof ROBOT_NAMES): string | null {
  const url = {
    qywechat: settings.wecomWebhook,
    dingtalk: settings.dingtalkWebhook,
    feishu: settings.feishuWebhook,
    tianxiangyun: settings.tianxiangyunWebhook,
  }[channel];
  return url ? null : alertChannelMessages.robotMissing.replace('{channel}', ROBOT_NAMES[channel]);
}

/** Waits (up to a minute) until the channel has sent fewer than its limit in the last minute. */
async function underRateLimit(ctx: AppContext, channel: AlertWay): Promise<void> {
  const limit = CHANNEL_PER_MINUTE[channel];
  if (!limit) return;
  for (let waited = 0; waited <= 60; waited += 1) {
    const since = new Date(Date.now() - 60_000);
    const row = await ctx.db
      .selectFrom('alertSend')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('channel', '=', channel)
      .where('status', '=', 'sent')
      .where('createTime', '>', since)
      .executeTakeFirstOrThrow();
    if (Number(row.n) < limit) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new NotifyError(
    alertChannelMessages.rateLimited.replace('{channel}', ROBOT_NAMES[channel as keyof typeof ROBOT_NAMES] ?? channel).replace('{limit}', String(limit)),
  );
}

/** What an SMS carries: the provider of the template's category and the template's variables filled. */
export interface SmsContent {
  provider: SmsProvider;
  params: SmsSend['params'];
}

export async function deliver(ctx: AppContext, to: Recipient, message: NotifyMessage, sms: SmsContent | null): Promise<void> {
  if (to.problem) throw new NotifyError(to.problem);
  const settings = await loadNotifySettings(ctx);
  await underRateLimit(ctx, to.channel);
  switch (to.channel) {
    case 'email':
      if (!settings.smtpHost || !settings.smtpFrom) throw new NotifyError(alertChannelMessages.emailServerMissing);
      return sendEmail(
        {
          host: settings.smtpHost,
          port: settings.smtpPort,
          secure: settings.smtpSecure,
          user: settings.smtpUser,
          password: settings.smtpPassword,
          from: settings.smtpFrom,
        },
        to.recipient,
        message,
      );
    case 'qywechat':
    case 'dingtalk':
    case 'feishu':
    case 'tianxiangyun': {
      const missing = robotMissing(settings, to.channel);
      if (missing) throw new NotifyError(missing);
      if (to.channel === 'qywechat') return sendWecom(settings.wecomWebhook, message);
      if (to.channel === 'dingtalk') return sendDingtalk(settings.dingtalkWebhook, settings.dingtalkSecret, message);
      if (to.channel === 'feishu') return sendFeishu(settings.feishuWebhook, settings.feishuSecret, message);
      return sendTianxiangyun(settings.tianxiangyunWebhook, settings.tianxiangyunToken, message);
    }
    case 'sms':
      if (!sms) throw new NotifyError(alertChannelMessages.smsUnset);
      return sendSms(sms.provider, { phones: [to.recipient], params: sms.params });
  }
}
