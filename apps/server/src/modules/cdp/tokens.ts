import type { Kysely, Transaction } from 'kysely';
import { cdpMessages } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { DecryptError, decryptSecret, encryptSecret, resolveSecretKey } from '../../platform/crypto.ts';
import type { Database } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/http/errors.ts';
import * as client from './client.ts';

/**
 * Tokens of the open platform (docs/platforms.md "Tokens"). The component access token and each
 * authorizer's access token live encrypted in the metadata store with their expiry. A token that
 * expires within REFRESH_MARGIN_MS (or that the platform refused: 40001 / 42001) is refreshed
 * inside a transaction holding the row lock (SELECT … FOR UPDATE), so of several server processes
 * exactly one calls the platform; the others wait on the lock and then read the new token. The
 * authorizer's row is locked before its platform's (one order, no deadlock).
 */

const REFRESH_MARGIN_MS = 5 * 60_000;
const CONTEXT = 'shutu:cdp';

type Db = Kysely<Database> | Transaction<Database>;

export function sealSecret(ctx: AppContext, plain: string): string {
  return encryptSecret(resolveSecretKey(ctx.config), plain, CONTEXT);
}

export function openSecret(ctx: AppContext, stored: string): string {
  try {
    return decryptSecret(resolveSecretKey(ctx.config), stored, CONTEXT);
  } catch (error) {
    if (error instanceof DecryptError) throw new AppError(500, '平台密钥无法解密，请重新配置');
    throw error;
  }
}

const fresh = (expires: Date | null, now = Date.now()) => expires !== null && expires.getTime() - REFRESH_MARGIN_MS > now;

export interface PlatformAccess {
  apiBaseUrl: string;
  authPageUrl: string;
  componentAppId: string;
  token: string;
}

/** The platform's component access token, fetched with the last verify ticket when due. Call inside a transaction. */
async function componentAccess(ctx: AppContext, trx: Db, platformId: number): Promise<PlatformAccess> {
  const p = await trx
    .selectFrom('cdpPlatform')
    .select(['apiBaseUrl', 'authPageUrl', 'componentAppId', 'componentAppSecret', 'verifyTicket', 'componentToken', 'componentTokenExpires'])
    .where('id', '=', platformId)
    .forUpdate()
    .executeTakeFirst();
  if (!p) throw new AppError(404, cdpMessages.platformNotFound);
  const base = { apiBaseUrl: p.apiBaseUrl, authPageUrl: p.authPageUrl, componentAppId: p.componentAppId };
  if (p.componentToken && fresh(p.componentTokenExpires)) return { ...base, token: openSecret(ctx, p.componentToken) };
  if (!p.componentAppId || !p.componentAppSecret) throw new AppError(400, cdpMessages.notConfigured);
  if (!p.verifyTicket) throw new AppError(409, cdpMessages.noTicket);
  const got = await client.componentToken({ ...base, componentAppSecret: openSecret(ctx, p.componentAppSecret) }, openSecret(ctx, p.verifyTicket));
  await trx
    .updateTable('cdpPlatform')
    .set({ componentToken: sealSecret(ctx, got.component_access_token), componentTokenExpires: new Date(Date.now() + got.expires_in * 1000) })
    .where('id', '=', platformId)
    .execute();
  return { ...base, token: got.component_access_token };
}

/** The component access token in a transaction of its own (authorisation link, callback). */
export function platformAccess(ctx: AppContext, platformId: number): Promise<PlatformAccess> {
  return ctx.db.transaction().execute((trx) => componentAccess(ctx, trx, platformId));
}

export interface AppAccess {
  apiBaseUrl: string;
  token: string;
}

/**
 * The authorizer access token of a connected app, refreshed when it expires soon — or when
 * `refused` (a token the platform just answered 40001/42001 to) is still the stored one. A
 * process that waited on the lock while another refreshed finds a different token and uses it.
 */
export async function appAccess(ctx: AppContext, appId: number, refused?: string): Promise<AppAccess> {
  return ctx.db.transaction().execute(async (trx) => {
    const app = await trx
      .selectFrom('cdpApp')
      .select(['platformId', 'authorizerAppId', 'status', 'accessToken', 'accessTokenExpires', 'refreshToken'])
      .where('id', '=', appId)
      .forUpdate()
      .executeTakeFirst();
    if (!app) throw new AppError(404, cdpMessages.appNotFound);
    if (app.status !== 1 || !app.refreshToken) throw new AppError(409, cdpMessages.notAuthorised);
    const current = app.accessToken ? openSecret(ctx, app.accessToken) : null;
    if (current && current !== refused && fresh(app.accessTokenExpires)) {
      const p = await trx.selectFrom('cdpPlatform').select('apiBaseUrl').where('id', '=', app.platformId).executeTakeFirstOrThrow();
      return { apiBaseUrl: p.apiBaseUrl, token: current };
    }
    const platform = await componentAccess(ctx, trx, app.platformId);
    const got = await client.refreshAuthorizer(
      platform.apiBaseUrl,
      platform.componentAppId,
      platform.token,
      app.authorizerAppId,
      openSecret(ctx, app.refreshToken),
    );
    await trx
      .updateTable('cdpApp')
      .set({
        accessToken: sealSecret(ctx, got.authorizer_access_token),
        accessTokenExpires: new Date(Date.now() + got.expires_in * 1000),
        refreshToken: sealSecret(ctx, got.authorizer_refresh_token || openSecret(ctx, app.refreshToken)),
      })
      .where('id', '=', appId)
      .execute();
    return { apiBaseUrl: platform.apiBaseUrl, token: got.authorizer_access_token };
  });
}
