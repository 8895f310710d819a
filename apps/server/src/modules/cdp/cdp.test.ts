import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, encodeBase64Json, type PlatformType } from '@shutu/contracts';
import { call } from '../../../test/fixtures.ts';
import { datasetWorld, fieldIds, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';
import { openStore } from '../../platform/db/store.ts';
import { storeKinds } from '../../../test/harness.ts';
import { runPull, pullRetry } from './pull.ts';
import { runPullTick } from './jobs.ts';
import { appAccess } from './tokens.ts';
import { demoFans, startFakeWechat, type FakeWechat } from './testing/fake-wechat.ts';

const P = API.cdp;
const log = pino({ level: 'silent' });
const kinds = await storeKinds();
pullRetry.baseMs = 10;

describe.each(kinds)('connected platforms on %s', (kind) => {
  let w: DatasetWorld;
  let admin: Headers;
  let fake: FakeWechat;
  let appId: number;
  const tasks: Record<string, { id: number; jobId: string; interfaceDictId: number }> = {};

  beforeAll(async () => {
    fake = await startFakeWechat({
      pageSize: 100,
      accounts: [{ appId: 'wx_acc_1', nickName: '数图测试号', headImg: 'https://img.example.com/a.png', signature: '测试签名', fans: demoFans('o_t_', 250) }],
    });
    w = await datasetWorld(kind);
    admin = w.admin;
  }, 120_000);
  afterAll(async () => {
    await w?.close();
    await fake?.close();
  });

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, query?: Record<string, string | number>) =>
    call(w.server, method, url, { headers: admin, ...(payload !== undefined ? { payload } : {}), ...(query ? { query } : {}) });
  const taskPull = (kindName: string) => runPull(w.server.ctx, log, tasks[kindName]!.id, 'manual');

  it('configures the platform type with its secrets kept out of every answer', async () => {
    const [wechat] = (await api('GET', P.platforms)).body.data as PlatformType[];
    expect(wechat!.platformName).toBe('微信公众号');
    const saved = await api('POST', P.platform, {
      ...wechat,
      apiBaseUrl: fake.baseUrl,
      authPageUrl: fake.authPageUrl,
      componentAppId: fake.componentAppId,
      componentAppSecret: fake.componentAppSecret,
      messageToken: fake.messageToken,
    });
    expect(saved.status, saved.raw.body).toBe(200);
    expect(saved.body.data).toMatchObject({ hasAppSecret: true, hasMessageToken: true, apiBaseUrl: fake.baseUrl });
    const listed = await api('GET', P.platforms);
    expect(listed.raw.body).not.toContain(fake.componentAppSecret);
    expect(listed.raw.body).not.toContain(fake.messageToken);
    // An empty secret on save keeps the stored one.
    const again = await api('POST', P.platform, { ...saved.body.data, componentAppSecret: '' });
    expect(again.body.data.hasAppSecret).toBe(true);
    const bad = await api('POST', P.platform, { ...saved.body.data, apiBaseUrl: 'ftp://x' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('请输入正确的平台接口地址（http:// 或 https://）');
    // The browser posts to the access URL with its token: never another host.
    const away = await api('POST', P.platform, { ...saved.body.data, accessUrl: 'https://evil.example.com/steal' });
    expect(away.status).toBe(400);
    expect(away.body.msg).toBe('接入地址须为本系统的 /api/ 路径');
  });

  it('refuses an authorisation link before the ticket, and a ticket with a wrong signature', async () => {
    const early = await api('POST', P.authUrl, { platformDictId: 1 });
    expect(early.status).toBe(409);
    expect(early.body.msg).toBe('尚未收到平台推送的 component_verify_ticket，请稍后再试');
    const push = fake.ticketPush();
    const forged = await w.server.app.inject({
      method: 'POST',
      url: P.ticket.replace(':platformId', '1'),
      query: { ...push.query, signature: 'a'.repeat(40) },
      payload: push.body,
    });
    expect(forged.statusCode).toBe(403);
    const real = await w.server.app.inject({ method: 'POST', url: P.ticket.replace(':platformId', '1'), query: push.query, payload: push.body });
    expect(real.statusCode).toBe(200);
    expect(real.body).toBe('success');
  });

  it('authorises an account: link → platform page → callback with auth_code → join record and tasks', async () => {
    const link = await api('POST', P.authUrl, { platformDictId: 1 });
    expect(link.status, link.raw.body).toBe(200);
    const url = new URL(link.body.data as string);
    expect(url.origin + url.pathname).toBe(fake.authPageUrl);
    expect(url.searchParams.get('redirect_uri')).toMatch(/\/cdp\/join\/callback$/);
    const page = await fetch(url, { redirect: 'manual' });
    expect(page.status).toBe(302);
    const authCode = new URL(page.headers.get('location')!).searchParams.get('auth_code')!;
    const missing = await api('POST', P.joinCallback, { platformDictId: 1 });
    expect(missing.status).toBe(400);
    const joined = await api('POST', P.joinCallback, { platformDictId: 1, auth_code: authCode });
    expect(joined.status, joined.raw.body).toBe(200);
    appId = joined.body.data.id;
    // The auth code is spent: a replay is refused with the platform's reason.
    expect((await api('POST', P.joinCallback, { platformDictId: 1, auth_code: authCode })).status).toBe(502);

    const list = await api('GET', P.joinPage, undefined, { current: 1, size: 10, appName: '测试' });
    expect(list.body.data.total).toBe(1);
    expect(list.body.data.records[0]).toMatchObject({ id: appId, appName: '数图测试号', status: 1, joinType: '扫码授权', cancelAuthTime: null });
    expect((await api('GET', P.joinPage, undefined, { appName: '没有' })).body.data.total).toBe(0);
    const info = await api('GET', P.joinInfo, undefined, { id: appId });
    expect(info.body.data).toMatchObject({ appIcon: 'https://img.example.com/a.png', signature: '测试签名', platformName: '微信公众号' });
    expect(JSON.stringify(info.body)).not.toMatch(/token/i);
    const taskList = await api('GET', P.taskList, undefined, { applyId: appId, current: 1, size: 10 });
    expect(taskList.body.data.records.map((t: { interfaceName: string }) => t.interfaceName)).toEqual(['粉丝列表', '用户增减数据', '累计用户数据']);
    for (const t of taskList.body.data.records) tasks[t.tableName] = t;
  });

  it('pulls followers paged by next_openid and batchget by 100 into the warehouse, previewed through the read module', async () => {
    const before = { get: fake.calls.get('/cgi-bin/user/get') ?? 0, batch: fake.calls.get('/cgi-bin/user/info/batchget') ?? 0 };
    const outcome = await taskPull('wx_fans');
    expect(outcome).toMatchObject({ result: true, amount: 250 });
    expect((fake.calls.get('/cgi-bin/user/get') ?? 0) - before.get).toBe(3);
    expect((fake.calls.get('/cgi-bin/user/info/batchget') ?? 0) - before.batch).toBe(3);
    const data = await api('GET', P.taskData, undefined, { applyId: appId, interfaceDictId: tasks.wx_fans!.interfaceDictId, current: 2, size: 20 });
    expect(data.status, data.raw.body).toBe(200);
    expect(data.body.data.count).toBe(250);
    expect(data.body.data.data).toHaveLength(20);
    expect(data.body.data.data[0]).toMatchObject({ openid: 'o_t_0021', nickname: demoFans('o_t_', 21)[20]!.nickname });
    expect(data.body.data.column.map((c: { label: string }) => c.label)).toContain('昵称');
  });

  it('keeps a local fan edit across the next pull, the platform value visible beside it', async () => {
    const fans = await api('GET', P.fans, undefined, { page: 1, size: 30 });
    expect(fans.body.data.total).toBe(250);
    expect(fans.body.data.records).toHaveLength(30);
    const first = fans.body.data.records[0];
    const saved = await api('PUT', P.fan, { applyId: appId, openid: first.openid, nickname: '本地备注名', sex: first.sex, headimgurl: first.headimgurl });
    expect(saved.body.data).toMatchObject({ nickname: '本地备注名', edited: true, platform: { nickname: first.nickname } });
    fake.accounts[0]!.fans[0]!.nickname = '平台新昵称';
    fake.accounts[0]!.fans.pop(); // one unfollows
    expect(await taskPull('wx_fans')).toMatchObject({ result: true, amount: 249 });
    const after = (await api('GET', P.fans, undefined, { page: 1, size: 10 })).body.data;
    expect(after.total).toBe(249);
    expect(after.records[0]).toMatchObject({ nickname: '本地备注名', platform: { nickname: '平台新昵称' }, edited: true });
    const preview = await api('GET', P.taskData, undefined, { applyId: appId, interfaceDictId: tasks.wx_fans!.interfaceDictId, current: 1, size: 1 });
    expect(preview.body.data.data[0]).toMatchObject({ nickname: '本地备注名', platform_nickname: '平台新昵称' });
  });

  it('pulls daily analytics in spans of at most 7 days; a pull repeated over the same span adds no rows', async () => {
    const before = fake.calls.get('/datacube/getusersummary') ?? 0;
    const first = await taskPull('wx_user_summary');
    expect(first).toMatchObject({ result: true, amount: 60 }); // 30 days × 2 sources
    expect((fake.calls.get('/datacube/getusersummary') ?? 0) - before).toBe(5); // 7+7+7+7+2
    const rows = async () =>
      (await api('GET', P.taskData, undefined, { applyId: appId, interfaceDictId: tasks.wx_user_summary!.interfaceDictId, current: 1, size: 100 })).body.data;
    const once = await rows();
    expect(once.count).toBe(60);
    // The next pull starts from the newest stored day (re-pulled, upserted).
    expect(await taskPull('wx_user_summary')).toMatchObject({ result: true, amount: 2 });
    const twice = await rows();
    expect(twice.count).toBe(60);
    expect(twice.data).toEqual(once.data);
    const stored = await w.server.ctx.db
      .selectFrom('cdpStat')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('applyId', '=', appId)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(60);
  });

  it('makes the pulled table usable as a dataset source', async () => {
    const workspaceId = await w.category();
    const saved = await w.save(admin, {
      payload: encodeBase64Json({
        cubeData: { cubeName: '公众号粉丝', workspaceId, cubeTableNames: [{ tableName: 'wx_fans', tableAliasName: 'f' }], publicStatus: 1 },
        datasourceId: w.warehouseId,
        columnList: [
          { id: 'sex', columnName: 'sex', columnTitle: '性别', tableAliasName: 'f', columnAttr: 'NORMAL' },
          {
            id: 'openid',
            columnName: 'openid',
            columnTitle: '粉丝',
            tableAliasName: 'f',
            columnAttr: 'NORMAL',
            dimensionType: 'ZHIBIAO',
            viewDataType: 'NUMBER',
          },
        ],
      }),
    });
    expect(saved.status, saved.raw.body).toBe(200);
    const cubeId = saved.body.data as number;
    const ids = await fieldIds(w.server, admin, cubeId);
    const res = await w.preview(admin, cubeId, { dimensions: [{ fieldId: ids['性别'] }], measures: [{ fieldId: ids['粉丝'], aggregation: 'COUNT' }] });
    expect(res.status, res.raw.body).toBe(200);
    const total = (res.body.data.dataList as { m0: number }[]).reduce((s, r) => s + Number(r.m0), 0);
    expect(total).toBe(249);
  });

  it('refreshes an expired token once and logs a failed pull (45009) with its reason', async () => {
    fake.expireTokens();
    const refreshes = fake.refreshes;
    expect(await taskPull('wx_user_cumulate')).toMatchObject({ result: true });
    expect(fake.refreshes - refreshes).toBe(1);
    // -1 (system busy) is transient: retried with backoff, twice is survived, three times is not.
    fake.failNext('/cgi-bin/user/get', -1, 2);
    expect(await taskPull('wx_fans')).toMatchObject({ result: true, amount: 249 });
    fake.failNext('/cgi-bin/user/get', -1, 3);
    expect(await taskPull('wx_fans')).toMatchObject({ result: false, failReason: '平台返回错误 -1：system error' });
    fake.failNext('/cgi-bin/user/get', 45009);
    expect(await taskPull('wx_fans')).toMatchObject({ result: false, failReason: '接口调用超过每日限额（45009）' });
    const logs = await api('GET', P.logList, undefined, { applyId: appId, current: 1, size: 10 });
    expect(logs.body.data.records[0]).toMatchObject({
      appName: '数图测试号',
      interfaceName: '粉丝列表',
      result: false,
      failReason: '接口调用超过每日限额（45009）',
      amount: 0,
    });
    const onlyFans = await api('GET', P.logList, undefined, { applyId: appId, taskId: tasks.wx_fans!.id, current: 1, size: 50 });
    expect(onlyFans.body.data.records.every((r: { interfaceName: string }) => r.interfaceName === '粉丝列表')).toBe(true);
    expect(onlyFans.body.data.total).toBe(5);
    const future = await api('GET', P.logList, undefined, { applyId: appId, startDate: new Date(Date.now() + 3_600_000).toISOString(), current: 1, size: 10 });
    expect(future.body.data.total).toBe(0);
    // Data still there after the failed pull.
    expect((await api('GET', P.fans, undefined, { page: 1, size: 1 })).body.data.total).toBe(249);
  });

  it('validates the request cycle and offers manual pull only with the task service', async () => {
    const short = await api('POST', P.taskUpdate, { id: tasks.wx_fans!.id, unit: 'second', value: 30 });
    expect(short.status).toBe(400);
    expect(short.body.msg).toBe('请求周期不能少于 60 秒');
    const set = await api('POST', P.taskUpdate, { id: tasks.wx_fans!.id, unit: 'hour', value: 2 });
    expect(set.body.data).toMatchObject({ unit: 'hour', value: 2 });
    expect((await api('POST', P.taskRefresh, { jobId: tasks.wx_fans!.jobId })).status).toBe(503);
  });

  // Two processes need a real PostgreSQL (the embedded store is one process): defined there only, not skipped.
  if (kind === 'postgres')
    it('refreshes an expiring token exactly once across two processes', async () => {
      const other = await openStore({ databaseUrl: w.server.store.connectionString! });
      try {
        const ctx2 = { ...w.server.ctx, store: other, db: other.db };
        await w.server.ctx.db
          .updateTable('cdpApp')
          .set({ accessTokenExpires: new Date(Date.now() - 1000) })
          .where('id', '=', appId)
          .execute();
        const refreshes = fake.refreshes;
        const [a, b, c] = await Promise.all([appAccess(w.server.ctx, appId), appAccess(ctx2, appId), appAccess(ctx2, appId)]);
        expect(fake.refreshes - refreshes).toBe(1);
        expect(b.token).toBe(a.token);
        expect(c.token).toBe(a.token);
      } finally {
        await other.close();
      }
    });

  it('sends one pull per due slot of a task, however many processes tick', async () => {
    const sent: { name: string; data: object }[] = [];
    const queue = { send: async (name: string, data?: object) => (sent.push({ name, data: data ?? {} }), 'job') };
    const other = kind === 'postgres' ? await openStore({ databaseUrl: w.server.store.connectionString! }) : w.server.store;
    try {
      const ctx1 = { ...w.server.ctx, jobs: queue };
      const ctx2 = { ...w.server.ctx, store: other, db: other.db, jobs: queue };
      const now = new Date('2026-11-26T09:30:00Z');
      // The fans task runs every 2 hours (set above); the others have no cycle.
      const counts = await Promise.all([runPullTick(ctx1, log, now), runPullTick(ctx2, log, now), runPullTick(ctx1, log, now)]);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
      expect(sent).toEqual([{ name: 'cdp-pull', data: { taskId: tasks.wx_fans!.id, trigger: 'schedule' } }]);
      expect(await runPullTick(ctx1, log, new Date('2026-11-26T09:59:00Z'))).toBe(0); // same slot
      expect(await runPullTick(ctx2, log, new Date('2026-11-26T10:00:00Z'))).toBe(1); // next slot
    } finally {
      if (other !== w.server.store) await other.close();
    }
  });

  it('marks the app released when the platform reports the authorisation cancelled, and stops its pulls', async () => {
    const push = fake.unauthorizedPush('wx_acc_1');
    const res = await w.server.app.inject({ method: 'POST', url: P.ticket.replace(':platformId', '1'), query: push.query, payload: push.body });
    expect(res.statusCode).toBe(200);
    const row = (await api('GET', P.joinPage, undefined, { current: 1, size: 10 })).body.data.records[0];
    expect(row).toMatchObject({ status: 0 });
    expect(row.cancelAuthTime).not.toBeNull();
    const refused = await api('POST', P.taskRefresh, { jobId: tasks.wx_fans!.jobId });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe('应用未授权或已解除授权，请重新授权');
    expect(await taskPull('wx_fans')).toMatchObject({ result: false, failReason: '应用未授权或已解除授权，请重新授权' });
    expect(await runPullTick({ ...w.server.ctx, jobs: { send: async () => 'x' } }, log, new Date('2026-11-27T00:00:00Z'))).toBe(0);
  });
});
