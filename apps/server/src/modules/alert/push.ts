import { createHmac } from 'node:crypto';
import { SMS_SECRET_MASK, type AlertPushSettings } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { DecryptError, decryptSecret, encryptSecret, resolveSecretKey } from '../../platform/crypto.ts';
import { NotifyError, postJson } from '../../platform/notify/message.ts';

/**
 * Third-party push (spec 3 §2 "third-party push section"; docs/alerts.md "Third-party push"): a
 * JSON POST to the configured endpoint, signed so the receiver can trust it — headers
 * `X-Shutu-Timestamp` (seconds) and `X-Shutu-Signature` = hex HMAC-SHA256(secret, timestamp + "." +
 * body). The settings live in sys_config (alertPushSettings); the secret is encrypted like the
 * SMTP password and answered as ******.
 */

const KEY = 'alertPushSettings';
const CONTEXT = 'shutu:alert.push.secret';
const CHANNEL = '第三方推送';

export async function loadPushSettings(ctx: AppContext): Promise<AlertPushSettings> {
  const row = await ctx.db.selectFrom('sysConfig').select('value').where('key', '=', KEY).executeTakeFirst();
  const stored = row ? (JSON.parse(row.value) as AlertPushSettings) : { url: '', secret: '' };
  let secret = '';
  if (stored.secret) {
    try {
      secret = decryptSecret(resolveSecretKey(ctx.config), stored.secret, CONTEXT);
    } catch (error) {
      if (!(error instanceof DecryptError)) throw error;
    }
  }
  return { url: stored.url ?? '', secret };
}

export const maskedPush = (s: AlertPushSettings): AlertPushSettings => ({ url: s.url, secret: s.secret ? SMS_SECRET_MASK : '' });

export async function savePushSettings(ctx: AppContext, input: AlertPushSettings): Promise<AlertPushSettings> {
  const previous = await loadPushSettings(ctx);
  const secret = input.secret === SMS_SECRET_MASK ? previous.secret : input.secret;
  const value = JSON.stringify({ url: input.url, secret: secret ? encryptSecret(resolveSecretKey(ctx.config), secret, CONTEXT) : '' });
  await ctx.db
    .insertInto('sysConfig')
    .values({ key: KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
  return maskedPush(await loadPushSettings(ctx));
}

export function pushSignature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

export async function sendPush(settings: AlertPushSettings, payload: Record<string, unknown>, now = new Date()): Promise<void> {
  if (!settings.url) throw new NotifyError('未配置第三方推送地址，请联系管理员');
  const body = JSON.stringify(payload);
  const timestamp = Math.floor(now.getTime() / 1000);
  const answer = await postJson(CHANNEL, settings.url, JSON.parse(body), {
    'x-shutu-timestamp': String(timestamp),
    'x-shutu-signature': pushSignature(settings.secret, timestamp, body),
  });
  const code = answer.code ?? answer.errcode;
  if (code !== undefined && code !== 0 && code !== '0')
    throw new NotifyError(`${CHANNEL}拒绝了消息（${String(code)}）：${String(answer.msg ?? answer.message ?? '')}`);
}
