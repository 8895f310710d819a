import fs from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_TICK_JOB, AUDIENCE_TICK_JOB, SUBSCRIPTION_TICK_JOB } from '@shutu/contracts';
import { EXPORT_CLEANUP_JOB } from '../src/modules/export/service.ts';
import { ensureDatabase, LOCAL_PG, postgresReachable, startNode, type ServerNode } from '../../../scripts/cluster/nodes.mjs';
import { startSmtpServer, type LocalSmtpServer } from './notify-servers.ts';
import { ADMIN_PASSWORD, login, ok, until, webDist } from './multi-process-helpers.ts';

/**
 * Issue 27: with two real server processes on one PostgreSQL, every schedule fires once per due
 * time. pg-boss keeps the schedules (subscriptions' and alerts' per-minute ticks, the workflow
 * and CDP ticks, export / PDF / order-export clean-ups, audience refreshes, housekeeping) and
 * creates one job per cron time whoever's clock monitor sees it first; the test watches two
 * minute boundaries and counts the jobs each schedule made per minute. And one level up: a daily
 * subscription that is due is mailed once, though both processes tick every minute.
 */
const withPostgres = await postgresReachable();
if (!withPostgres && process.env.CI === 'true') throw new Error(`CI=true: PostgreSQL at ${LOCAL_PG} is required by the schedule test`);

describe.skipIf(!withPostgres)('schedules with two server processes on one PostgreSQL', () => {
  const suffix = Date.now().toString(36);
  let meta: Awaited<ReturnType<typeof ensureDatabase>>;
  let store: pg.Pool;
  let smtp: LocalSmtpServer;
  const nodes: ServerNode[] = [];

  beforeAll(async () => {
    meta = await ensureDatabase(`shutu_sched_${suffix}`, { fresh: true });
    store = new pg.Pool({ connectionString: meta.url, max: 2 });
    smtp = await startSmtpServer();
    const dist = webDist();
    for (const name of ['a', 'b']) {
      nodes.push(
        await startNode({
          databaseUrl: meta.url,
          name,
          env: {
            WEB_DIST: dist,
            SHUTU_ADMIN_PASSWORD: ADMIN_PASSWORD,
            SHUTU_THUMBNAILS: '0',
            SHUTU_DEMO_SCALE: '1000',
            SHUTU_SUBSCRIPTION_CATCH_UP_MINUTES: '1500',
          },
        }),
      );
    }
  }, 600_000);
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await smtp?.close();
    await store?.end();
    await meta?.drop();
    for (const n of nodes) fs.rmSync(n.dataDir, { recursive: true, force: true });
  }, 120_000);

  it('every schedule makes one job per due minute, and a due subscription is mailed once', async () => {
    const [a] = nodes as [ServerNode];
    const token = await login(a);
    await ok(a, token, 'PUT', '/api/system/notify', {
      smtpHost: '127.0.0.1',
      smtpPort: smtp.port,
      smtpSecure: false,
      smtpUser: '',
      smtpPassword: '',
      smtpFrom: 'shutu@example.com',
    });
    await ok(a, token, 'PUT', '/api/profile', { name: '系统管理员', email: 'boss@example.com' });
    const categoryId = (await ok<{ id: number }>(a, token, 'POST', '/api/board/categories', { kind: 'visual', categoryValue: `定时${suffix}` })).id;
    const boardId = await ok<number>(a, token, 'POST', '/api/board/boards', {
      title: '定时大屏',
      categoryId,
      content: { type: 'quick', layout: [] },
      charts: [],
    });
    const subscription = await ok<{ id: number }>(a, token, 'POST', '/api/subscription/subscriptions', {
      dataType: 'visual',
      dataId: boardId,
      subTitle: '定时大屏',
      notifyTitle: '每日大屏',
      notifyType: 'email',
      triggerPeriod: 'day',
      triggerHour: 0,
    });
    // As if saved a day earlier: today's 00:00 is due and not yet sent.
    await store.query(`update subscription set last_slot = last_slot - interval '1 day' where id = $1`, [subscription.id]);

    const { rows: schedules } = await store.query<{ name: string; cron: string }>('select name, cron from pgboss.schedule order by name');
    // The schedules of subscriptions, alerts, audience refreshes and export clean-up are among them.
    expect(schedules.map((s) => s.name)).toEqual(
      expect.arrayContaining([SUBSCRIPTION_TICK_JOB, ALERT_TICK_JOB, AUDIENCE_TICK_JOB, EXPORT_CLEANUP_JOB, 'housekeeping']),
    );
    const everyMinute = schedules.filter((s) => s.cron === '* * * * *').map((s) => s.name);
    expect(everyMinute).toEqual(expect.arrayContaining([SUBSCRIPTION_TICK_JOB, ALERT_TICK_JOB]));

    // From the next minute on, watch two minute boundaries.
    const { rows: clock } = await store.query<{ from: Date }>(`select date_trunc('minute', now()) + interval '1 minute' as from`);
    const from = clock[0]!.from;
    const perMinute = () =>
      store.query<{ name: string; minute: Date; jobs: string }>(
        `select name, date_trunc('minute', created_on) as minute, count(*) as jobs
         from (select name, created_on, data from pgboss.job union all select name, created_on, data from pgboss.archive) j
         where name = any($1) and created_on >= $2 and created_on < $2 + interval '2 minutes'
           -- A process's catch-up run at start (runAtStart, marked) is not a due-time job: a slow start can land it in the window.
           and coalesce(data->>'atStart', '') <> 'true'
         group by 1, 2 order by 1, 2`,
        [schedules.map((s) => s.name), from],
      );
    await until(
      async () => {
        const { rows } = await store.query<{ passed: boolean }>(`select now() > $1::timestamptz + interval '2 minutes 5 seconds' as passed`, [from]);
        return rows[0]!.passed ? true : undefined;
      },
      'two minute boundaries',
      240_000,
    );
    const { rows } = await perMinute();
    // One job per schedule per minute: never two.
    expect(rows.filter((r) => Number(r.jobs) > 1)).toEqual([]);
    // Each per-minute schedule fired at both boundaries.
    for (const name of everyMinute) expect(rows.filter((r) => r.name === name).length, name).toBe(2);

    // The due subscription: one log row, sent, and one mail — after two ticks of two processes.
    const sent = await until(
      async () => {
        const { rows: logs } = await store.query<{ state: string }>('select state from subscription_log where subscription_id = $1', [subscription.id]);
        return logs.length > 0 && logs.every((l) => l.state !== 'pending') ? logs : undefined;
      },
      'the due subscription to be sent',
      120_000,
    );
    expect(sent).toEqual([{ state: 'sent' }]);
    expect(smtp.mails.filter((m) => m.to.includes('boss@example.com'))).toHaveLength(1);
  }, 600_000);
});
