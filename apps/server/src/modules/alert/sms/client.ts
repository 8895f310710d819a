import type { SmsProvider } from '@shutu/contracts';
import { NotifyError } from '../../../platform/notify/message.ts';
import { aliyunSignedParams, qiniuToken, tc3Authorization } from './sign.ts';

/**
 * Sending one SMS template to some phones through a provider's HTTP API with its own request
 * signing (sign.ts). Endpoints are configurable (tests point them at local fake providers that
 * verify the signatures). A refusal becomes a NotifyError with the provider's code and words.
 */

export const SMS_DEFAULT_ENDPOINTS = {
  aliyun: 'https://dysmsapi.aliyuncs.com',
  qiniu: 'https://sms.qiniuapi.com',
  tencent: 'https://sms.tencentcloudapi.com',
} as const;
const NAMES = { aliyun: '阿里云短信', qiniu: '七牛云短信', tencent: '腾讯云短信' } as const;

export interface SmsSend {
  phones: string[];
  /** Template variables → values, in the template's order. */
  params: [string, string][];
}

async function request(channel: string, url: string, init: RequestInit): Promise<{ status: number; body: Record<string, unknown> }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(20_000) });
  } catch (error) {
    throw new NotifyError(`无法连接${channel}：${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message}`);
  }
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    if (!res.ok) throw new NotifyError(`${channel}返回 HTTP ${res.status}：${text.slice(0, 200)}`);
  }
  return { status: res.status, body };
}

const refused = (channel: string, code: unknown, msg: unknown) => new NotifyError(`${channel}拒绝了短信（${String(code)}）：${String(msg ?? '')}`);

async function sendAliyun(p: SmsProvider, send: SmsSend, now: Date): Promise<void> {
  const params = aliyunSignedParams(
    'POST',
    {
      Action: 'SendSms',
      Version: '2017-05-25',
      RegionId: p.regionId || 'cn-hangzhou',
      PhoneNumbers: send.phones.join(','),
      SignName: p.signName,
      TemplateCode: p.templateId,
      TemplateParam: JSON.stringify(Object.fromEntries(send.params)),
    },
    p.accessKey,
    p.secretKey,
    now,
  );
  const { body } = await request(NAMES.aliyun, `${p.endpoint || SMS_DEFAULT_ENDPOINTS.aliyun}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  if (body.Code !== 'OK') throw refused(NAMES.aliyun, body.Code ?? 'HTTP', body.Message);
}

async function sendTencent(p: SmsProvider, send: SmsSend, now: Date): Promise<void> {
  const endpoint = new URL(p.endpoint || SMS_DEFAULT_ENDPOINTS.tencent);
  const payload = JSON.stringify({
    PhoneNumberSet: send.phones.map((phone) => (phone.startsWith('+') ? phone : `+86${phone}`)),
    SmsSdkAppId: p.appId,
    SignName: p.signName,
    TemplateId: p.templateId,
    TemplateParamSet: send.params.map(([, v]) => v),
  });
  const timestamp = Math.floor(now.getTime() / 1000);
  const contentType = 'application/json; charset=utf-8';
  const authorization = tc3Authorization({
    secretId: p.accessKey,
    secretKey: p.secretKey,
    service: 'sms',
    host: endpoint.host,
    contentType,
    body: payload,
    timestamp,
  });
  const { body } = await request(NAMES.tencent, endpoint.toString(), {
    method: 'POST',
    headers: {
      authorization,
      'content-type': contentType,
      'x-tc-action': 'SendSms',
      'x-tc-version': '2021-01-11',
      'x-tc-timestamp': String(timestamp),
      'x-tc-region': p.regionId || 'ap-beijing',
    },
    body: payload,
  });
  const response = (body.Response ?? {}) as { Error?: { Code: string; Message: string }; SendStatusSet?: { Code: string; Message: string }[] };
  if (response.Error) throw refused(NAMES.tencent, response.Error.Code, response.Error.Message);
  const failed = (response.SendStatusSet ?? []).find((s) => s.Code !== 'Ok');
  if (failed) throw refused(NAMES.tencent, failed.Code, failed.Message);
}

async function sendQiniu(p: SmsProvider, send: SmsSend): Promise<void> {
  const url = new URL('/v1/message', p.endpoint || SMS_DEFAULT_ENDPOINTS.qiniu);
  const payload = JSON.stringify({ template_id: p.templateId, mobiles: send.phones, parameters: Object.fromEntries(send.params) });
  const contentType = 'application/json';
  const authorization = qiniuToken(p.accessKey, p.secretKey, { method: 'POST', path: url.pathname, host: url.host, contentType, body: payload });
  const { status, body } = await request(NAMES.qiniu, url.toString(), {
    method: 'POST',
    headers: { authorization, 'content-type': contentType },
    body: payload,
  });
  if (status < 200 || status >= 300 || body.error) throw refused(NAMES.qiniu, body.error ?? status, body.message ?? body.error);
}

export async function sendSms(provider: SmsProvider, send: SmsSend, now = new Date()): Promise<void> {
  if (!provider.accessKey || !provider.secretKey || !provider.templateId) throw new NotifyError(`未配置${NAMES[provider.category]}，请联系管理员`);
  if (provider.category === 'aliyun') return sendAliyun(provider, send, now);
  if (provider.category === 'tencent') return sendTencent(provider, send, now);
  return sendQiniu(provider, send);
}
