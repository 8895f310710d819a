import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Fake SMS providers for tests only (issue 19): each checks the request signature the way its
 * provider documents it — computed here independently of the client's code — and answers like
 * the provider does, refusing a wrong secret:
 *
 * - Aliyun dysmsapi (RPC, signature 1.0): form parameters, canonical query from
 *   URLEncoder-style encoding with + → %20, * → %2A, %7E → ~; HMAC-SHA1 with secret + "&".
 *   Refusal: HTTP 400 { Code: 'SignatureDoesNotMatch' }.
 * - Tencent Cloud SMS (TC3-HMAC-SHA256): the Authorization header's credential, signed headers and
 *   signature over the canonical request. Refusal: HTTP 200 { Response: { Error: { Code:
 *   'AuthFailure.SignatureFailure' } } }.
 * - Qiniu SMS (POST /v1/message, 管理凭证 "Qiniu AK:sign" over method, path, Host, Content-Type and
 *   body, URL-safe Base64 HMAC-SHA1). Refusal: HTTP 401 { error: 'bad token' }.
 */

export interface SmsReceived {
  provider: 'aliyun' | 'tencent' | 'qiniu';
  accepted: boolean;
  /** Phones and template parameters as the provider read them. */
  phones: string[];
  params: Record<string, string> | string[];
  raw: Record<string, unknown>;
}

export interface FakeSmsProvider {
  url: string;
  received: SmsReceived[];
  close(): Promise<void>;
}

const aliyunEncode = (s: string) =>
  new URLSearchParams({ x: s })
    .toString()
    .slice(2)
    .replace(/\+/g, '%20')
    .replace(/\*/g, '%2A')
    .replace(/%7E/g, '~')
    .replace(/!/g, '%21')
    .replace(/'/g, '%27')
    .replace(/\(/g, '%28')
    .replace(/\)/g, '%29');

function verifyAliyun(form: URLSearchParams, keys: Record<string, string>): boolean {
  const params = [...form.entries()].filter(([k]) => k !== 'Signature').sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const canonical = params.map(([k, v]) => `${aliyunEncode(k)}=${aliyunEncode(v)}`).join('&');
  const secret = keys[form.get('AccessKeyId') ?? ''];
  if (secret === undefined) return false;
  const expected = createHmac('sha1', `${secret}&`)
    .update(`POST&%2F&${aliyunEncode(canonical)}`)
    .digest('base64');
  return expected === form.get('Signature');
}

function verifyTencent(req: http.IncomingMessage, body: string, keys: Record<string, string>): boolean {
  const auth = /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/sms\/tc3_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
    req.headers.authorization ?? '',
  );
  if (!auth) return false;
  const [, secretId, date, signedHeaders, signature] = auth as unknown as [string, string, string, string, string];
  const secret = keys[secretId];
  const timestamp = Number(req.headers['x-tc-timestamp']);
  if (secret === undefined || new Date(timestamp * 1000).toISOString().slice(0, 10) !== date) return false;
  const names = signedHeaders.split(';');
  const canonicalHeaders = names.map((n) => `${n}:${String(req.headers[n] ?? '').trim()}\n`).join('');
  const hash = (s: string) => createHash('sha256').update(s).digest('hex');
  const canonicalRequest = `POST\n/\n\n${canonicalHeaders}\n${signedHeaders}\n${hash(body)}`;
  const stringToSign = `TC3-HMAC-SHA256\n${timestamp}\n${date}/sms/tc3_request\n${hash(canonicalRequest)}`;
  let key: Buffer = createHmac('sha256', `TC3${secret}`).update(date).digest();
  key = createHmac('sha256', key).update('sms').digest();
  key = createHmac('sha256', key).update('tc3_request').digest();
  return createHmac('sha256', key).update(stringToSign).digest('hex') === signature;
}

function verifyQiniu(req: http.IncomingMessage, body: string, keys: Record<string, string>): boolean {
  const auth = /^Qiniu ([^:]+):(.+)$/.exec(req.headers.authorization ?? '');
  if (!auth) return false;
  const secret = keys[auth[1]!];
  if (secret === undefined) return false;
  const contentType = req.headers['content-type'] ?? '';
  const data = `${req.method} ${req.url}\nHost: ${req.headers.host}${contentType ? `\nContent-Type: ${contentType}` : ''}\n\n${contentType && contentType !== 'application/octet-stream' ? body : ''}`;
  const expected = Buffer.from(createHmac('sha1', secret).update(data).digest()).toString('base64url');
  // Qiniu's URL-safe Base64 keeps the padding.
  return auth[2]!.replace(/=+$/, '') === expected;
}

/** A fake provider on 127.0.0.1; `keys` maps access key → secret. */
export async function startFakeSmsProvider(provider: SmsReceived['provider'], keys: Record<string, string>): Promise<FakeSmsProvider> {
  const received: SmsReceived[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const answer = (status: number, json: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      if (provider === 'aliyun') {
        const form = new URLSearchParams(body);
        const accepted = req.method === 'POST' && form.get('Action') === 'SendSms' && verifyAliyun(form, keys);
        received.push({
          provider,
          accepted,
          phones: (form.get('PhoneNumbers') ?? '').split(','),
          params: JSON.parse(form.get('TemplateParam') ?? '{}'),
          raw: Object.fromEntries(form),
        });
        if (!accepted)
          return answer(400, { Code: 'SignatureDoesNotMatch', Message: 'Specified signature is not matched with our calculation.', RequestId: 'fake' });
        return answer(200, { Code: 'OK', Message: 'OK', BizId: 'fake-biz', RequestId: 'fake' });
      }
      if (provider === 'tencent') {
        const accepted = req.headers['x-tc-action'] === 'SendSms' && verifyTencent(req, body, keys);
        const json = JSON.parse(body || '{}') as { PhoneNumberSet?: string[]; TemplateParamSet?: string[] };
        received.push({ provider, accepted, phones: json.PhoneNumberSet ?? [], params: json.TemplateParamSet ?? [], raw: json });
        if (!accepted) {
          return answer(200, {
            Response: { Error: { Code: 'AuthFailure.SignatureFailure', Message: 'The provided credentials could not be validated.' }, RequestId: 'fake' },
          });
        }
        return answer(200, {
          Response: { SendStatusSet: (json.PhoneNumberSet ?? []).map((p) => ({ PhoneNumber: p, Code: 'Ok', Message: 'send success' })), RequestId: 'fake' },
        });
      }
      const accepted = req.url === '/v1/message' && verifyQiniu(req, body, keys);
      const json = JSON.parse(body || '{}') as { mobiles?: string[]; parameters?: Record<string, string> };
      received.push({ provider, accepted, phones: json.mobiles ?? [], params: json.parameters ?? {}, raw: json });
      if (!accepted) return answer(401, { error: 'bad token' });
      return answer(200, { job_id: 'fake-job' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
