import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * Local stand-ins for the channels, for tests only (server and e2e; production code must not
 * import apps/server/test): an SMTP server (the maintained `smtp-server` library, plain text, no
 * STARTTLS, AUTH optional) that keeps every mail it receives, and an HTTP receiver for the robots
 * that checks DingTalk's and Feishu's signatures, WeCom's key and image md5 and tianxiangyun's
 * token the way those platforms document them, answering with their error codes when a check fails.
 */

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw message (headers and MIME body), as received after DATA. */
  data: string;
  /** The user the client authenticated as (AUTH PLAIN/LOGIN), if it did. */
  user?: string;
}

export interface LocalSmtpServer {
  port: number;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

export async function startSmtpServer(): Promise<LocalSmtpServer> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    // Plain text only: a client that is offered STARTTLS upgrades opportunistically and would then
    // refuse the library's self-signed certificate.
    disabledCommands: ['STARTTLS'],
    // Mail is accepted with or without AUTH; AUTH PLAIN/LOGIN work over plain text, any password.
    authOptional: true,
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    disableReverseLookup: true,
    logger: false,
    // close() waits this long for open connections before dropping them.
    closeTimeout: 1000,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (error: Error) => callback(error));
      stream.on('end', () => {
        const { mailFrom, rcptTo } = session.envelope;
        const user = typeof session.user === 'string' ? session.user : undefined;
        mails.push({
          from: mailFrom ? mailFrom.address : '',
          to: rcptTo.map((rcpt) => rcpt.address),
          data: Buffer.concat(chunks).toString('utf8'),
          ...(user === undefined ? {} : { user }),
        });
        callback(null, 'OK queued');
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Decodes RFC 2047 encoded words (=?UTF-8?B?…?= / ?Q?) of a header value. */
export function decodeMimeHeader(value: string): string {
  return value.replace(/\s*=\?([^?]+)\?([BbQq])\?([^?]*)\?=\s*/g, (_, _charset: string, encoding: string, text: string) =>
    encoding.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

/** A header of a raw mail (unfolded, decoded). */
export function mailHeader(raw: string, name: string): string | undefined {
  const head = raw.split(/\r\n\r\n/)[0]!.replace(/\r\n[ \t]+/g, ' ');
  const line = head.split('\r\n').find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line === undefined ? undefined : decodeMimeHeader(line.slice(name.length + 1).trim());
}

export interface RobotRequest {
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
  /** The receiver accepted it: signature, key, token and image checks passed (or none apply). */
  signed: boolean;
}

/** What the receiver answers instead of its own checks (a platform's error or outage). */
export interface ScriptedAnswer {
  status?: number;
  /** Sent as JSON unless it is a string (then as is: an HTML error page, plain "ok"). */
  body: unknown;
}

export interface RobotReceiver {
  url: string;
  requests: RobotRequest[];
  /** From now on, requests whose path starts with `pathPrefix` get `answer` (undefined: back to the checks). */
  script(pathPrefix: string, answer: ScriptedAnswer | undefined): void;
  close(): Promise<void>;
}

export interface RobotSecrets {
  dingtalk?: string;
  feishu?: string;
  /** WeCom's webhook key (?key=); another key is answered 93000. */
  wecomKey?: string;
  /** tianxiangyun's token (Bearer header and body); another is answered HTTP 401. */
  tianxiangyunToken?: string;
}

/** WeCom's limit for one image (before base64). */
const WECOM_IMAGE_BYTES = 2 * 1024 * 1024;

/** A platform's verdict on one request: accepted or not, the HTTP status and JSON answer. */
type Verdict = { accepted: boolean; status: number; answer: unknown };
const ok = (answer: unknown): Verdict => ({ accepted: true, status: 200, answer });
const refuse = (answer: unknown, status = 200): Verdict => ({ accepted: false, status, answer });

function dingtalkVerdict(secret: string, query: Record<string, string>): Verdict {
  // DingTalk: Base64(HmacSHA256(key = secret, timestamp + "\n" + secret)).
  const expected = createHmac('sha256', secret).update(`${query.timestamp}\n${secret}`).digest('base64');
  return query.sign === expected ? ok({ errcode: 0, errmsg: 'ok' }) : refuse({ errcode: 310000, errmsg: 'sign not match' });
}

function feishuVerdict(secret: string, body: Record<string, unknown>): Verdict {
  // Feishu: Base64(HmacSHA256(key = timestamp + "\n" + secret, empty message)).
  const expected = createHmac('sha256', `${String(body.timestamp)}\n${secret}`)
    .update('')
    .digest('base64');
  return body.sign === expected
    ? ok({ code: 0, msg: 'success', data: {} })
    : refuse({ code: 19021, msg: 'sign match fail or timestamp is not within one hour from current time' });
}

/** WeCom's group robot: the key, then for images the size limit and the md5 of the decoded bytes. */
function wecomVerdict(key: string | undefined, query: Record<string, string>, body: Record<string, unknown>): Verdict {
  if (key !== undefined && query.key !== key) {
    return refuse({ errcode: 93000, errmsg: 'invalid webhook url, hint: [shutu-test], more info at https://open.work.weixin.qq.com/devtool/query?e=93000' });
  }
  if (body.msgtype === 'image') {
    const image = (body.image ?? {}) as { base64?: string; md5?: string };
    const data = Buffer.from(image.base64 ?? '', 'base64');
    if (data.length > WECOM_IMAGE_BYTES) return refuse({ errcode: 40009, errmsg: 'invalid image size' });
    if (createHash('md5').update(data).digest('hex') !== image.md5) return refuse({ errcode: 301019, errmsg: 'media md5 not match' });
  }
  return ok({ errcode: 0, errmsg: 'ok' });
}

function tianxiangyunVerdict(token: string, headers: http.IncomingHttpHeaders, body: Record<string, unknown>): Verdict {
  return headers.authorization === `Bearer ${token}` && body.token === token ? ok({ code: 0, msg: 'success' }) : refuse({ code: 401, msg: 'token 无效' }, 401);
}

/**
 * Receives robot webhooks. Paths: /dingtalk (checks &timestamp=&sign= against `secrets.dingtalk`),
 * /feishu (checks body timestamp/sign against `secrets.feishu`), /wecom (checks ?key= against
 * `secrets.wecomKey`, and every image's size and md5), /tianxiangyun (checks the token against
 * `secrets.tianxiangyunToken`); anything else accepted as is. `script` overrides the answers.
 */
export async function startRobotReceiver(secrets: RobotSecrets = {}): Promise<RobotReceiver> {
  const requests: RobotRequest[] = [];
  const scripted = new Map<string, ScriptedAnswer>();
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const path = url.pathname;
      const query = Object.fromEntries(url.searchParams);
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = {};
      }
      let verdict = ok({ errcode: 0, errmsg: 'ok' });
      if (path.startsWith('/dingtalk') && secrets.dingtalk !== undefined) verdict = dingtalkVerdict(secrets.dingtalk, query);
      else if (path.startsWith('/feishu') && secrets.feishu !== undefined) verdict = feishuVerdict(secrets.feishu, body);
      else if (path.startsWith('/wecom')) verdict = wecomVerdict(secrets.wecomKey, query, body);
      else if (path.startsWith('/tianxiangyun')) {
        verdict = secrets.tianxiangyunToken === undefined ? ok({ code: 0, msg: 'success' }) : tianxiangyunVerdict(secrets.tianxiangyunToken, req.headers, body);
      }
      const script = [...scripted].find(([prefix]) => path.startsWith(prefix))?.[1];
      if (script) verdict = { accepted: false, status: script.status ?? 200, answer: script.body };
      requests.push({ path, query, headers: req.headers, body, signed: verdict.accepted });
      const json = typeof verdict.answer !== 'string';
      res.writeHead(verdict.status, { 'content-type': json ? 'application/json' : 'text/html; charset=utf-8' });
      res.end(json ? JSON.stringify(verdict.answer) : verdict.answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    script(pathPrefix, answer) {
      if (answer) scripted.set(pathPrefix, answer);
      else scripted.delete(pathPrefix);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
