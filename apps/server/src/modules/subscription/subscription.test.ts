import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createTestServer, reopenableTestStore, storeKinds, type ReopenableTestStore, type TestServer } from '../../../test/harness.ts';
import { call, createUser } from '../../../test/fixtures.ts';
import type { AppContext } from '../../context.ts';
import { loadConfig } from '../../platform/config.ts';
import { migrateToLatest, type MetadataStore } from '../../platform/db/store.ts';
import { seed } from '../../platform/db/seed.ts';
import { startTestS3Server } from '../../platform/files/s3-test-server.ts';
import { Jobs } from '../../platform/jobs/boss.ts';
import { mailHeader, startRobotReceiver, startSmtpServer, type LocalSmtpServer, type RobotReceiver } from '../../../test/notify-servers.ts';
import { subscriptionJobs } from './jobs.ts';
import { removeOldSubscriptionFiles, type RenderBoard } from './render.ts';
import { overrideSubscriptionDeps, runTick, sendSubscription } from './send.ts';

const kinds = await storeKinds();
const log = pino({ level: 'silent' });
const FAKE_JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('销售大屏的假图片'.repeat(40))]);
const fakeRender: RenderBoard = async (ctx, _userId, boardId) => {
  const board = await ctx.db.selectFrom('board').select('title').where('id', '=', boardId).executeTakeFirstOrThrow();
  return { title: board.title, image: FAKE_JPEG, width: 1920, height: 1080, reencode: async () => FAKE_JPEG };
};
/** The Shanghai hour of an instant. */
const shanghaiHour = (instant: Date) => (instant.getUTCHours() + 8) % 24;

async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function createBoard(ctx: Pick<AppContext, 'db'>, title: string, createUserId: number | null, publicStatus = 1): Promise<number> {
  const category = await ctx.db
    .insertInto('boardCategory')
    .values({ kind: 'visual', categoryKey: null, categoryValue: `订阅测试-${title}`, parentId: 0, createUserId })
    .returning('id')
    .executeTakeFirstOrThrow();
  const board = await ctx.db
    .insertInto('board')
    .values({ kind: 'visual', title, categoryId: category.id, content: '{}', backgroundUrl: null, publicStatus, createUserId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return board.id;
}

const baseSettings = { smtpHost: '', smtpPort: 25, smtpSecure: false, smtpUser: '', smtpPassword: '', smtpFrom: '' };

describe.each(kinds)('subscriptions on %s', (kind) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let smtp: LocalSmtpServer;
  let robots: RobotReceiver;
  let boardId: number;
  const settings = (extra: Record<string, unknown>) => call(server, 'PUT', '/api/system/notify', { headers: admin, payload: { ...baseSettings, ...extra } });
  const save = (extra: Record<string, unknown>) =>
    call(server, 'POST', '/api/subscription/subscriptions', {
      headers: admin,
      payload: { dataType: 'visual', dataId: boardId, subTitle: '销售大屏', notifyTitle: '每日销售', ...extra },
    });
  const logRow = (id: number) => server.ctx.db.selectFrom('subscriptionLog').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const lastLog = () => server.ctx.db.selectFrom('subscriptionLog').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();

  beforeAll(async () => {
    server = await createTestServer(kind);
    server.ctx.selfUrl = 'http://127.0.0.1:9';
    overrideSubscriptionDeps(server.ctx, { renderBoard: fakeRender });
    admin = await server.login();
    smtp = await startSmtpServer();
    robots = await startRobotReceiver({ dingtalk: 'ding-secret', feishu: 'feishu-secret', wecomKey: 'wecom-key' });
    const me = await call(server, 'GET', '/api/profile', { headers: admin });
    boardId = await createBoard(server.ctx, '销售大屏', me.body.data.id);
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
    await robots?.close();
  });

  it('check says why a method cannot be used; save needs a title, a usable method and a visible board', async () => {
    const check = (notifyType: string) => call(server, 'POST', '/api/subscription/check', { headers: admin, payload: { notifyType } });
    expect((await check('email')).body).toMatchObject({ data: 1, msg: '未配置邮件服务器，请联系管理员' });
    expect((await check('feishu')).body).toMatchObject({ data: 1, msg: '未配置飞书机器人，请联系管理员' });

    const saved = await settings({ smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpFrom: 'shutu@example.com', smtpPassword: 'pw-secret' });
    expect(saved.status).toBe(200);
    expect(saved.body.data.smtpPassword).toBe('******');
    expect((await check('email')).body).toMatchObject({ data: 1, msg: '请先在个人设置中填写邮箱' });
    await call(server, 'PUT', '/api/profile', { headers: admin, payload: { name: '系统管理员', email: 'boss@example.com' } });
    expect((await check('email')).body).toMatchObject({ data: 0 });

    const noTitle = await save({ notifyTitle: '  ' });
    expect(noTitle.status).toBe(400);
    expect(noTitle.body.msg).toBe('请输入通知标题');
    const feishu = await save({ notifyType: 'feishu' });
    expect(feishu.status).toBe(400);
    expect(feishu.body.msg).toBe('未配置飞书机器人，请联系管理员');

    const other = await createUser(server, admin, { email: 'other@example.com' });
    const otherHeaders = await server.login(other.account, other.password);
    const hidden = await createBoard(server.ctx, '机密大屏', null, 0);
    const refused = await call(server, 'POST', '/api/subscription/subscriptions', {
      headers: otherHeaders,
      payload: { dataType: 'visual', dataId: hidden, subTitle: '机密大屏', notifyTitle: '机密' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('没有此大屏权限');

    // The stored password is kept when the mask comes back, and never returned.
    const again = await call(server, 'GET', '/api/system/notify', { headers: admin });
    expect(again.body.data).toMatchObject({ smtpHost: '127.0.0.1', smtpPassword: '******' });
    expect(JSON.stringify(again.body)).not.toContain('pw-secret');
  });

  it('sends by email with the page attached and inline, and logs err_code 0', async () => {
    await settings({ smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpFrom: 'shutu@example.com' });
    const created = await save({ notifyType: 'email', triggerPeriod: 'day', triggerHour: 0 });
    expect(created.status).toBe(200);
    expect(created.body.msg).toBe('已订阅');

    const result = await sendSubscription(server.ctx, log, { subscriptionId: created.body.data.id, slot: '2026-03-10T01:00:00.000Z' });
    expect(result).toBe('sent');
    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0]!;
    expect(mail.to).toEqual(['boss@example.com']);
    expect(mailHeader(mail.data, 'Subject')).toBe('每日销售');
    expect(mail.data).toMatch(/Content-Type: image\/jpeg; name=.*/);
    expect(mail.data).toContain('Content-ID: <page-1@shutu>');
    expect(mail.data).toContain('cid:page-1@shutu');
    const attached = /Content-ID: <page-1@shutu>\r\n(?:.+\r\n)*\r\n([A-Za-z0-9+/=\r\n]+)/.exec(mail.data)?.[1];
    expect(Buffer.from(attached!.replace(/\r\n/g, ''), 'base64').equals(FAKE_JPEG)).toBe(true);

    const row = await lastLog();
    expect(row).toMatchObject({ state: 'sent', errCode: 0, errMsg: null, notifyType: 'email', subTitle: '销售大屏', userName: '系统管理员' });
    expect(row.content).toBe('标题：每日销售；文件：销售大屏.jpg');
    const listed = await call(server, 'GET', '/api/subscription/logs', { headers: admin, query: { errCode: 0, dataType: 'visual' } });
    expect(listed.body.data.records.map((r: { id: number }) => r.id)).toContain(row.id);

    // The same due time again: already claimed, nothing more is sent.
    expect(await sendSubscription(server.ctx, log, { subscriptionId: created.body.data.id, slot: '2026-03-10T01:00:00.000Z' })).toBe('skipped');
    expect(smtp.mails).toHaveLength(1);
  });

  it('signs DingTalk and Feishu messages; a wrong secret is refused by the robot and logged as a failure', async () => {
    await settings({
      dingtalkWebhook: `${robots.url}/dingtalk/robot/send?access_token=abc`,
      dingtalkSecret: 'ding-secret',
      feishuWebhook: `${robots.url}/feishu/hook/xyz`,
      feishuSecret: 'feishu-secret',
    });
    const ding = await save({ notifyType: 'dingtalk' });
    const feishu = await save({ notifyType: 'feishu' });
    expect(await sendSubscription(server.ctx, log, { subscriptionId: ding.body.data.id, slot: '2026-03-10T01:00:00.000Z' })).toBe('sent');
    expect(await sendSubscription(server.ctx, log, { subscriptionId: feishu.body.data.id, slot: '2026-03-10T01:00:00.000Z' })).toBe('sent');
    const [dingReq, feishuReq] = robots.requests;
    expect(dingReq).toMatchObject({ path: '/dingtalk/robot/send', signed: true, query: { access_token: 'abc' } });
    expect(dingReq!.body).toMatchObject({ msgtype: 'markdown', markdown: { title: '每日销售' } });
    expect((dingReq!.body.markdown as { text: string }).text).toMatch(
      /!\[销售大屏\.jpg\]\(http:\/\/127\.0\.0\.1:9\/api\/subscription\/images\/[a-f0-9]{24}\.jpg\)/,
    );
    expect(feishuReq).toMatchObject({ path: '/feishu/hook/xyz', signed: true, body: { msg_type: 'post' } });

    // The image the robots link to is served publicly.
    const imageUrl = /\((http:\/\/127\.0\.0\.1:9(\/api\/subscription\/images\/[a-f0-9]{24}\.jpg))\)/.exec(
      (dingReq!.body.markdown as { text: string }).text,
    )![2]!;
    const image = await server.app.inject({ method: 'GET', url: imageUrl });
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload.equals(FAKE_JPEG)).toBe(true);

    await settings({
      dingtalkWebhook: `${robots.url}/dingtalk/robot/send?access_token=abc`,
      dingtalkSecret: 'wrong',
      feishuWebhook: `${robots.url}/feishu/hook/xyz`,
      feishuSecret: 'wrong',
    });
    expect(await sendSubscription(server.ctx, log, { subscriptionId: ding.body.data.id, slot: '2026-03-11T01:00:00.000Z' })).toBe('failed');
    let row = await lastLog();
    expect(row).toMatchObject({ state: 'failed', notifyType: 'dingtalk' });
    expect(row.errCode).not.toBe(0);
    expect(row.errMsg).toBe('钉钉拒绝了消息（310000）：sign not match');
    expect(await sendSubscription(server.ctx, log, { subscriptionId: feishu.body.data.id, slot: '2026-03-11T01:00:00.000Z' })).toBe('failed');
    row = await logRow((await lastLog()).id);
    expect(row.errMsg).toContain('飞书拒绝了消息（19021）');

    const failures = await call(server, 'GET', '/api/subscription/logs', { headers: admin, query: { errCode: 1, size: 10 } });
    expect(failures.body.data.records.map((r: { notifyType: string }) => r.notifyType).sort()).toEqual(['dingtalk', 'feishu']);
  });

  it('lists logs by day range (end exclusive) and shows others only their own', async () => {
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 32 * 3600_000).toISOString().slice(0, 10);
    const inRange = await call(server, 'GET', '/api/subscription/logs', { headers: admin, query: { startTime: today, endTime: tomorrow, subTitle: '销售' } });
    expect(inRange.body.data.total).toBe(5);
    const before = await call(server, 'GET', '/api/subscription/logs', { headers: admin, query: { startTime: '2020-01-01', endTime: today } });
    expect(before.body.data.total).toBe(0);
    const other = await createUser(server, admin);
    const otherLogs = await call(server, 'GET', '/api/subscription/logs', { headers: await server.login(other.account, other.password) });
    expect(otherLogs.body.data.total).toBe(0);
  });

  it("sends to the WeCom group robot (text, then the page with its md5) and logs err_code 0; a revoked key is logged with WeCom's words", async () => {
    await settings({ wecomWebhook: `${robots.url}/wecom/cgi-bin/webhook/send?key=wecom-key` });
    const wecom = await save({ notifyType: 'qywechat' });
    expect(wecom.status).toBe(200);
    const received = () => robots.requests.filter((r) => r.path.startsWith('/wecom'));

    expect(await sendSubscription(server.ctx, log, { subscriptionId: wecom.body.data.id, slot: '2026-03-12T01:00:00.000Z' })).toBe('sent');
    expect(received().map((r) => [r.body.msgtype, r.signed])).toEqual([
      ['markdown', true],
      ['image', true],
    ]);
    expect((received()[0]!.body.markdown as { content: string }).content).toMatch(/^### 每日销售\n\n> 订阅内容：销售大屏/);
    const image = received()[1]!.body.image as { base64: string; md5: string };
    expect(Buffer.from(image.base64, 'base64').equals(FAKE_JPEG)).toBe(true);
    const row = await lastLog();
    expect(row).toMatchObject({ state: 'sent', errCode: 0, errMsg: null, notifyType: 'qywechat', content: '标题：每日销售；文件：销售大屏.jpg' });

    await settings({ wecomWebhook: `${robots.url}/wecom/cgi-bin/webhook/send?key=revoked` });
    expect(await sendSubscription(server.ctx, log, { subscriptionId: wecom.body.data.id, slot: '2026-03-13T01:00:00.000Z' })).toBe('failed');
    const refused = await lastLog();
    expect(refused).toMatchObject({ state: 'failed', errCode: 1, notifyType: 'qywechat' });
    expect(refused.errMsg).toMatch(/^企业微信拒绝了消息（93000）：invalid webhook url/);
  });

  it('links 查看详情 and the images to 公开访问地址 (系统设置, else PUBLIC_URL), not the server’s own address', async () => {
    await settings({
      smtpHost: '127.0.0.1',
      smtpPort: smtp.port,
      smtpFrom: 'shutu@example.com',
      dingtalkWebhook: `${robots.url}/dingtalk/robot/send?access_token=abc`,
      dingtalkSecret: 'ding-secret',
    });
    const publicUrl = (value: string) => call(server, 'PUT', '/api/system/public-url', { headers: admin, payload: { publicUrl: value } });
    const email = await save({ notifyType: 'email' });
    const ding = await save({ notifyType: 'dingtalk' });
    const dingText = () => (robots.requests.filter((r) => r.path.startsWith('/dingtalk')).at(-1)!.body.markdown as { text: string }).text;
    try {
      server.ctx.config.publicUrl = 'https://env.example.com';
      expect(await sendSubscription(server.ctx, log, { subscriptionId: ding.body.data.id, slot: '2026-04-01T01:00:00.000Z' })).toBe('sent');
      expect(dingText()).toContain(`[查看详情](https://env.example.com/newbi/preview/${boardId})`);

      expect((await publicUrl('https://bi.example.com/shutu/')).body.data).toEqual({
        publicUrl: 'https://bi.example.com/shutu',
        envPublicUrl: 'https://env.example.com',
      });
      expect(await sendSubscription(server.ctx, log, { subscriptionId: ding.body.data.id, slot: '2026-04-02T01:00:00.000Z' })).toBe('sent');
      expect(dingText()).toContain(`[查看详情](https://bi.example.com/shutu/newbi/preview/${boardId})`);
      expect(dingText()).toMatch(/!\[销售大屏\.jpg\]\(https:\/\/bi\.example\.com\/shutu\/api\/subscription\/images\/[a-f0-9]{24}\.jpg\)/);
      expect(dingText()).not.toContain('127.0.0.1');

      const mails = smtp.mails.length;
      expect(await sendSubscription(server.ctx, log, { subscriptionId: email.body.data.id, slot: '2026-04-02T01:00:00.000Z' })).toBe('sent');
      expect(smtp.mails).toHaveLength(mails + 1);
      const mail = smtp.mails.at(-1)!.data.replace(/=\r\n/g, '');
      expect(mail).toContain(`https://bi.example.com/shutu/newbi/preview/${boardId}`);
      expect(mail).not.toContain('127.0.0.1:9');
    } finally {
      server.ctx.config.publicUrl = undefined;
      await publicUrl('');
    }
    // Neither set: the server's own address, as before.
    expect(await sendSubscription(server.ctx, log, { subscriptionId: ding.body.data.id, slot: '2026-04-03T01:00:00.000Z' })).toBe('sent');
    expect(dingText()).toContain(`[查看详情](http://127.0.0.1:9/newbi/preview/${boardId})`);
  });

  // Last: its send adds a log row the day-range count above does not expect.
  it('with the file storage in an S3 bucket, the image the robot links to is an object there, served and expired from it', async () => {
    const s3 = await startTestS3Server();
    const local = server.ctx.config.files;
    server.ctx.config.files = s3.config;
    try {
      await settings({ dingtalkWebhook: `${robots.url}/dingtalk/robot/send?access_token=abc`, dingtalkSecret: 'ding-secret' });
      const ding = await save({ notifyType: 'dingtalk' });
      const before = robots.requests.length;
      expect(await sendSubscription(server.ctx, log, { subscriptionId: ding.body.data.id, slot: '2026-04-01T01:00:00.000Z' })).toBe('sent');
      const text = (robots.requests[before]!.body.markdown as { text: string }).text;
      const file = /\/api\/subscription\/images\/([a-f0-9]{24}\.jpg)\)/.exec(text)![1]!;
      expect(s3.objectKeys()).toEqual([`subscription-files/${file}`]);
      const image = await server.app.inject({ method: 'GET', url: `/api/subscription/images/${file}` });
      expect(image.statusCode).toBe(200);
      expect(image.rawPayload.equals(FAKE_JPEG)).toBe(true);
      // Eight days on, the hourly sweep removes it from the bucket.
      await removeOldSubscriptionFiles(server.ctx, Date.now() + 8 * 86_400_000);
      expect(s3.objectKeys()).toEqual([]);
      expect((await server.app.inject({ method: 'GET', url: `/api/subscription/images/${file}` })).statusCode).toBe(404);
    } finally {
      server.ctx.config.files = local;
      await s3.stop();
    }
  });
});

describe.each(kinds)('exactly once across a crash on %s', (kind) => {
  let data: ReopenableTestStore;
  let robots: RobotReceiver;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-sub-'));
  beforeAll(async () => {
    data = await reopenableTestStore(kind);
    robots = await startRobotReceiver({ dingtalk: 'ding-secret' });
  });
  afterAll(async () => {
    await robots?.close();
    await data?.cleanup();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /**
   * One life of the server: the store, the subscription jobs working, the given renderer.
   * `beforeJobs` runs on the store before the jobs start (time passing while it was down);
   * `tickAtStart: false` leaves every tick to the test.
   */
  async function start(
    renderBoard: RenderBoard,
    { beforeJobs, tickAtStart = true }: { beforeJobs?: (ctx: AppContext) => Promise<void>; tickAtStart?: boolean } = {},
  ): Promise<{ ctx: AppContext; store: MetadataStore; jobs: Jobs }> {
    const store = await data.open();
    await migrateToLatest(store.db);
    await seed(store.db);
    const config = { ...loadConfig({}), webDist: undefined, databaseUrl: undefined, secretKey: undefined, dataDir };
    const ctx: AppContext = { config, store, db: store.db, selfUrl: 'http://127.0.0.1:9' };
    overrideSubscriptionDeps(ctx, { renderBoard });
    await beforeJobs?.(ctx);
    const definitions = subscriptionJobs(ctx, log).map((d) => ({ ...d, runAtStart: d.runAtStart && tickAtStart }));
    const jobs = await Jobs.start(store, log, definitions, { work: true, pollingIntervalSeconds: 0.5 });
    ctx.jobs = jobs;
    return { ctx, store, jobs };
  }
  const logRows = (ctx: AppContext) => ctx.db.selectFrom('subscriptionLog').selectAll().execute();

  it('a send killed between claim and delivery is delivered once after the restart; a restart with nothing due sends nothing', async () => {
    // First life: a subscription due now; the render hangs (the process dies mid-send).
    let rendering!: () => void;
    const renderStarted = new Promise<void>((resolve) => (rendering = resolve));
    let life = await start(
      async () => {
        rendering();
        return new Promise(() => undefined);
      },
      { tickAtStart: false },
    );
    const adminId = (await life.ctx.db.selectFrom('sysUser').select('id').executeTakeFirstOrThrow()).id;
    const boardId = await createBoard(life.ctx, '销售大屏', adminId);
    const { saveNotifySettings } = await import('../system/notify-settings.ts');
    await saveNotifySettings(life.ctx, {
      ...baseSettings,
      smtpPort: 25,
      wecomWebhook: '',
      dingtalkWebhook: `${robots.url}/dingtalk?x=1`,
      dingtalkSecret: 'ding-secret',
      feishuWebhook: '',
      feishuSecret: '',
      tianxiangyunWebhook: '',
      tianxiangyunToken: '',
    });
    const now = new Date();
    const sub = await life.ctx.db
      .insertInto('subscription')
      .values({
        userId: adminId,
        dataType: 'visual',
        dataId: boardId,
        subTitle: '销售大屏',
        notifyTitle: '每日销售',
        notifyType: 'dingtalk',
        triggerPeriod: 'day',
        triggerHour: shanghaiHour(now),
        triggerWeekValue: 1,
        triggerDayValue: 1,
        format: 'image',
        lastSlot: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await runTick(life.ctx, log, now)).toBe(1);
    await renderStarted;
    const claimed = await logRows(life.ctx);
    expect(claimed).toHaveLength(1);
    expect(claimed[0]).toMatchObject({ subscriptionId: sub.id, state: 'pending' });
    // Killed: no graceful stop, the hanging send is abandoned.
    await life.jobs.boss.stop({ graceful: false, wait: false, close: false });
    await life.store.close();

    // Second life, later than the stale-claim window (the row is aged instead of waiting ten
    // minutes): the tick a start runs picks the pending send up by itself.
    life = await start(fakeRender, {
      beforeJobs: async (ctx) => {
        await ctx.db
          .updateTable('subscriptionLog')
          .set({ updateTime: new Date(Date.now() - 20 * 60_000) })
          .execute();
      },
    });
    try {
      const done = await eventually(async () => {
        const rows = await logRows(life.ctx);
        return rows[0]?.state === 'sent' ? rows : undefined;
      }, 'the pending send to be delivered');
      expect(done).toHaveLength(1);
      expect(done[0]).toMatchObject({ errCode: 0, attempts: 2 });
      expect(robots.requests.filter((r) => r.signed)).toHaveLength(1);
      // Nothing more to do: not due again, no stale claim.
      expect(await runTick(life.ctx, log)).toBe(0);
    } finally {
      await life.jobs.stop();
      await life.store.close();
    }

    // Third life: an ordinary restart with nothing due sends nothing.
    life = await start(fakeRender);
    try {
      expect(await runTick(life.ctx, log)).toBe(0);
      expect(await sendSubscription(life.ctx, log, { subscriptionId: sub.id, slot: done0Slot(await logRows(life.ctx)) })).toBe('skipped');
      expect(await logRows(life.ctx)).toHaveLength(1);
      expect(robots.requests).toHaveLength(1);
    } finally {
      await life.jobs.stop();
      await life.store.close();
    }
  });
});

const done0Slot = (rows: Array<{ slot: Date }>) => new Date(rows[0]!.slot).toISOString();
