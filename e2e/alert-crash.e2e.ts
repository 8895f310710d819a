import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRobotReceiver, startSmtpServer, type LocalSmtpServer, type RobotReceiver } from '../apps/server/test/notify-servers.ts';
import { createOrdersDataset, ordersField } from './api-fixtures.ts';
import { apiCall, apiLogin, eventually, startApp, type E2EApp } from './harness.ts';

const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A gate before the SMTP server: closed, it accepts connections and says nothing, so a send hangs mid-way (as in subscription-restart.e2e.ts). */
async function startSmtpGate(upstreamPort: number) {
  let open = false;
  const held: net.Socket[] = [];
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    if (!open) return void held.push(socket);
    const upstream = net.connect(upstreamPort, '127.0.0.1');
    upstream.on('error', () => socket.destroy());
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    held,
    open() {
      open = true;
      for (const socket of held) socket.destroy();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function pgReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch (error) {
    if (process.env.CI === 'true') throw new Error(`PostgreSQL at ${PG_URL} is required on CI: ${String(error)}`, { cause: error });
    return false;
  }
}

/**
 * Two server processes on one PostgreSQL, one killed (SIGKILL) in the middle of an alert check
 * (issue 19; docs/alerts.md "Checks"): the check claimed its slot in process A, sent DingTalk,
 * and hangs on the mail (the SMTP gate holds it). A dies; process B's recovery sweep takes the
 * dead run over, pg-boss retries the job, the retry takes the claim over without checking again
 * and sends only what was not sent: one DingTalk message and one mail in all.
 */
describe.runIf(await pgReachable())('an alert check killed mid-way, with two servers on one PostgreSQL', () => {
  let smtp: LocalSmtpServer;
  let robots: RobotReceiver;
  let gate: Awaited<ReturnType<typeof startSmtpGate>>;
  let a: E2EApp | undefined;
  let b: E2EApp | undefined;
  const dbName = `shutu_alert_e2e_${randomBytes(4).toString('hex')}`;
  const env = () => {
    const url = new URL(PG_URL);
    url.pathname = `/${dbName}`;
    return { DATABASE_URL: url.toString(), SHUTU_SECRET_KEY: secretKey, SHUTU_DEMO_SCALE: '1000' };
  };
  const secretKey = randomBytes(32).toString('base64');

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    smtp = await startSmtpServer();
    robots = await startRobotReceiver({ dingtalk: 'SEC-crash' });
    gate = await startSmtpGate(smtp.port);
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await Promise.all([smtp?.close(), robots?.close(), gate?.close()]);
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  });

  it('delivers each channel exactly once', async () => {
    a = await startApp(env());
    const token = await apiLogin(a);
    await apiCall(a, token, 'PUT', '/api/system/notify', {
      smtpHost: '127.0.0.1',
      smtpPort: gate.port,
      smtpSecure: false,
      smtpFrom: 'shutu-bi@example.com',
      dingtalkWebhook: `${robots.url}/dingtalk?access_token=crash`,
      dingtalkSecret: 'SEC-crash',
    });
    await apiCall(a, token, 'PUT', '/api/profile', { name: '系统管理员', email: 'boss@example.com' });
    const { cubeId, fieldIds } = await createOrdersDataset(a, token, {
      category: '预警崩溃',
      name: '订单崩溃预警',
      publicStatus: 1,
      fields: [
        ordersField('province', 'province', '省份'),
        ordersField('orderId', 'order_id', '订单数', { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO', aggregationType: 'COUNT' }),
        ordersField('orderTime', 'order_time', '订购时间', { viewDataType: 'DATETIME' }),
      ],
    });
    const alert = await apiCall<{ id: number }>(a, token, 'POST', '/api/alert/alerts', {
      name: '崩溃中的预警',
      requestFreq: 300,
      enableStatus: 0,
      warnUserIds: '1',
      cubeDataId: cubeId,
      columnJson: [{ cubeColumnId: fieldIds['订单数'], dimensionType: 'ZHIBIAO', aggregationType: 'COUNT' }],
      filterJson: [{ cubeColumnId: fieldIds['订单数'], connectTime: 'having', conditions: [{ function: 'gt', values: [0] }] }],
      filterTimeJson: {
        timeType: 'MONTH',
        relativeTime: { leftVal: 24, leftModifier: 'BEFORE', rightVal: 0, rightModifier: 'BEFORE' },
        timeColumn: fieldIds['订购时间'],
      },
      checkedWays: ['dingtalk', 'email'],
    });
    await apiCall(a, token, 'POST', `/api/alert/alerts/${alert.id}/check`, {});
    // A sent DingTalk and hangs on the mail.
    await eventually(() => (gate.held.length > 0 && robots.requests.length === 1 ? true : undefined), 'the check hanging on the mail');
    b = await startApp(env());
    await a.kill();
    gate.open();
    await eventually(() => (smtp.mails.length > 0 ? true : undefined), 'the mail sent by the surviving server', 180_000);
    const tokenB = await apiLogin(b);
    const logs = await apiCall<{ records: { status: string; channels: { channel: string; status: string }[] }[] }>(
      b,
      tokenB,
      'GET',
      `/api/alert/logs?alertId=${alert.id}`,
    );
    expect(logs.records).toHaveLength(1);
    expect(logs.records[0]!.status).toBe('done');
    expect(logs.records[0]!.channels.map((c) => [c.channel, c.status])).toEqual([
      ['dingtalk', 'sent'],
      ['email', 'sent'],
    ]);
    // Settle: nothing more arrives.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(robots.requests.filter((r) => r.path === '/dingtalk')).toHaveLength(1);
    expect(smtp.mails).toHaveLength(1);
  }, 300_000);
});
