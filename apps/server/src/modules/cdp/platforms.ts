import { createHash, timingSafeEqual } from 'node:crypto';
import { cdpMessages, type PlatformType, type PlatformTypeInput, platformTypeInputSchema } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { AppError, conflict, forbidden, isUniqueViolation, notFound } from '../../platform/http/errors.ts';
import { getDataSource } from '../datasource/index.ts';
import { openSecret, sealSecret } from './tokens.ts';

/**
 * Platform types and their interfaces (administrators; docs/platforms.md "Platform types"). The
 * app secret and message token are stored encrypted and shown to the browser only as "set" flags;
 * an empty secret on save keeps the stored one.
 */

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export async function listPlatforms(ctx: AppContext): Promise<PlatformType[]> {
  const rows = await ctx.db.selectFrom('cdpPlatform').selectAll().orderBy('id').execute();
  const interfaces = await ctx.db.selectFrom('cdpInterface').selectAll().orderBy('id').execute();
  return rows.map((p) => ({
    id: p.id,
    platformName: p.platformName,
    platformType: p.platformType,
    accessType: p.accessType,
    accessUrl: p.accessUrl,
    icon: p.icon,
    apiBaseUrl: p.apiBaseUrl,
    authPageUrl: p.authPageUrl,
    componentAppId: p.componentAppId,
    hasAppSecret: p.componentAppSecret !== '',
    hasMessageToken: p.messageToken !== '',
    ticketTime: iso(p.ticketTime),
    datasourceId: p.datasourceId,
    interfaces: interfaces
      .filter((i) => i.platformId === p.id)
      .map((i) => ({ id: i.id, interfaceName: i.interfaceName, dataType: i.dataType, kind: i.kind, tableName: i.tableName })),
  }));
}

export async function getPlatform(ctx: AppContext, id: number): Promise<PlatformType> {
  const found = (await listPlatforms(ctx)).find((p) => p.id === id);
  if (!found) throw notFound(cdpMessages.platformNotFound);
  return found;
}

export async function savePlatform(ctx: AppContext, raw: PlatformTypeInput): Promise<PlatformType> {
  const input = platformTypeInputSchema.parse(raw);
  if (input.datasourceId) await getDataSource(ctx, input.datasourceId);
  const kinds = new Set(input.interfaces.map((i) => i.kind));
  if (kinds.size !== input.interfaces.length) throw new AppError(400, '同一平台的接口类型不能重复');
  const values = {
    platformName: input.platformName,
    platformType: input.platformType,
    accessType: input.accessType,
    accessUrl: input.accessUrl,
    icon: input.icon,
    apiBaseUrl: input.apiBaseUrl,
    authPageUrl: input.authPageUrl,
    componentAppId: input.componentAppId,
    datasourceId: input.datasourceId,
    ...(input.componentAppSecret ? { componentAppSecret: sealSecret(ctx, input.componentAppSecret) } : {}),
    ...(input.messageToken ? { messageToken: sealSecret(ctx, input.messageToken) } : {}),
  };
  let id: number;
  try {
    id = await ctx.db.transaction().execute(async (trx) => {
      let platformId = input.id;
      if (platformId) {
        const before = await trx.selectFrom('cdpPlatform').select(['componentAppId', 'apiBaseUrl']).where('id', '=', platformId).forUpdate().executeTakeFirst();
        if (!before) throw notFound(cdpMessages.platformNotFound);
        // Another component app or endpoint: the cached component token is not theirs.
        const reset = before.componentAppId !== input.componentAppId || before.apiBaseUrl !== input.apiBaseUrl || input.componentAppSecret;
        await trx
          .updateTable('cdpPlatform')
          .set({ ...values, ...(reset ? { componentToken: null, componentTokenExpires: null } : {}) })
          .where('id', '=', platformId)
          .execute();
      } else {
        platformId = (await trx.insertInto('cdpPlatform').values(values).returning('id').executeTakeFirstOrThrow()).id;
      }
      const keep = input.interfaces.filter((i) => i.id).map((i) => i.id!);
      let removed = trx.deleteFrom('cdpInterface').where('platformId', '=', platformId);
      if (keep.length) removed = removed.where('id', 'not in', keep);
      await removed.execute();
      for (const i of input.interfaces) {
        const row = { interfaceName: i.interfaceName, dataType: i.dataType, kind: i.kind, tableName: i.tableName };
        if (i.id) await trx.updateTable('cdpInterface').set(row).where('id', '=', i.id).where('platformId', '=', platformId).execute();
        else
          await trx
            .insertInto('cdpInterface')
            .values({ ...row, platformId })
            .execute();
      }
      return platformId;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(cdpMessages.platformNameTaken);
    throw error;
  }
  await ensureTasks(ctx);
  return getPlatform(ctx, id);
}

export async function deletePlatform(ctx: AppContext, id: number): Promise<void> {
  const used = await ctx.db.selectFrom('cdpApp').select('id').where('platformId', '=', id).executeTakeFirst();
  if (used) throw conflict(cdpMessages.platformInUse);
  const gone = await ctx.db.deleteFrom('cdpPlatform').where('id', '=', id).executeTakeFirst();
  if (!gone.numDeletedRows) throw notFound(cdpMessages.platformNotFound);
}

/** One data task per (app, interface of its platform): a new interface gets tasks for existing apps. */
export async function ensureTasks(ctx: AppContext, appId?: number): Promise<void> {
  let pairs = ctx.db
    .selectFrom('cdpApp')
    .innerJoin('cdpInterface', 'cdpInterface.platformId', 'cdpApp.platformId')
    .select(['cdpApp.id as applyId', 'cdpInterface.id as interfaceId']);
  if (appId) pairs = pairs.where('cdpApp.id', '=', appId);
  const rows = await pairs.execute();
  if (rows.length === 0) return;
  await ctx.db
    .insertInto('cdpTask')
    .values(rows.map((r) => ({ applyId: r.applyId, interfaceId: r.interfaceId, jobId: crypto.randomUUID() })))
    .onConflict((oc) => oc.columns(['applyId', 'interfaceId']).doNothing())
    .execute();
}

const sha1 = (s: string) => createHash('sha1').update(s).digest();

/**
 * An authorisation event pushed by the platform, checked with the plain-mode signature
 * sha1(sort(token, timestamp, nonce)) and a 10-minute clock window: component_verify_ticket
 * (every 10 minutes) is stored; unauthorized (the account cancelled in its back office) marks the
 * app released with its cancel time — pulls stop, the pulled data stays.
 */
export async function receiveTicket(
  ctx: AppContext,
  platformId: number,
  q: { timestamp: string; nonce: string; signature: string },
  body: { AppId?: string | undefined; InfoType?: string | undefined; ComponentVerifyTicket?: string | undefined; AuthorizerAppid?: string | undefined },
): Promise<void> {
  const p = await ctx.db.selectFrom('cdpPlatform').select(['messageToken', 'componentAppId']).where('id', '=', platformId).executeTakeFirst();
  if (!p || !p.messageToken) throw forbidden(cdpMessages.ticketRejected);
  const expected = sha1([openSecret(ctx, p.messageToken), q.timestamp, q.nonce].sort().join(''));
  const given = Buffer.from(q.signature, 'hex');
  const skew = Math.abs(Date.now() / 1000 - Number(q.timestamp));
  if (given.length !== expected.length || !timingSafeEqual(given, expected) || !(skew < 600)) throw forbidden(cdpMessages.ticketRejected);
  if (p.componentAppId && body.AppId !== p.componentAppId) throw new AppError(400, cdpMessages.ticketRejected);
  if (body.InfoType === 'unauthorized' && body.AuthorizerAppid) {
    await ctx.db
      .updateTable('cdpApp')
      .set({ status: 0, cancelAuthTime: new Date(), accessToken: null, accessTokenExpires: null, refreshToken: null })
      .where('platformId', '=', platformId)
      .where('authorizerAppId', '=', body.AuthorizerAppid)
      .execute();
    return;
  }
  if (!body.ComponentVerifyTicket) throw new AppError(400, cdpMessages.ticketRejected);
  await ctx.db
    .updateTable('cdpPlatform')
    .set({ verifyTicket: sealSecret(ctx, body.ComponentVerifyTicket), ticketTime: new Date() })
    .where('id', '=', platformId)
    .execute();
}
