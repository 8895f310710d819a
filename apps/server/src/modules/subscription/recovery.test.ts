import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createTestServer, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call } from '../../../test/fixtures.ts';
import { startRobotReceiver, type RobotReceiver } from '../../../test/notify-servers.ts';
import type { RenderBoard } from './render.ts';
import { claimSlot } from './repo.ts';
import { overrideSubscriptionDeps, runTick, SEND_INTERRUPTED_MESSAGE, sendSubscription } from './send.ts';

/**
 * A send whose process died (issue 14; docs/subscriptions.md "Exactly once"): its pending claim
 * is taken over as soon as its job run is gone — not ten minutes later — and sent once; a claim a
 * live run holds is not; a claim interrupted twice is failed, never left pending.
 */
const kinds = await storeKinds();
const log = pino({ level: 'silent' });
const FAKE_JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('假图片'.repeat(40))]);
const fakeRender: RenderBoard = async () => ({ title: '销售大屏', image: FAKE_JPEG, width: 1920, height: 1080, reencode: async () => FAKE_JPEG });

describe.each(kinds)('interrupted subscription sends on %s', (kind) => {
  let server: TestServer;
  let robots: RobotReceiver;
  let subscriptionId: number;
  let userId: number;
  const slot = (day: number) => `2026-04-${String(day).padStart(2, '0')}T01:00:00.000Z`;
  /** The claim a process made before it died (its run gone) or still holds (its run recorded). */
  const claim = async (at: string, runAlive: boolean, attempts = 1) => {
    const runId = randomUUID();
    if (runAlive) {
      await server.ctx.db
        .insertInto('jobInstance')
        .values({ id: `i-${runId.slice(0, 30)}` })
        .execute();
      await server.ctx.db
        .insertInto('jobRun')
        .values({ id: runId, instanceId: `i-${runId.slice(0, 30)}`, queue: 'subscription-send', jobId: randomUUID(), data: '{}' })
        .execute();
    }
    const id = await claimSlot(server.ctx.db, {
      subscriptionId,
      subTitle: '销售大屏',
      dataType: 'visual',
      dataId: 1,
      userId,
      userName: '系统管理员',
      notifyType: 'dingtalk',
      content: null,
      slot: new Date(at),
      runId,
    });
    await server.ctx.db.updateTable('subscriptionLog').set({ attempts }).where('id', '=', id!).execute();
    return id!;
  };
  const row = (id: number) => server.ctx.db.selectFrom('subscriptionLog').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    server = await createTestServer(kind);
    server.ctx.selfUrl = 'http://127.0.0.1:9';
    overrideSubscriptionDeps(server.ctx, { renderBoard: fakeRender });
    const admin = await server.login();
    robots = await startRobotReceiver({ dingtalk: 'ding-secret', feishu: 'feishu-secret', wecomKey: 'wecom-key' });
    await call(server, 'PUT', '/api/system/notify', {
      headers: admin,
      payload: { dingtalkWebhook: `${robots.url}/dingtalk/robot/send?access_token=abc`, dingtalkSecret: 'ding-secret' },
    });
    userId = (await call(server, 'GET', '/api/profile', { headers: admin })).body.data.id;
    const category = await server.ctx.db
      .insertInto('boardCategory')
      .values({ kind: 'visual', categoryKey: null, categoryValue: '订阅恢复', parentId: 0, createUserId: userId })
      .returning('id')
      .executeTakeFirstOrThrow();
    const board = await server.ctx.db
      .insertInto('board')
      .values({ kind: 'visual', title: '销售大屏', categoryId: category.id, content: '{}', backgroundUrl: null, publicStatus: 1, createUserId: userId })
      .returning('id')
      .executeTakeFirstOrThrow();
    const saved = await call(server, 'POST', '/api/subscription/subscriptions', {
      headers: admin,
      payload: { dataType: 'visual', dataId: board.id, subTitle: '销售大屏', notifyTitle: '每日销售', notifyType: 'dingtalk' },
    });
    expect(saved.status, saved.raw.body).toBe(200);
    subscriptionId = saved.body.data.id;
  });
  afterAll(async () => {
    await server?.close();
    await robots?.close();
  });

  it('takes over a claim whose run died at once and sends it once; leaves a live run’s claim alone', async () => {
    const dead = await claim(slot(1), false);
    const live = await claim(slot(2), true);
    const before = robots.requests.length;

    // Moments after the claim (far from the ten-minute stale window): the dead run's claim is taken over.
    expect(await sendSubscription(server.ctx, log, { subscriptionId, slot: slot(1) }, new Date(), randomUUID())).toBe('sent');
    expect(await row(dead)).toMatchObject({ state: 'sent', attempts: 2, errCode: 0 });
    expect(await sendSubscription(server.ctx, log, { subscriptionId, slot: slot(1) })).toBe('skipped');
    // The live run is still sending its own: no second delivery.
    expect(await sendSubscription(server.ctx, log, { subscriptionId, slot: slot(2) })).toBe('skipped');
    expect(await row(live)).toMatchObject({ state: 'pending', attempts: 1 });
    expect(robots.requests.length - before).toBe(1); // one DingTalk message: delivered once
  });

  it('fails a claim interrupted a second time (the tick), with the reason, instead of leaving it pending', async () => {
    const twice = await claim(slot(3), false, 2);
    const aliveRetry = await claim(slot(4), true, 2);
    server.ctx.jobs = { send: async () => null };
    try {
      await runTick(server.ctx, log);
    } finally {
      server.ctx.jobs = undefined;
    }
    expect(await row(twice)).toMatchObject({ state: 'failed', errCode: 1, errMsg: SEND_INTERRUPTED_MESSAGE });
    expect(await row(aliveRetry)).toMatchObject({ state: 'pending' });
    expect(await sendSubscription(server.ctx, log, { subscriptionId, slot: slot(3) })).toBe('skipped');
  });
});
