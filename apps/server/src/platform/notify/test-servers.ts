import { createHmac } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-ins for the channels, for tests (server and e2e): a tiny SMTP server speaking
 * just enough SMTP (EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT) and an HTTP receiver for the
 * robots that checks DingTalk's and Feishu's signatures the way those platforms document them,
 * answering with their error codes when a signature does not match.
 */

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw message (headers and MIME body). */
  data: string;
}

export interface LocalSmtpServer {
  port: number;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

export async function startSmtpServer(): Promise<LocalSmtpServer> {
  const mails: ReceivedMail[] = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    let current: ReceivedMail = { from: '', to: [], data: '' };
    socket.setEncoding('utf8');
    socket.write('220 localhost ShuTu test SMTP\r\n');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          current.data = buffer.slice(0, end).replace(/\r\n\.\./g, '\r\n.');
          buffer = buffer.slice(end + 5);
          mails.push(current);
          current = { from: '', to: [], data: '' };
          inData = false;
          socket.write('250 OK queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-localhost\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n');
        else if (verb === 'HELO') socket.write('250 localhost\r\n');
        else if (verb === 'MAIL') {
          current.from = /<(.*)>/.exec(line)?.[1] ?? '';
          socket.write('250 OK\r\n');
        } else if (verb === 'RCPT') {
          current.to.push(/<(.*)>/.exec(line)?.[1] ?? '');
          socket.write('250 OK\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          socket.write('354 End data with <CR><LF>.<CR><LF>\r\n');
        } else if (verb === 'RSET' || verb === 'NOOP') socket.write('250 OK\r\n');
        else if (verb === 'QUIT') {
          socket.end('221 Bye\r\n');
          return;
        } else socket.write('502 Command not implemented\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
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
  /** The signature checked out (or the path has no secret). */
  signed: boolean;
}

export interface RobotReceiver {
  url: string;
  requests: RobotRequest[];
  close(): Promise<void>;
}

/**
 * Receives robot webhooks. Paths: /dingtalk (checks &timestamp=&sign= against `secrets.dingtalk`),
 * /feishu (checks body timestamp/sign against `secrets.feishu`), anything else accepted as is.
 */
export async function startRobotReceiver(secrets: { dingtalk?: string; feishu?: string } = {}): Promise<RobotReceiver> {
  const requests: RobotRequest[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const query = Object.fromEntries(url.searchParams);
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = {};
      }
      let signed = true;
      let answer: Record<string, unknown> = { errcode: 0, errmsg: 'ok' };
      if (url.pathname.startsWith('/dingtalk') && secrets.dingtalk !== undefined) {
        // DingTalk: Base64(HmacSHA256(key = secret, timestamp + "\n" + secret)).
        const expected = createHmac('sha256', secrets.dingtalk).update(`${query.timestamp}\n${secrets.dingtalk}`).digest('base64');
        signed = query.sign === expected;
        if (!signed) answer = { errcode: 310000, errmsg: 'sign not match' };
      } else if (url.pathname.startsWith('/feishu') && secrets.feishu !== undefined) {
        // Feishu: Base64(HmacSHA256(key = timestamp + "\n" + secret, empty message)).
        const expected = createHmac('sha256', `${String(body.timestamp)}\n${secrets.feishu}`)
          .update('')
          .digest('base64');
        signed = body.sign === expected;
        answer = signed ? { code: 0, msg: 'success', data: {} } : { code: 19021, msg: 'sign match fail or timestamp is not within one hour from current time' };
      }
      requests.push({ path: url.pathname, query, headers: req.headers, body, signed });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
