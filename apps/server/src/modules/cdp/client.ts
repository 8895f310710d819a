import { PLATFORM_ERRORS } from '@shutu/contracts';

/**
 * The WeChat-open-platform HTTP client (docs/platforms.md "Client"): one function per endpoint,
 * every URL under the platform type's configurable apiBaseUrl. WeChat answers errors as HTTP 200
 * with { errcode, errmsg }; those become PlatformErrors, network failures and 5xx transient ones.
 */

const TIMEOUT_MS = 15_000;

export class PlatformError extends Error {
  override name = 'PlatformError';
  constructor(
    readonly errcode: number,
    message: string,
    /** Worth retrying after a pause (network failure, 5xx, -1 system busy). */
    readonly transient = false,
  ) {
    super(message);
  }
}

/** The log's failReason of an error (Chinese, with the platform's code). */
export function reasonOf(error: unknown): string {
  if (error instanceof PlatformError) return PLATFORM_ERRORS[error.errcode] ?? error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** 40001 / 42001: the access token is unknown or expired — refresh it once and call again. */
export const isTokenError = (error: unknown) => error instanceof PlatformError && (error.errcode === 40001 || error.errcode === 42001);

async function call<T>(base: string, path: string, query: Record<string, string>, body?: unknown): Promise<T> {
  const url = new URL(path.replace(/^\//, ''), base.endsWith('/') ? base : `${base}/`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  let res: Response;
  try {
    res = await fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new PlatformError(-2, `无法连接平台接口：${(error as Error).message}`, true);
  }
  if (res.status >= 500) throw new PlatformError(-3, `平台接口暂不可用（HTTP ${res.status}）`, true);
  if (!res.ok) throw new PlatformError(-4, `平台接口拒绝请求（HTTP ${res.status}）`);
  let json: Record<string, unknown>;
  try {
    json = (await res.json()) as Record<string, unknown>;
  } catch {
    throw new PlatformError(-5, '平台接口返回的不是 JSON', true);
  }
  const errcode = Number(json.errcode ?? 0);
  if (errcode !== 0) throw new PlatformError(errcode, `平台返回错误 ${errcode}：${String(json.errmsg ?? '')}`, errcode === -1);
  return json as T;
}

export interface ComponentCredentials {
  apiBaseUrl: string;
  componentAppId: string;
  componentAppSecret: string;
}

export interface AuthorizerTokens {
  authorizer_access_token: string;
  expires_in: number;
  authorizer_refresh_token: string;
}

export const componentToken = (c: ComponentCredentials, ticket: string) =>
  call<{ component_access_token: string; expires_in: number }>(
    c.apiBaseUrl,
    '/cgi-bin/component/api_component_token',
    {},
    {
      component_appid: c.componentAppId,
      component_appsecret: c.componentAppSecret,
      component_verify_ticket: ticket,
    },
  );

export const preAuthCode = (base: string, appId: string, token: string) =>
  call<{ pre_auth_code: string; expires_in: number }>(
    base,
    '/cgi-bin/component/api_create_preauthcode',
    { component_access_token: token },
    { component_appid: appId },
  );

export const queryAuth = (base: string, appId: string, token: string, authCode: string) =>
  call<{ authorization_info: AuthorizerTokens & { authorizer_appid: string } }>(
    base,
    '/cgi-bin/component/api_query_auth',
    { component_access_token: token },
    {
      component_appid: appId,
      authorization_code: authCode,
    },
  );

export const refreshAuthorizer = (base: string, appId: string, token: string, authorizerAppId: string, refreshToken: string) =>
  call<AuthorizerTokens>(
    base,
    '/cgi-bin/component/api_authorizer_token',
    { component_access_token: token },
    {
      component_appid: appId,
      authorizer_appid: authorizerAppId,
      authorizer_refresh_token: refreshToken,
    },
  );

export const authorizerInfo = (base: string, appId: string, token: string, authorizerAppId: string) =>
  call<{ authorizer_info: { nick_name?: string; head_img?: string; signature?: string } }>(
    base,
    '/cgi-bin/component/api_get_authorizer_info',
    { component_access_token: token },
    {
      component_appid: appId,
      authorizer_appid: authorizerAppId,
    },
  );

export const followers = (base: string, token: string, nextOpenid: string) =>
  call<{ total: number; count: number; data?: { openid: string[] }; next_openid: string }>(base, '/cgi-bin/user/get', {
    access_token: token,
    next_openid: nextOpenid,
  });

export interface WechatUser {
  subscribe: number;
  openid: string;
  nickname?: string;
  sex?: number;
  headimgurl?: string;
  subscribe_time?: number;
}

export const usersInfo = (base: string, token: string, openids: string[]) =>
  call<{ user_info_list: WechatUser[] }>(
    base,
    '/cgi-bin/user/info/batchget',
    { access_token: token },
    { user_list: openids.map((openid) => ({ openid, lang: 'zh_CN' })) },
  );

export interface SummaryRow {
  ref_date: string;
  user_source?: number;
  new_user?: number;
  cancel_user?: number;
  cumulate_user?: number;
}

export const datacube = (base: string, token: string, kind: 'user_summary' | 'user_cumulate', begin: string, end: string) =>
  call<{ list: SummaryRow[] }>(
    base,
    kind === 'user_summary' ? '/datacube/getusersummary' : '/datacube/getusercumulate',
    { access_token: token },
    { begin_date: begin, end_date: end },
  );

/** The authorisation page link the user is sent to (componentloginpage). */
export function authPageLink(authPageUrl: string, componentAppId: string, preAuth: string, redirectUri: string): string {
  const url = new URL(authPageUrl);
  url.searchParams.set('component_appid', componentAppId);
  url.searchParams.set('pre_auth_code', preAuth);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('auth_type', '1');
  return url.toString();
}
