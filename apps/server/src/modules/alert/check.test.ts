import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { alertMessages } from '@shutu/contracts';
import { alertWorld, type AlertWorld } from '../../../test/alert-fixtures.ts';
import { call } from '../../../test/fixtures.ts';
import { storeKinds } from '../../../test/harness.ts';
import { decodeMimeHeader, mailHeader, startRobotReceiver, startSmtpServer, type LocalSmtpServer, type RobotReceiver } from '../../../test/notify-servers.ts';
import { openStore } from '../../platform/db/store.ts';
import { startTestS3Server } from '../../platform/files/s3-test-server.ts';
import { removeOldAlertImages, setAlertBoardRenderer } from './board-image.ts';
import { runCheck } from './check.ts';
import { claimCheck } from './check-repo.ts';
import { decide, inQuietHours, type AlertPolicy } from './decide.ts';

/** What firing means and checks that run once (issue 19; docs/alerts.md). */

const kinds = await storeKinds();
const log = pino({ level: 'silent' });
const HOUR = 3_600_000;

describe('what firing means (decide.ts)', () => {
  const policy: AlertPolicy = { repeatIntervalSeconds: 3600, notifyRecovery: true, quietStart: null, quietEnd: null };
  const t0 = new Date('2026-11-25T02:00:00Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);
  it('ok → firing notifies once, then at most once per repeat interval, and recovery when asked', () => {
    const started = decide({ state: 'ok', stateSince: null, lastNotifiedTime: null }, true, policy, t0, '10:00');
    expect(started).toEqual({ state: 'firing', stateSince: t0, changed: true, reason: 'started' });
    const firing = { state: 'firing' as const, stateSince: t0, lastNotifiedTime: t0 };
    expect(decide(firing, true, policy, at(HOUR - 1), '10:59').reason).toBe('none');
    expect(decide(firing, true, policy, at(HOUR), '11:00')).toMatchObject({ reason: 'repeat', changed: false, stateSince: t0 });
    expect(decide(firing, false, policy, at(HOUR), '11:00')).toEqual({ state: 'ok', stateSince: at(HOUR), changed: true, reason: 'recovered' });
    expect(decide(firing, false, { ...policy, notifyRecovery: false }, at(HOUR), '11:00').reason).toBe('none');
    expect(decide({ state: 'ok', stateSince: t0, lastNotifiedTime: t0 }, false, policy, at(HOUR), '11:00')).toMatchObject({ reason: 'none', changed: false });
  });
  it('quiet hours hold a new firing back until the first check after them, and drop a recovery notice', () => {
    const quiet = { ...policy, quietStart: '22:00', quietEnd: '07:00' };
    expect([inQuietHours('23:30', '22:00', '07:00'), inQuietHours('06:59', '22:00', '07:00'), inQuietHours('07:00', '22:00', '07:00')]).toEqual([
      true,
      true,
      false,
    ]);
    const held = decide({ state: 'ok', stateSince: null, lastNotifiedTime: null }, true, quiet, t0, '23:00');
    expect(held.reason).toBe('quiet');
    // Still firing at 07:00 and never notified for this firing: it is notified now.
    expect(decide({ state: 'firing', stateSince: t0, lastNotifiedTime: null }, true, quiet, at(8 * HOUR), '07:00').reason).toBe('started');
    expect(decide({ state: 'firing', stateSince: t0, lastNotifiedTime: t0 }, false, quiet, at(HOUR), '00:00').reason).toBe('quiet');
  });
});

describe.each(kinds)('alert checks on %s (issue 19)', (kind) => {
  let a: AlertWorld;
  let smtp: LocalSmtpServer;
  let robots: RobotReceiver;
  beforeAll(async () => {
    [a, smtp, robots] = await Promise.all([alertWorld(kind), startSmtpServer(), startRobotReceiver({ dingtalk: 'SEC-ding' })]);
    const settings = await call(a.w.server, 'PUT', '/api/system/notify', {
      headers: a.w.admin,
      payload: {
        smtpHost: '127.0.0.1',
        smtpPort: smtp.port,
        smtpSecure: false,
        smtpUser: '',
        smtpPassword: '',
        smtpFrom: 'shutu@example.com',
        dingtalkWebhook: `${robots.url}/dingtalk?access_token=t`,
        dingtalkSecret: 'SEC-ding',
      },
    });
    expect(settings.status).toBe(200);
    // Links in messages start with the server's own address when no public address is set.
    a.w.server.ctx.selfUrl = 'http://127.0.0.1:3000';
    await a.w.server.ctx.db.updateTable('sysUser').set({ email: 'admin@example.com' }).where('id', '=', 1).execute();
    await a.w.server.ctx.db.updateTable('sysUser').set({ email: 'member@example.com' }).where('id', '=', a.member.id).execute();
  }, 180_000);
  afterAll(async () => {
    await Promise.all([a?.w.close(), smtp?.close(), robots?.close()]);
  });

  const threshold = (n: number) => [{ cubeColumnId: a.f['订单编号'], connectTime: 'having', conditions: [{ function: 'gt', values: [n] }] }];
  const logs = async (alertId: number) =>
    (await call(a.w.server, 'GET', '/api/alert/logs', { headers: a.w.admin, query: { alertId, size: 100 } })).body.data.records as {
      notifyReason: string;
      state: string;
      rowCount: number;
      channels: { channel: string; recipient: string; status: string; errMsg: string | null }[];
    }[];

  it('fires once per channel, stays quiet within the repeat interval, repeats after it and announces the recovery', async () => {
    const saved = await a.save(
      a.w.admin,
      a.body({
        name: `订单数预警-${kind}`,
        checkedWays: ['email', 'dingtalk'],
        notifyRecovery: true,
        repeatIntervalSeconds: 3600,
        filterJson: threshold(0),
        messageDynamicContent: '${预警名称}：${省份}的订单数为${订单编号}',
        visualDataJson: [{ id: 5, title: '销售概览' }],
      }),
    );
    expect(saved.status).toBe(200);
    const alertId = saved.body.data.id as number;
    const t0 = new Date();
    const check = (ms: number) =>
      runCheck(a.w.server.ctx, log, { alertId, slot: new Date(t0.getTime() + ms).toISOString() }, null, new Date(t0.getTime() + ms));
    const mails = () => smtp.mails.filter((m) => decodeMimeHeader(mailHeader(m.data, 'subject') ?? '').includes(`订单数预警-${kind}`));
    const dings = () => robots.requests.filter((r) => r.path === '/dingtalk' && JSON.stringify(r.body).includes(`订单数预警-${kind}`));

    expect(await check(0)).toBe('checked');
    expect(await check(0)).toBe('skipped');
    expect(mails()).toHaveLength(1);
    expect(decodeMimeHeader(mailHeader(mails()[0]!.data, 'subject')!)).toBe(`【预警】订单数预警-${kind}`);
    expect(dings()).toHaveLength(1);
    expect(dings()[0]!.signed).toBe(true);
    expect(JSON.stringify(dings()[0]!.body)).toMatch(new RegExp(`订单数预警-${kind}：[^"]+的订单数为\\d+`));
    // Attached reports go as links into the product.
    expect(JSON.stringify(dings()[0]!.body)).toMatch(/报表【销售概览】：http:\/\/[^ "]+\/newbi\/preview\/5/);

    expect(await check(300_000)).toBe('checked');
    expect([mails().length, dings().length]).toEqual([1, 1]);
    expect(await check(HOUR)).toBe('checked');
    expect([mails().length, dings().length]).toEqual([2, 2]);

    const raised = await a.save(a.w.admin, { ...saved.body.data, filterJson: threshold(1e9) });
    expect(raised.status).toBe(200);
    expect(await check(HOUR + 300_000)).toBe('checked');
    expect(decodeMimeHeader(mailHeader(mails()[2]!.data, 'subject')!)).toBe(`【预警恢复】订单数预警-${kind}`);
    expect(await check(HOUR + 600_000)).toBe('checked');
    expect(mails()).toHaveLength(3);

    const rows = await logs(alertId);
    expect(rows.map((r) => [r.state, r.notifyReason])).toEqual([
      ['ok', 'none'],
      ['ok', 'recovered'],
      ['firing', 'repeat'],
      ['firing', 'none'],
      ['firing', 'started'],
    ]);
    expect(rows[4]!.channels.map((c) => [c.channel, c.status])).toEqual([
      ['email', 'sent'],
      ['dingtalk', 'sent'],
    ]);
    const detail = await call(a.w.server, 'GET', `/api/alert/alerts/${alertId}`, { headers: a.w.admin });
    expect(detail.body.data).toMatchObject({ state: 'ok' });
    expect(detail.body.data.lastFiredTime).toBe(t0.toISOString());
  });

  it("attaches the first board's image, rendered as the alert's owner, inline in the mail and by public address for the robot", async () => {
    // Chromium itself is exercised by e2e/alert.e2e.ts; here a renderer that records whom it renders for.
    const jpeg = Buffer.concat([Buffer.from('ffd8ffe0', 'hex'), Buffer.alloc(2048, 7), Buffer.from('ffd9', 'hex')]);
    const renders: [number, number][] = [];
    setAlertBoardRenderer(a.w.server.ctx, async (_ctx, userId, boardId) => {
      renders.push([userId, boardId]);
      if (boardId === 404) throw new Error('报表不存在');
      return { title: '销售概览', image: jpeg };
    });
    const fire = async (name: string, boardId: number) => {
      const saved = await a.save(
        a.w.admin,
        a.body({ name, checkedWays: ['email', 'dingtalk'], filterJson: threshold(0), visualDataJson: [{ id: boardId, title: '销售概览' }] }),
      );
      const now = new Date();
      expect(await runCheck(a.w.server.ctx, log, { alertId: saved.body.data.id, slot: now.toISOString() }, null, now)).toBe('checked');
      const mail = smtp.mails.find((m) => decodeMimeHeader(mailHeader(m.data, 'subject') ?? '').includes(name))!;
      const ding = robots.requests.find((r) => r.path === '/dingtalk' && JSON.stringify(r.body).includes(name))!;
      return { mail: mail.data, ding: JSON.stringify(ding.body) };
    };
    const shown = await fire(`带图预警-${kind}`, 7);
    expect(renders).toEqual([[1, 7]]);
    expect(shown.mail).toMatch(/Content-Type: image\/jpeg/i);
    const url = /!\[[^\]]*\]\((http:\/\/[^)]+\/api\/alert\/images\/[a-f0-9]{24}\.jpg)\)/.exec(shown.ding)?.[1];
    expect(url).toBeDefined();
    const image = await a.w.server.app.inject({ method: 'GET', url: new URL(url!).pathname });
    expect([image.statusCode, image.headers['content-type']]).toEqual([200, 'image/jpeg']);
    expect(image.rawPayload.equals(jpeg)).toBe(true);
    expect((await a.w.server.app.inject({ method: 'GET', url: '/api/alert/images/..%2Fsecret.jpg' })).statusCode).toBe(404);
    // A board that cannot be rendered: the notice still goes, saying why there is no image.
    const missing = await fire(`无图预警-${kind}`, 404);
    expect(missing.ding).toContain('报表【销售概览】图片生成失败：报表不存在');
    expect(missing.mail).not.toMatch(/Content-Type: image\/jpeg/i);

    // With the file storage in an S3 bucket the image is an object there, served and expired from it.
    const s3 = await startTestS3Server();
    const local = a.w.server.ctx.config.files;
    a.w.server.ctx.config.files = s3.config;
    try {
      const inBucket = await fire(`桶中图片预警-${kind}`, 7);
      const file = /\/api\/alert\/images\/([a-f0-9]{24}\.jpg)\)/.exec(inBucket.ding)![1]!;
      expect(s3.objectKeys()).toEqual([`alert-files/${file}`]);
      const served = await a.w.server.app.inject({ method: 'GET', url: `/api/alert/images/${file}` });
      expect(served.rawPayload.equals(jpeg)).toBe(true);
      await removeOldAlertImages(a.w.server.ctx, Date.now() + 8 * 86_400_000);
      expect(s3.objectKeys()).toEqual([]);
    } finally {
      a.w.server.ctx.config.files = local;
      await s3.stop();
    }
  });

  it("reads as the alert's owner: a member's alert sees only the member's rows", async () => {
    const saved = await a.save(a.member.headers, a.body({ name: `成员预警-${kind}`, warnUserIds: String(a.member.id), filterJson: threshold(0) }));
    expect(saved.status).toBe(200);
    const now = new Date();
    expect(await runCheck(a.w.server.ctx, log, { alertId: saved.body.data.id, slot: now.toISOString() }, null, now)).toBe('checked');
    const [row] = await logs(saved.body.data.id);
    // One dimension (省份), and the member sees only 广东.
    expect(row).toMatchObject({ state: 'firing', rowCount: 1, notifyReason: 'started' });
    expect(row!.channels).toEqual([{ channel: 'email', recipient: 'member@example.com', status: 'sent', errMsg: null }]);
  });

  it('notifies the chosen departments as they are at send time: a later joiner of a sub-department too', async () => {
    const db = a.w.server.ctx.db;
    const parent = await db
      .insertInto('sysDept')
      .values({ parentId: 0, deptName: `预警部-${kind}`, sort: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const child = await db
      .insertInto('sysDept')
      .values({ parentId: parent.id, deptName: `预警组-${kind}`, sort: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const user = (account: string, deptId: number, status = 1) => ({
      account: `${account}-${kind}`,
      passwordHash: 'x',
      name: account,
      realName: null,
      avatar: null,
      phone: null,
      email: `${account}-${kind}@example.com`,
      userExtJson: null,
      deptId,
      isAdministrator: false,
      status,
    });
    await db.insertInto('sysUser').values(user('early', parent.id)).execute();
    // An empty department alone is a valid choice: people may join it later.
    const saved = await a.save(a.w.admin, a.body({ name: `部门预警-${kind}`, warnUserIds: '', warnDeptIds: [child.id, parent.id], filterJson: threshold(0) }));
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ warnUserIds: '', warnDeptIds: `${child.id},${parent.id}` });
    await db
      .insertInto('sysUser')
      .values([user('late', child.id), user('gone', child.id, 0)])
      .execute();
    const now = new Date();
    expect(await runCheck(a.w.server.ctx, log, { alertId: saved.body.data.id, slot: now.toISOString() }, null, now)).toBe('checked');
    const [row] = await logs(saved.body.data.id);
    expect(row!.channels.map((c) => [c.recipient, c.status]).sort()).toEqual([
      [`early-${kind}@example.com`, 'sent'],
      [`late-${kind}@example.com`, 'sent'],
    ]);
    const none = await a.save(a.w.admin, a.body({ warnUserIds: '', warnDeptIds: [999999] }));
    expect([none.status, none.body.msg]).toEqual([400, alertMessages.recipientsRequired]);
  });

  it('two checks of the same slot at once: one runs and sends, the other stops at the claim', async () => {
    const saved = await a.save(a.w.admin, a.body({ name: `并发预警-${kind}`, filterJson: threshold(0) }));
    const now = new Date();
    const data = { alertId: saved.body.data.id, slot: now.toISOString() };
    const results = await Promise.all([runCheck(a.w.server.ctx, log, data, null, now), runCheck(a.w.server.ctx, log, data, null, now)]);
    expect(results.sort()).toEqual(['checked', 'skipped']);
    expect(smtp.mails.filter((m) => decodeMimeHeader(mailHeader(m.data, 'subject') ?? '').includes(`并发预警-${kind}`))).toHaveLength(1);
  });

  it("a claim whose run died is taken over once; a live run's never; one without a run only once it is stale", async () => {
    const saved = await a.save(a.w.admin, a.body({ name: `接管预警-${kind}`, filterJson: threshold(0) }));
    const alertId = saved.body.data.id as number;
    const now = new Date();
    const staleBefore = new Date(now.getTime() - 600_000);
    // A run that is gone (no job_run row): its claim is taken over by the retry, which checks and sends.
    expect(await claimCheck(a.w.server.ctx.db, alertId, now, 'run-that-died', staleBefore)).toBeDefined();
    expect(await runCheck(a.w.server.ctx, log, { alertId, slot: now.toISOString() }, 'retry-run', now)).toBe('checked');
    expect(smtp.mails.filter((m) => decodeMimeHeader(mailHeader(m.data, 'subject') ?? '').includes(`接管预警-${kind}`))).toHaveLength(1);
    // Attempts are spent and the check is done: nothing takes it again.
    expect(await claimCheck(a.w.server.ctx.db, alertId, now, 'third-run', staleBefore)).toBeUndefined();
    // A claim of a run that is alive (another server still checking) is never taken over.
    const db = a.w.server.ctx.db;
    await db
      .insertInto('jobInstance')
      .values({ id: `live-${kind}`, host: 'test', pid: 1 })
      .execute();
    await db
      .insertInto('jobRun')
      .values({ id: `live-run-${kind}`, instanceId: `live-${kind}`, queue: 'alert-check', jobId: 'j', data: '{}' })
      .execute();
    const busy = new Date(now.getTime() + 600_000);
    expect(await claimCheck(db, alertId, busy, `live-run-${kind}`, staleBefore)).toBeDefined();
    expect(await claimCheck(db, alertId, busy, 'other-run', new Date(busy.getTime() + 3_600_000))).toBeUndefined();
    // A claim without a run is taken over only once it is older than the stale limit.
    const later = new Date(now.getTime() + 300_000);
    expect(await claimCheck(a.w.server.ctx.db, alertId, later, null, staleBefore)).toBeDefined();
    expect(await claimCheck(a.w.server.ctx.db, alertId, later, 'x', staleBefore)).toBeUndefined();
  });

  // Only a real PostgreSQL has two servers on one store (the embedded one is one process's own).
  const onSharedStore = kind === 'postgres' ? it : () => undefined;
  onSharedStore('two servers on the same PostgreSQL: each slot is claimed by exactly one', async () => {
    const other = await openStore({ databaseUrl: a.w.server.store.connectionString! });
    try {
      const saved = await a.save(a.w.admin, a.body({ name: '双进程预警', enableStatus: 0 }));
      const alertId = saved.body.data.id as number;
      const base = Date.now();
      const staleBefore = new Date(base - 600_000);
      const slots = Array.from({ length: 20 }, (_, i) => new Date(base + i * 60_000));
      const claims = await Promise.all(
        slots.flatMap((slot) => [claimCheck(a.w.server.ctx.db, alertId, slot, null, staleBefore), claimCheck(other.db, alertId, slot, null, staleBefore)]),
      );
      for (let i = 0; i < slots.length; i += 1) expect([claims[2 * i], claims[2 * i + 1]].filter(Boolean)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});
