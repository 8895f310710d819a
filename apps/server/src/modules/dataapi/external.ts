import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import { dataApiMessages, dataApiSettingsSchema, formatMessage, type DataApi } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { AppError, fieldError } from '../../platform/http/errors.ts';
import { readSetting, writeSetting } from './runtime-repo.ts';
import { runHandler } from './sandbox.ts';

/**
 * External APIs (type 2; docs/dataapi.md "External APIs"): the server calls the API's URL with
 * its method, headers and parameter type, then hands the answer to the sandboxed handler.
 * Outgoing rules: http(s) only; the host must be on the administrators' allow-list (this
 * module's settings table); every address the host resolves to is checked at connect time (the
 * lookup of the request itself, so a DNS answer cannot change between check and connect) and
 * link-local and cloud-metadata addresses are refused whatever the list says. Redirects are not
 * followed. The answer is read up to 10 MB within 10 s.
 */

const ALLOWED_HOSTS = 'allowedHosts';
const TIMEOUT_MS = 10_000;
const MAX_BYTES = 10 * 1024 * 1024;

/** The hosts external APIs may call (administrators; empty: none). */
export async function allowedHosts(ctx: AppContext): Promise<string[]> {
  const stored = await readSetting(ctx.db, ALLOWED_HOSTS);
  const parsed = dataApiSettingsSchema.shape.allowedHosts.safeParse(stored ? (JSON.parse(stored) as unknown) : []);
  return parsed.success ? parsed.data : [];
}

export async function saveAllowedHosts(ctx: AppContext, hosts: string[]): Promise<string[]> {
  const distinct = [...new Set(hosts.map((h) => h.trim().toLowerCase()).filter((h) => h !== ''))];
  await writeSetting(ctx.db, ALLOWED_HOSTS, JSON.stringify(distinct));
  return distinct;
}

/** Addresses never called: link-local (169.254/16 holds the cloud metadata service), metadata services, unspecified. */
const REFUSED = new BlockList();
REFUSED.addSubnet('169.254.0.0', 16, 'ipv4');
REFUSED.addAddress('100.100.100.200', 'ipv4'); // Alibaba Cloud metadata
REFUSED.addSubnet('0.0.0.0', 8, 'ipv4');
REFUSED.addSubnet('fe80::', 10, 'ipv6');
REFUSED.addAddress('fd00:ec2::254', 'ipv6'); // AWS metadata over IPv6
REFUSED.addAddress('::', 'ipv6');

export function refusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6) {
    // IPv4-mapped (::ffff:169.254.169.254) is checked as the IPv4 address it is.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return REFUSED.check(mapped[1]!, 'ipv4');
    return REFUSED.check(address, 'ipv6');
  }
  return REFUSED.check(address, 'ipv4');
}

function hostAllowed(host: string, allowed: string[]): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return allowed.some((rule) => (rule.startsWith('*.') ? h.endsWith(rule.slice(1)) && h.length > rule.length - 1 : h === rule));
}

/** The URL parsed and checked against the scheme and the allow-list (a 400 on apiUrl otherwise). */
export async function checkOutgoingUrl(ctx: AppContext, text: string): Promise<URL> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw fieldError('apiUrl', dataApiMessages.urlInvalid);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fieldError('apiUrl', dataApiMessages.urlScheme);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && refusedAddress(host)) throw fieldError('apiUrl', formatMessage(dataApiMessages.addressRefused, { host }));
  if (!hostAllowed(host, await allowedHosts(ctx))) throw fieldError('apiUrl', formatMessage(dataApiMessages.hostNotAllowed, { host }));
  return url;
}

/** dns.lookup that refuses the forbidden addresses: the request connects only to what passed. */
function checkedLookup(
  hostname: string,
  options: { all?: boolean; family?: number },
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses;
    const bad = list.find((a) => refusedAddress(a.address));
    if (bad || list.length === 0) {
      const error = new AppError(400, formatMessage(dataApiMessages.addressRefused, { host: `${hostname} → ${bad?.address ?? '?'}` })) as AppError &
        NodeJS.ErrnoException;
      return callback(error, '', 0);
    }
    if (options.all) return callback(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
}

function request(url: URL, init: { method: string; headers: Record<string, string>; body?: string }): Promise<{ status: number; text: string; type: string }> {
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(url, { method: init.method, headers: init.headers, lookup: checkedLookup as never, timeout: TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BYTES) req.destroy(new Error('response larger than 10 MB'));
        else chunks.push(chunk);
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), type: String(res.headers['content-type'] ?? '') }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

const external = (detail: string) => new AppError(502, formatMessage(dataApiMessages.externalFailed, { detail: detail.slice(0, 300) }));

/** Calls the API's URL and runs its handler on the answer (JSON when it parses, else the text). */
export async function callExternalApi(ctx: AppContext, api: DataApi, params: Record<string, unknown>): Promise<unknown> {
  const url = await checkOutgoingUrl(ctx, api.apiUrl ?? '');
  const headers: Record<string, string> = { accept: 'application/json', ...api.apiHeaders };
  let body: string | undefined;
  const entries = Object.entries(params).map(([k, v]) => [k, String(v)] as [string, string]);
  if (api.apiMethod === 'get') for (const [k, v] of entries) url.searchParams.set(k, v);
  else if (api.apiParamType === 1) {
    body = new URLSearchParams(entries).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else {
    body = JSON.stringify(params);
    headers['content-type'] = 'application/json';
  }
  let answer;
  try {
    answer = await request(url, { method: api.apiMethod.toUpperCase(), headers, ...(body === undefined ? {} : { body }) });
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw external(error instanceof Error ? error.message : String(error));
  }
  if (answer.status < 200 || answer.status >= 300) throw external(`HTTP ${answer.status}`);
  let data: unknown = answer.text;
  try {
    data = JSON.parse(answer.text);
  } catch {
    // not JSON: the handler gets the text
  }
  return runHandler(api.apiJsFunction, data, params);
}
