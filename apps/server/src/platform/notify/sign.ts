import { createHmac } from 'node:crypto';

/**
 * Robot signatures, as the platforms publish them:
 * - DingTalk: sign = Base64(HmacSHA256(key = secret, message = timestamp + "\n" + secret)),
 *   timestamp in milliseconds, both appended to the webhook URL as &timestamp=&sign= (URL-encoded).
 * - Feishu: sign = Base64(HmacSHA256(key = timestamp + "\n" + secret, message = "")),
 *   timestamp in seconds, both in the JSON body (timestamp as a string).
 */
export function dingtalkSign(secret: string, timestampMs: number): string {
  return createHmac('sha256', secret).update(`${timestampMs}\n${secret}`, 'utf8').digest('base64');
}

export function feishuSign(secret: string, timestampSeconds: number): string {
  return createHmac('sha256', `${timestampSeconds}\n${secret}`).update('').digest('base64');
}

/** The webhook URL with DingTalk's timestamp and sign parameters (none without a secret). */
export function dingtalkSignedUrl(webhook: string, secret: string, now = Date.now()): string {
  if (!secret) return webhook;
  const url = new URL(webhook);
  url.searchParams.set('timestamp', String(now));
  url.searchParams.set('sign', dingtalkSign(secret, now));
  return url.toString();
}
