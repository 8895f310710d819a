import net from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailHeader, startSmtpServer, type LocalSmtpServer } from '../apps/server/test/notify-servers.ts';
import { openStore } from '../apps/server/src/platform/db/store.ts';
import { apiCall, apiLogin, eventually, startApp, type E2EApp } from './harness.ts';

/**
 * A gate in front of the local SMTP server: while closed it accepts connections and says
 * nothing (the mail client waits for the greeting, so no mail can be delivered), while open it
 * forwards to the SMTP server. It lets the test kill the server exactly mid-send.
 */
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

interface LogRow {
  subscriptionId: number | null;
  state: string;
  errCode: number | null;
}

/**
 * "Kill the server while a subscription is due and restart it: the send happens once, not zero
 * or two times" (issue 7; docs/subscriptions.md "Exactly once"). Real server processes on one
 * data directory (the embedded PGlite store a default install runs on, and its pg-boss):
 * 1. a daily email subscription is saved, then the server stops and its due time comes while
 *    it is down (the test moves last_slot a day back on the stopped store);
 * 2. the restarted server catches up at once and claims the send — and is SIGKILLed while the
 *    mail is in flight (the SMTP gate holds the connection, so nothing was delivered);
 * 3. the next start finds the claim stale (SHUTU_SUBSCRIPTION_STALE_CLAIM_SECONDS=5 instead of
 *    ten minutes) and sends it: exactly one mail, one log row;
 * 4. one more start sends nothing.
 */
describe('a subscription due across a crash', () => {
  let smtp: LocalSmtpServer;
  let gate: Awaited<ReturnType<typeof startSmtpGate>>;
  let app: E2EApp | undefined;
  let dataDir = '';
  // A wider catch-up window than the default hour: a run that starts at 10:59 must still find its
  // 10:00 due time at 11:00:30.
  const env = { SHUTU_DEMO_SCALE: '1000', SHUTU_SUBSCRIPTION_STALE_CLAIM_SECONDS: '5', SHUTU_SUBSCRIPTION_CATCH_UP_MINUTES: '180', LOG_LEVEL: 'info' };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    gate = await startSmtpGate(smtp.port);
  });
  afterAll(async () => {
    await app?.stop();
    await gate?.close();
    await smtp?.close();
  });

  const logsOf = async (running: E2EApp, subscriptionId: number) => {
    const token = await apiLogin(running);
    const logs = await apiCall<{ records: LogRow[] }>(running, token, 'GET', '/api/subscription/logs?size=100');
    return logs.records.filter((row) => row.subscriptionId === subscriptionId);
  };

  it('is sent once: not lost by the kill, not repeated by the restarts', async () => {
    // First life: settings, the subscriber's address, a daily subscription at the current Shanghai hour.
    app = await startApp(env);
    dataDir = app.dataDir;
    const token = await apiLogin(app);
    await apiCall(app, token, 'PUT', '/api/system/notify', { smtpHost: '127.0.0.1', smtpPort: gate.port, smtpSecure: false, smtpFrom: 'shutu-bi@example.com' });
    await apiCall(app, token, 'PUT', '/api/profile', { name: '系统管理员', email: 'boss@example.com' });
    const boards = await apiCall<{ records: { id: number; title: string }[] }>(app, token, 'GET', '/api/board/boards?kind=visual&size=100');
    const boardId = boards.records.find((b) => b.title === '销售概览')!.id;
    const shanghaiHour = (new Date().getUTCHours() + 8) % 24;
    const sub = await apiCall<{ id: number; nextTime: string }>(app, token, 'POST', '/api/subscription/subscriptions', {
      dataType: 'visual',
      dataId: boardId,
      subTitle: '销售概览',
      notifyTitle: '销售日报',
      notifyType: 'email',
      triggerPeriod: 'day',
      triggerHour: shanghaiHour,
      format: 'image',
    });
    // Saved after this hour's due time: it starts tomorrow, nothing is sent now.
    expect(new Date(sub.nextTime).getTime()).toBeGreaterThan(Date.now());
    await app.stop({ keepData: true });

    // While it is down, the due time comes (as if a day had passed).
    const store = await openStore({ pgliteDir: path.join(dataDir, 'metadata') });
    const moved = await store.db
      .updateTable('subscription')
      .set({ lastSlot: sql<Date>`last_slot - interval '1 day'` })
      .where('id', '=', sub.id)
      .executeTakeFirst();
    expect(Number(moved.numUpdatedRows)).toBe(1);
    await store.close();

    // Second life: catches up at once, claims the send, and dies with the mail in flight.
    app = await startApp(env, { dataDir });
    await eventually(() => (gate.held.length > 0 ? true : undefined), 'the mail connection');
    const inFlight = await logsOf(app, sub.id);
    expect(inFlight).toMatchObject([{ state: 'pending' }]);
    await app.kill();
    gate.open();
    expect(smtp.mails).toHaveLength(0);

    // Third life: the stale claim is taken over and delivered.
    app = await startApp(env, { dataDir });
    const running = app;
    const sent = await eventually(async () => {
      const rows = await logsOf(running, sub.id);
      return rows.some((row) => row.state !== 'pending') ? rows : undefined;
    }, 'the send to finish');
    expect(sent).toMatchObject([{ state: 'sent', errCode: 0 }]);
    expect(smtp.mails).toHaveLength(1);
    expect(mailHeader(smtp.mails[0]!.data, 'Subject')).toBe('销售日报');
    expect(smtp.mails[0]!.to).toEqual(['boss@example.com']);
    // Whichever picked the claim up (this start's tick, or a retry the killed server had queued), one
    // delivery. The line is logged after the row is written (and reaches us through the pipe): waited for.
    const sentLines = await eventually(() => running.output().match(/"msg":"subscription sent"/g) ?? undefined, 'the send to be logged');
    expect(sentLines).toHaveLength(1);
    await app.stop({ keepData: true });

    // Fourth life: its start tick runs and finds nothing to send.
    app = await startApp(env, { dataDir });
    const fourth = app;
    await eventually(() => (/"msg":"subscription tick"/.test(fourth.output()) ? true : undefined), 'the start tick');
    expect(fourth.output()).toMatch(/"due":0,"retried":0,"msg":"subscription tick"/);
    expect(await logsOf(app, sub.id)).toHaveLength(1);
    expect(smtp.mails).toHaveLength(1);
  }, 300_000);
});
