import { createHash, randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyReply } from 'fastify';

/**
 * A WeChat-open-platform-style server for tests, the e2e and the demo (docs/platforms.md "Fake
 * platform"). It listens on 127.0.0.1 and implements what the client uses: component_verify_ticket
 * (pushed to us, signed like WeChat's plain mode), component_access_token, the pre-auth code, the
 * authorisation page (approves at once and redirects with an auth_code), api_query_auth, authorizer
 * token refresh, authorizer info, user/get (paged by next_openid), user/info/batchget (at most 100),
 * datacube getusersummary / getusercumulate (at most 7 days). Errors answer like WeChat: HTTP 200
 * with { errcode, errmsg } — 40001 unknown token, 42001 expired token, 61023 bad refresh token,
 * and 45009 (or any code) when a failure is queued with failNext.
 */

export interface FakeFan {
  openid: string;
  nickname: string;
  sex: number;
  headimgurl: string;
  subscribe_time: number;
}

export interface FakeAccount {
  appId: string;
  nickName: string;
  headImg: string;
  signature: string;
  fans: FakeFan[];
}

export interface FakeWechat {
  /** API base URL (configure as the platform's apiBaseUrl). */
  baseUrl: string;
  /** Authorisation page URL (the platform's authPageUrl). */
  authPageUrl: string;
  componentAppId: string;
  componentAppSecret: string;
  messageToken: string;
  accounts: FakeAccount[];
  /** Calls per path (without the query). */
  calls: Map<string, number>;
  /** How many times the authorizer token was refreshed (api_authorizer_token). */
  refreshes: number;
  /** Answers the next `times` calls of `path` with `errcode`. */
  failNext(path: string, errcode: number, times?: number): void;
  /** Expires every authorizer access token now (the next data call answers 42001). */
  expireTokens(): void;
  /** A fresh component_verify_ticket push, signed with the message token: the query and JSON body to POST. */
  ticketPush(): { query: Record<string, string>; body: Record<string, unknown> };
  /** A signed "unauthorized" event: the account cancelled the authorisation in its back office. */
  unauthorizedPush(authorizerAppId: string): { query: Record<string, string>; body: Record<string, unknown> };
  /** POSTs a fresh ticket push to `url` (our ticket route); returns the HTTP status. */
  pushTicket(url: string): Promise<number>;
  close(): Promise<void>;
}

const ERRMSG: Record<number, string> = {
  [-1]: 'system error',
  40001: 'invalid credential, access_token is invalid or not latest',
  42001: 'access_token expired',
  45009: 'reach max api daily quota limit',
  61023: 'refresh_token is invalid',
  61501: 'date range error',
  40032: 'invalid openid list size',
  40013: 'invalid appid',
};

const token = () => randomBytes(16).toString('hex');

/** WeChat's plain-mode signature: sha1 of the sorted token, timestamp and nonce. */
export function wechatSignature(messageToken: string, timestamp: string, nonce: string): string {
  return createHash('sha1').update([messageToken, timestamp, nonce].sort().join('')).digest('hex');
}

/** A fixed count for (account, day, source) so a re-pull of a span sees the same numbers. */
function dailyCount(appId: string, day: string, salt: number): number {
  const h = createHash('md5').update(`${appId}:${day}:${salt}`).digest();
  return h[0]! % 50;
}

function dayRange(begin: string, end: string): string[] {
  const days: string[] = [];
  for (let d = new Date(`${begin}T00:00:00Z`); d <= new Date(`${end}T00:00:00Z`); d = new Date(d.getTime() + 86_400_000)) {
    days.push(d.toISOString().slice(0, 10));
  }
  return days;
}

export function demoFans(prefix: string, count: number): FakeFan[] {
  const names = ['张伟', '王芳', '李娜', '刘洋', '陈静', '杨帆', '赵磊', '黄敏', '周杰', '吴婷'];
  return Array.from({ length: count }, (_, i) => ({
    openid: `${prefix}${String(i + 1).padStart(4, '0')}`,
    nickname: `${names[i % names.length]}${i + 1}`,
    sex: (i % 3) as 0 | 1 | 2,
    headimgurl: `https://thirdwx.example.com/head/${prefix}${i + 1}.png`,
    subscribe_time: 1_700_000_000 + i * 3600,
  }));
}

export async function startFakeWechat(
  options: { accounts?: FakeAccount[]; pageSize?: number; tokenTtlSeconds?: number; port?: number; componentAppSecret?: string; messageToken?: string } = {},
): Promise<FakeWechat> {
  const pageSize = options.pageSize ?? 10_000;
  const ttl = options.tokenTtlSeconds ?? 7200;
  const componentAppId = 'wx_component_test';
  const componentAppSecret = options.componentAppSecret ?? token();
  const messageToken = options.messageToken ?? token();
  const accounts: FakeAccount[] = options.accounts ?? [
    {
      appId: 'wx_demo_account',
      nickName: '数图示例公众号',
      headImg: 'https://thirdwx.example.com/head/account.png',
      signature: '每天一条数据洞察',
      fans: demoFans('o_demo_', 25),
    },
  ];
  let ticket: string | null = null;
  const componentTokens = new Map<string, number>();
  const preAuthCodes = new Set<string>();
  const authCodes = new Map<string, string>();
  /** access token → (appId, expiry ms); refresh token → appId. */
  const accessTokens = new Map<string, { appId: string; expires: number }>();
  const refreshTokens = new Map<string, string>();
  const failures: { path: string; errcode: number; times: number }[] = [];
  const calls = new Map<string, number>();
  const app = Fastify({ logger: false });

  const fake: FakeWechat = {
    baseUrl: '',
    authPageUrl: '',
    componentAppId,
    componentAppSecret,
    messageToken,
    accounts,
    calls,
    refreshes: 0,
    failNext(path, errcode, times = 1) {
      failures.push({ path, errcode, times });
    },
    expireTokens() {
      for (const t of accessTokens.values()) t.expires = 0;
    },
    ticketPush() {
      ticket = `ticket@@@${token()}`;
      const timestamp = String(Math.floor(Date.now() / 1000));
      const nonce = token().slice(0, 10);
      return {
        query: { timestamp, nonce, signature: wechatSignature(messageToken, timestamp, nonce) },
        body: { AppId: componentAppId, CreateTime: Number(timestamp), InfoType: 'component_verify_ticket', ComponentVerifyTicket: ticket },
      };
    },
    unauthorizedPush(authorizerAppId) {
      const timestamp = String(Math.floor(Date.now() / 1000));
      const nonce = token().slice(0, 10);
      return {
        query: { timestamp, nonce, signature: wechatSignature(messageToken, timestamp, nonce) },
        body: { AppId: componentAppId, CreateTime: Number(timestamp), InfoType: 'unauthorized', AuthorizerAppid: authorizerAppId },
      };
    },
    async pushTicket(url) {
      const push = fake.ticketPush();
      const res = await fetch(`${url}?${new URLSearchParams(push.query).toString()}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(push.body),
      });
      return res.status;
    },
    close: () => app.close(),
  };

  const error = (reply: FastifyReply, errcode: number) => reply.send({ errcode, errmsg: ERRMSG[errcode] ?? 'error' });
  /** A queued failure for this path, if any (counted down). */
  const queued = (path: string): number | undefined => {
    const f = failures.find((x) => x.path === path && x.times > 0);
    if (!f) return undefined;
    f.times -= 1;
    return f.errcode;
  };
  const componentOk = (q: Record<string, string>) => (componentTokens.get(q.component_access_token ?? '') ?? 0) > Date.now();
  /** The account of a valid access token, or the error code to answer. */
  const accountOf = (q: Record<string, string>): FakeAccount | number => {
    const t = accessTokens.get(q.access_token ?? '');
    if (!t) return 40001;
    if (t.expires <= Date.now()) return 42001;
    return accounts.find((a) => a.appId === t.appId) ?? 40001;
  };
  const issue = (appId: string) => {
    const access = token();
    const refresh = token();
    accessTokens.set(access, { appId, expires: Date.now() + ttl * 1000 });
    refreshTokens.set(refresh, appId);
    return { authorizer_access_token: access, expires_in: ttl, authorizer_refresh_token: refresh };
  };

  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0]!;
    calls.set(path, (calls.get(path) ?? 0) + 1);
    const code = queued(path);
    if (code !== undefined) return error(reply, code);
  });

  app.post('/cgi-bin/component/api_component_token', async (request, reply) => {
    const b = request.body as Record<string, string>;
    if (b.component_appid !== componentAppId || b.component_appsecret !== componentAppSecret) return error(reply, 40013);
    if (!ticket || b.component_verify_ticket !== ticket) return reply.send({ errcode: 61006, errmsg: 'component ticket is invalid' });
    const t = token();
    componentTokens.set(t, Date.now() + ttl * 1000);
    return { component_access_token: t, expires_in: ttl };
  });
  app.post('/cgi-bin/component/api_create_preauthcode', async (request, reply) => {
    if (!componentOk(request.query as Record<string, string>)) return error(reply, 40001);
    const code = `preauthcode@@@${token()}`;
    preAuthCodes.add(code);
    return { pre_auth_code: code, expires_in: 1800 };
  });
  // The authorisation page: the account owner "scans and approves" at once.
  app.get('/cgi-bin/componentloginpage', async (request, reply) => {
    const q = request.query as Record<string, string>;
    if (q.component_appid !== componentAppId || !preAuthCodes.has(q.pre_auth_code ?? '') || !q.redirect_uri)
      return reply.code(400).type('text/plain').send('bad request');
    preAuthCodes.delete(q.pre_auth_code!);
    const account = accounts[Number(q.account ?? 0)] ?? accounts[0]!;
    const code = `queryauthcode@@@${token()}`;
    authCodes.set(code, account.appId);
    const sep = q.redirect_uri.includes('?') ? '&' : '?';
    return reply.redirect(`${q.redirect_uri}${sep}auth_code=${encodeURIComponent(code)}&expires_in=3600`);
  });
  app.post('/cgi-bin/component/api_query_auth', async (request, reply) => {
    if (!componentOk(request.query as Record<string, string>)) return error(reply, 40001);
    const b = request.body as Record<string, string>;
    const appId = authCodes.get(b.authorization_code ?? '');
    if (!appId) return reply.send({ errcode: 61010, errmsg: 'code is expired or invalid' });
    authCodes.delete(b.authorization_code!);
    return { authorization_info: { authorizer_appid: appId, ...issue(appId), func_info: [] } };
  });
  app.post('/cgi-bin/component/api_authorizer_token', async (request, reply) => {
    if (!componentOk(request.query as Record<string, string>)) return error(reply, 40001);
    const b = request.body as Record<string, string>;
    const appId = refreshTokens.get(b.authorizer_refresh_token ?? '');
    if (!appId || appId !== b.authorizer_appid) return error(reply, 61023);
    refreshTokens.delete(b.authorizer_refresh_token!);
    fake.refreshes += 1;
    return issue(appId);
  });
  app.post('/cgi-bin/component/api_get_authorizer_info', async (request, reply) => {
    if (!componentOk(request.query as Record<string, string>)) return error(reply, 40001);
    const b = request.body as Record<string, string>;
    const account = accounts.find((a) => a.appId === b.authorizer_appid);
    if (!account) return error(reply, 40013);
    return {
      authorizer_info: { nick_name: account.nickName, head_img: account.headImg, signature: account.signature, service_type_info: { id: 2 } },
      authorization_info: { authorizer_appid: account.appId },
    };
  });
  app.get('/cgi-bin/user/get', async (request, reply) => {
    const q = request.query as Record<string, string>;
    const account = accountOf(q);
    if (typeof account === 'number') return error(reply, account);
    const start = q.next_openid ? account.fans.findIndex((f) => f.openid === q.next_openid) + 1 : 0;
    const page = account.fans.slice(start, start + pageSize).map((f) => f.openid);
    return { total: account.fans.length, count: page.length, data: { openid: page }, next_openid: page.at(-1) ?? '' };
  });
  app.post('/cgi-bin/user/info/batchget', async (request, reply) => {
    const account = accountOf(request.query as Record<string, string>);
    if (typeof account === 'number') return error(reply, account);
    const list = ((request.body as { user_list?: { openid: string }[] }).user_list ?? []).map((u) => u.openid);
    if (list.length === 0 || list.length > 100) return error(reply, 40032);
    const byId = new Map(account.fans.map((f) => [f.openid, f]));
    const user_info_list = list.map((openid) => {
      const fan = byId.get(openid);
      return fan ? { subscribe: 1, ...fan } : { subscribe: 0, openid };
    });
    return { user_info_list };
  });
  const datacube = (kind: 'summary' | 'cumulate') => async (request: { query: unknown; body: unknown }, reply: FastifyReply) => {
    const account = accountOf(request.query as Record<string, string>);
    if (typeof account === 'number') return error(reply, account);
    const b = request.body as { begin_date?: string; end_date?: string };
    const days = b.begin_date && b.end_date ? dayRange(b.begin_date, b.end_date) : [];
    if (days.length === 0 || days.length > 7) return error(reply, 61501);
    if (kind === 'cumulate') return { list: days.map((d) => ({ ref_date: d, cumulate_user: 1000 + dailyCount(account.appId, d, 9) * 10 })) };
    return {
      list: days.flatMap((d) =>
        [0, 30].map((source) => ({
          ref_date: d,
          user_source: source,
          new_user: dailyCount(account.appId, d, source),
          cancel_user: dailyCount(account.appId, d, source + 1) % 7,
        })),
      ),
    };
  };
  app.post('/datacube/getusersummary', datacube('summary'));
  app.post('/datacube/getusercumulate', datacube('cumulate'));

  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  fake.baseUrl = `http://127.0.0.1:${port}`;
  fake.authPageUrl = `${fake.baseUrl}/cgi-bin/componentloginpage`;
  return fake;
}

/**
 * The demo (docs/platforms.md "Demo"): `npx tsx apps/server/src/modules/cdp/testing/fake-wechat.ts`
 * starts the fake on FAKE_WECHAT_PORT (default 9321) with fixed secrets, prints what to enter on
 * 平台类型, and pushes a ticket to SHUTU_URL (default http://127.0.0.1:8080) at once and every 10 minutes.
 */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const target = `${process.env.SHUTU_URL ?? 'http://127.0.0.1:8080'}/api/cdp/ticket/${process.env.PLATFORM_ID ?? '1'}`;
  const fake = await startFakeWechat({
    port: Number(process.env.FAKE_WECHAT_PORT ?? 9321),
    pageSize: 100,
    componentAppSecret: 'demo-secret',
    messageToken: 'demo-token',
  });
  console.log(
    [
      `平台接口地址      ${fake.baseUrl}`,
      `授权页地址        ${fake.authPageUrl}`,
      `第三方平台 AppID  ${fake.componentAppId}`,
      `AppSecret         ${fake.componentAppSecret}`,
      `消息校验 Token    ${fake.messageToken}`,
      `ticket → ${target}`,
    ].join('\n'),
  );
  const push = () =>
    fake.pushTicket(target).then(
      (status) => console.log(`ticket pushed: HTTP ${status}`),
      (error: unknown) => console.log(`ticket push failed: ${String(error)}`),
    );
  void push();
  setInterval(() => void push(), 10 * 60_000);
}
