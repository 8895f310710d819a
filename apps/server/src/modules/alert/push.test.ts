import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { alertWorld, type AlertWorld } from '../../../test/alert-fixtures.ts';
import { call } from '../../../test/fixtures.ts';
import { runCheck } from './check.ts';

/** Third-party push as a signed JSON webhook (issue 19; docs/alerts.md "Third-party push"). */

const log = pino({ level: 'silent' });
const SECRET = 'push-secret-1';

/** A receiver that checks X-Shutu-Signature = hex HMAC-SHA256(secret, timestamp + "." + raw body) and refuses otherwise (401). */
async function startReceiver() {
  const received: { verified: boolean; body: Record<string, unknown> }[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      const expected = createHmac('sha256', SECRET)
        .update(`${String(req.headers['x-shutu-timestamp'])}.${raw}`)
        .digest();
      const given = Buffer.from(String(req.headers['x-shutu-signature'] ?? ''), 'hex');
      const verified = given.length === expected.length && timingSafeEqual(given, expected);
      received.push({ verified, body: JSON.parse(raw) as Record<string, unknown> });
      res
        .writeHead(verified ? 200 : 401, { 'content-type': 'application/json' })
        .end(JSON.stringify(verified ? { code: 0 } : { code: 401, msg: 'signature mismatch' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('third-party push', () => {
  let a: AlertWorld;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    [a, receiver] = await Promise.all([alertWorld(), startReceiver()]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.w.close(), receiver?.close()]);
  });

  it('posts the filled content signed with the configured secret; a wrong secret is refused and logged', async () => {
    const put = await call(a.w.server, 'PUT', '/api/alert/push', { headers: a.w.admin, payload: { url: receiver.url, secret: SECRET } });
    expect(put.body.data).toEqual({ url: receiver.url, secret: '******' });
    const saved = await a.save(
      a.w.admin,
      a.body({
        name: '推送预警',
        checkedWays: [],
        pushEnabled: true,
        warningWays: [{ tenantId: 't1', warningWayEnum: 'APP' }],
        messageDynamicContent: '${省份}订单${订单编号}单',
        filterJson: [{ cubeColumnId: a.f['订单编号'], connectTime: 'having', conditions: [{ function: 'gt', values: [0] }] }],
      }),
    );
    expect(saved.status).toBe(200);
    const check = (ms: number) => {
      const now = new Date(Date.now() + ms);
      return runCheck(a.w.server.ctx, log, { alertId: saved.body.data.id, slot: now.toISOString() }, null, now);
    };
    expect(await check(0)).toBe('checked');
    const [first] = receiver.received;
    expect(first!.verified).toBe(true);
    expect(first!.body).toMatchObject({ alertName: '推送预警', state: 'firing', reason: 'started', warningWays: [{ tenantId: 't1', warningWayEnum: 'APP' }] });
    expect(first!.body.content).toMatch(/^.+订单\d+单$/);

    await call(a.w.server, 'PUT', '/api/alert/push', { headers: a.w.admin, payload: { url: receiver.url, secret: 'not-the-secret' } });
    await a.w.server.ctx.db.updateTable('alert').set({ repeatIntervalSeconds: 60 }).where('id', '=', saved.body.data.id).execute();
    expect(await check(120_000)).toBe('checked');
    expect(receiver.received.at(-1)!.verified).toBe(false);
    const logs = await call(a.w.server, 'GET', '/api/alert/logs', { headers: a.w.admin, query: { alertId: saved.body.data.id } });
    expect(logs.body.data.records[0].channels).toEqual([
      { channel: 'push', recipient: 'webhook', status: 'failed', errMsg: '第三方推送返回 HTTP 401：{"code":401,"msg":"signature mismatch"}' },
    ]);
  });
});
