import { createHash, createHmac, randomUUID } from 'node:crypto';

/**
 * Request signing of the three SMS providers, as each documents it (docs/alerts.md "SMS"):
 *
 * - Aliyun RPC (dysmsapi SendSms, signature version 1.0): the parameters sorted by name, each
 *   name and value percent-encoded (RFC 3986: space %20, * %2A, ~ kept), joined with & into the
 *   canonical query; StringToSign = METHOD&%2F&percent(canonical query); Signature =
 *   Base64(HMAC-SHA1(key = AccessKeySecret + "&", StringToSign)).
 * - Tencent Cloud API 3.0 (TC3-HMAC-SHA256): canonical request (method, /, empty query, the
 *   content-type and host headers, their names, SHA256 of the body) → string to sign
 *   (algorithm, timestamp, date/sms/tc3_request, SHA256 of the canonical request) → key derived
 *   HMAC("TC3"+secret, date) → "sms" → "tc3_request" → hex HMAC-SHA256 of the string to sign.
 * - Qiniu (管理凭证 "Qiniu AK:sign"): "<METHOD> <path>[?query]\nHost: <host>\nContent-Type: <type>\n\n<body>",
 *   HMAC-SHA1 with the secret key, URL-safe Base64.
 */

export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function aliyunSignature(method: string, params: Record<string, string>, secret: string): string {
  const canonical = Object.keys(params)
    .sort()
    .map((k) => `${percentEncode(k)}=${percentEncode(params[k]!)}`)
    .join('&');
  const stringToSign = `${method}&${percentEncode('/')}&${percentEncode(canonical)}`;
  return createHmac('sha1', `${secret}&`).update(stringToSign).digest('base64');
}

/** The signed parameters of an Aliyun RPC call (Signature included). */
export function aliyunSignedParams(
  method: string,
  params: Record<string, string>,
  accessKey: string,
  secret: string,
  now = new Date(),
): Record<string, string> {
  const all: Record<string, string> = {
    ...params,
    AccessKeyId: accessKey,
    Format: 'JSON',
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: randomUUID(),
    SignatureVersion: '1.0',
    Timestamp: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
  return { ...all, Signature: aliyunSignature(method, all, secret) };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text).digest();

export interface Tc3Input {
  secretId: string;
  secretKey: string;
  service: string;
  host: string;
  contentType: string;
  body: string;
  /** Seconds since the epoch. */
  timestamp: number;
}

export function tc3Authorization(input: Tc3Input): string {
  const date = new Date(input.timestamp * 1000).toISOString().slice(0, 10);
  const signedHeaders = 'content-type;host';
  const canonicalRequest = ['POST', '/', '', `content-type:${input.contentType}\nhost:${input.host}\n`, signedHeaders, sha256(input.body)].join('\n');
  const scope = `${date}/${input.service}/tc3_request`;
  const stringToSign = ['TC3-HMAC-SHA256', String(input.timestamp), scope, sha256(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(`TC3${input.secretKey}`, date), input.service), 'tc3_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  return `TC3-HMAC-SHA256 Credential=${input.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

export function qiniuToken(
  accessKey: string,
  secretKey: string,
  request: { method: string; path: string; host: string; contentType: string; body: string },
): string {
  let data = `${request.method} ${request.path}\nHost: ${request.host}`;
  if (request.contentType) data += `\nContent-Type: ${request.contentType}`;
  data += '\n\n';
  if (request.body && request.contentType && request.contentType !== 'application/octet-stream') data += request.body;
  const sign = createHmac('sha1', secretKey).update(data).digest('base64').replace(/\+/g, '-').replace(/\//g, '_');
  return `Qiniu ${accessKey}:${sign}`;
}
