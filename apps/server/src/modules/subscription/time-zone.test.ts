import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createTestServer, type TestServer } from '../../../test/harness.ts';
import { call } from '../../../test/fixtures.ts';
import { startRobotReceiver, type RobotReceiver } from '../../../test/notify-servers.ts';
import type { RenderBoard } from './render.ts';
import { dueSlot, latestSlot, nextSlot } from './schedule.ts';
import { overrideSubscriptionDeps, sendSubscription } from './send.ts';
import { realignSchedules } from './service.ts';

const HOUR = 3600_000;
const log = pino({ level: 'silent' });
const FAKE_JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('假图片'.repeat(40))]);
const fakeRender: RenderBoard = async () => ({ title: '销售大屏', image: FAKE_JPEG, width: 1920, height: 1080, reencode: async () => FAKE_JPEG });

/**
 * Subscriptions in the installation's time zone (系统设置 → 时区; docs/subscriptions.md
 * "Scheduler"): 下次发送 and the 订阅时间 of the sent message are on that clock and say which,
 * and changing the zone moves the schedules without sending anything at once. Embedded store only:
 * the rules are the server's.
 */
describe('subscriptions and 时区', () => {
  let server: TestServer;
  let admin: Record<string, string>;
  let robots: RobotReceiver;
  let boardId: number;
  const setZone = (timeZone: string) => call(server, 'PUT', '/api/system/time-zone', { headers: admin, payload: { timeZone } });
  const dingText = () => (robots.requests.filter((r) => r.path.startsWith('/dingtalk')).at(-1)!.body.markdown as { text: string }).text;
  const listed = async (id: number) =>
    (await call(server, 'GET', '/api/subscription/subscriptions', { headers: admin })).body.data.records.find((s: { id: number }) => s.id === id);

  beforeAll(async () => {
    server = await createTestServer('pglite');
    overrideSubscriptionDeps(server.ctx, { renderBoard: fakeRender });
    admin = await server.login();
    robots = await startRobotReceiver({ dingtalk: 'ding-secret' });
    await call(server, 'PUT', '/api/system/notify', {
      headers: admin,
      payload: { dingtalkWebhook: `${robots.url}/dingtalk/robot/send?access_token=abc`, dingtalkSecret: 'ding-secret' },
    });
    const category = await server.ctx.db
      .insertInto('boardCategory')
      .values({ kind: 'visual', categoryKey: null, categoryValue: '时区测试', parentId: 0, createUserId: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    boardId = (
      await server.ctx.db
        .insertInto('board')
        .values({ kind: 'visual', title: '销售大屏', categoryId: category.id, content: '{}', backgroundUrl: null, publicStatus: 1, createUserId: null })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    await server?.close();
    await robots?.close();
  });

  it('a daily 8:00 is due at 8:00 on the zone’s clock, and the message says the time with its zone', async () => {
    const saved = await call(server, 'POST', '/api/subscription/subscriptions', {
      headers: admin,
      payload: {
        dataType: 'visual',
        dataId: boardId,
        subTitle: '销售大屏',
        notifyTitle: '每日销售',
        notifyType: 'dingtalk',
        triggerPeriod: 'day',
        triggerHour: 8,
      },
    });
    expect(saved.status).toBe(200);
    const id = saved.body.data.id as number;
    // Asia/Shanghai (default): 08:00 is 00:00 UTC.
    expect(saved.body.data.nextTime).toMatch(/T00:00:00\.000Z$/);
    expect(await sendSubscription(server.ctx, log, { subscriptionId: id, slot: '2026-11-26T00:00:00.000Z' })).toBe('sent');
    expect(dingText()).toContain('订阅时间：2026-11-26 08:00（北京时间）');

    expect((await setZone('Asia/Tokyo')).status).toBe(200);
    expect((await listed(id)).nextTime).toMatch(/T23:00:00\.000Z$/);
    expect(await sendSubscription(server.ctx, log, { subscriptionId: id, slot: '2026-11-26T23:00:00.000Z' })).toBe('sent');
    expect(dingText()).toContain('订阅时间：2026-11-27 08:00（UTC+09:00）');

    // New York in winter (EST) and in summer (EDT): the label follows the offset of that day.
    expect((await setZone('America/New_York')).status).toBe(200);
    expect((await listed(id)).nextTime).toMatch(/T1[23]:00:00\.000Z$/);
    expect(await sendSubscription(server.ctx, log, { subscriptionId: id, slot: '2026-12-01T13:00:00.000Z' })).toBe('sent');
    expect(dingText()).toContain('订阅时间：2026-12-01 08:00（UTC-05:00）');
    expect(await sendSubscription(server.ctx, log, { subscriptionId: id, slot: '2026-07-01T12:00:00.000Z' })).toBe('sent');
    expect(dingText()).toContain('订阅时间：2026-07-01 08:00（UTC-04:00）');
    await setZone('Asia/Shanghai');
  });

  it('changing the zone treats a time already past on the new clock as sent, so the change sends nothing at once', async () => {
    const saved = await call(server, 'POST', '/api/subscription/subscriptions', {
      headers: admin,
      payload: { dataType: 'visual', dataId: boardId, notifyTitle: '换时区', notifyType: 'dingtalk', triggerPeriod: 'day', triggerHour: 8 },
    });
    const id = saved.body.data.id as number;
    const sub = await server.ctx.db.selectFrom('subscription').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const lastSlot = async () => (await server.ctx.db.selectFrom('subscription').select('lastSlot').where('id', '=', id).executeTakeFirstOrThrow()).lastSlot;
    const setLastSlot = (at: string) =>
      server.ctx.db
        .updateTable('subscription')
        .set({ lastSlot: new Date(at) })
        .where('id', '=', id)
        .execute();

    // 08:30 in London on 10 March: Shanghai's 08:00 went out at 00:00 UTC; London's 08:00 passed half an hour ago.
    const now = new Date('2026-03-10T08:30:00Z');
    await setLastSlot('2026-03-10T00:00:00Z');
    expect(dueSlot(sub, await lastSlot(), now, HOUR, 'Europe/London')).toEqual(new Date('2026-03-10T08:00:00Z'));
    await realignSchedules(server.ctx, 'Europe/London', now);
    expect(await lastSlot()).toEqual(new Date('2026-03-10T08:00:00Z'));
    expect(dueSlot(sub, await lastSlot(), now, HOUR, 'Europe/London')).toBeUndefined();
    expect(nextSlot(sub, now, 'Europe/London')).toEqual(new Date('2026-03-11T08:00:00Z'));
    // Back east: Shanghai's latest 08:00 is older than the last send; nothing moves back.
    await realignSchedules(server.ctx, 'Asia/Shanghai', now);
    expect(await lastSlot()).toEqual(new Date('2026-03-10T08:00:00Z'));

    // Saving 时区 runs it: afterwards no due time of the new zone is pending.
    await setLastSlot('2020-01-01T00:00:00Z');
    await setZone('America/Los_Angeles');
    expect((await lastSlot())!.getTime()).toBe(latestSlot(sub, new Date(), 'America/Los_Angeles').getTime());
    await setZone('Asia/Shanghai');
  });

  it('log date bounds are days of the zone', async () => {
    await setZone('Asia/Tokyo');
    const row = await server.ctx.db
      .insertInto('subscriptionLog')
      .values({
        subscriptionId: null,
        subTitle: '边界',
        dataType: 'visual',
        dataId: boardId,
        userId: 1,
        userName: 'admin',
        notifyType: 'dingtalk',
        state: 'sent',
        errCode: 0,
        slot: new Date('2026-05-31T15:30:00Z'),
        // 2026-06-01 00:30 in Tokyo, still 2026-05-31 in Shanghai.
        createTime: new Date('2026-05-31T15:30:00Z'),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ids = async (startTime: string, endTime: string) =>
      (await call(server, 'GET', '/api/subscription/logs', { headers: admin, query: { startTime, endTime, subTitle: '边界' } })).body.data.records.map(
        (r: { id: number }) => r.id,
      );
    expect(await ids('2026-06-01', '2026-06-02')).toEqual([row.id]);
    expect(await ids('2026-05-31', '2026-06-01')).toEqual([]);
    await setZone('Asia/Shanghai');
    expect(await ids('2026-05-31', '2026-06-01')).toEqual([row.id]);
  });
});
