import pino from 'pino';
import { API, type PlatformType } from '@shutu/contracts';
import { runPull } from '../src/modules/cdp/pull.ts';
import { demoFans, startFakeWechat, type FakeWechat } from '../src/modules/cdp/testing/fake-wechat.ts';
import { call } from './fixtures.ts';
import { direct, refusal, unordered, type MatrixWorld, type Seen, type Shown, type Subject } from './read-matrix-fixtures.ts';

/**
 * The platform data preview of the matrix (issue 21, cdp taskData): the followers an authorised
 * WeChat account's pull wrote into the warehouse (fake-wechat.ts stands in for the platform),
 * read back through the read module. The route is the administrator's (connected platforms are
 * configured by administrators only), so every other reader is refused before any read; the
 * administrator sees the whole table, as raw reads of a table do.
 */

const P = API.cdp;
const FANS = 30;

interface Pulled {
  fake: FakeWechat;
  appId: number;
  interfaceDictId: number;
}
const pulls = new WeakMap<MatrixWorld, Promise<Pulled>>();

/** One platform, one authorised account and one pull of its followers per matrix world. */
function pulled(m: MatrixWorld): Promise<Pulled> {
  let done = pulls.get(m);
  if (!done) pulls.set(m, (done = setUp(m)));
  return done;
}

async function setUp(m: MatrixWorld): Promise<Pulled> {
  const server = m.w.server;
  const admin = m.w.admin;
  const ok = async (res: Awaited<ReturnType<typeof call>>) => {
    if (res.status !== 200) throw new Error(`${res.status} ${res.raw.body}`);
    return res.body.data;
  };
  const fake = await startFakeWechat({
    pageSize: 100,
    accounts: [{ appId: 'wx_matrix', nickName: '矩阵测试号', headImg: '', signature: '', fans: demoFans('o_m_', FANS) }],
  });
  const [wechat] = (await ok(await call(server, 'GET', P.platforms, { headers: admin }))) as PlatformType[];
  const platform = {
    ...wechat,
    apiBaseUrl: fake.baseUrl,
    authPageUrl: fake.authPageUrl,
    componentAppId: fake.componentAppId,
    componentAppSecret: fake.componentAppSecret,
    messageToken: fake.messageToken,
  };
  await ok(await call(server, 'POST', P.platform, { headers: admin, payload: platform }));
  const push = fake.ticketPush();
  const ticket = await server.app.inject({ method: 'POST', url: P.ticket.replace(':platformId', '1'), query: push.query, payload: push.body });
  if (ticket.statusCode !== 200) throw new Error(`ticket ${ticket.statusCode} ${ticket.body}`);
  const link = new URL((await ok(await call(server, 'POST', P.authUrl, { headers: admin, payload: { platformDictId: 1 } }))) as string);
  const page = await fetch(link, { redirect: 'manual' });
  const authCode = new URL(page.headers.get('location')!).searchParams.get('auth_code')!;
  const joined = (await ok(await call(server, 'POST', P.joinCallback, { headers: admin, payload: { platformDictId: 1, auth_code: authCode } }))) as {
    id: number;
  };
  const tasks = (await ok(await call(server, 'GET', P.taskList, { headers: admin, query: { applyId: joined.id, current: 1, size: 10 } }))) as {
    records: { id: number; tableName: string; interfaceDictId: number }[];
  };
  const fans = tasks.records.find((t) => t.tableName === 'wx_fans')!;
  const outcome = await runPull(server.ctx, pino({ level: 'silent' }), fans.id, 'manual');
  if (!outcome?.result) throw new Error(`pull failed: ${JSON.stringify(outcome)}`);
  return { fake, appId: joined.id, interfaceDictId: fans.interfaceDictId };
}

export async function closeCdp(m: MatrixWorld | undefined): Promise<void> {
  const done = m ? pulls.get(m) : undefined;
  if (done) await (await done).fake.close();
}

/** The subject's preview of the followers: every page's openid and nickname. */
export async function cdpTaskDataRead(m: MatrixWorld, s: Subject): Promise<Seen> {
  const { appId, interfaceDictId } = await pulled(m);
  const res = await call(m.w.server, 'GET', P.taskData, { headers: s.headers, query: { applyId: appId, interfaceDictId, current: 1, size: 100 } });
  if (res.status !== 200) return refusal(res);
  const data = res.body.data as { count: number; data: { openid: string; nickname: string }[] };
  return unordered({ titles: ['openid', 'nickname', 'count'], rows: data.data.map((r) => [r.openid, r.nickname, data.count]) });
}

/** The same followers read directly from the warehouse table. */
export async function cdpTaskDataSql(m: MatrixWorld): Promise<Shown> {
  const { appId } = await pulled(m);
  const rows = (await direct(m, `SELECT openid, nickname FROM wx_fans WHERE apply_id = ${Math.trunc(appId)}`, ['openid', 'nickname'])).rows as [
    string,
    string,
  ][];
  return unordered({ titles: ['openid', 'nickname', 'count'], rows: rows.map(([openid, nickname]) => [openid, nickname, rows.length]) });
}
