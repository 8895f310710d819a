import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { DATA_API_SIGNATURE_WINDOW_MS, dataApiMessages, shareMessages, zhCN, type DataApiAccessKey } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { bearerToken } from '../../platform/auth/access.ts';
import { findSession, type Session } from '../../platform/auth/session.ts';
import { decryptSecret, encryptSecret, resolveSecretKey } from '../../platform/crypto.ts';
import { AppError, forbidden, notFound, unauthorized } from '../../platform/http/errors.ts';
import {
  claimNonce,
  deleteKey,
  existingApiIds,
  findKey,
  findKeyByAccessKeyMemo,
  findKeyBySecretHashMemo,
  insertKey,
  listKeys,
  pruneNonces,
  updateKey,
  type KeyRow,
} from './runtime-repo.ts';

/**
 * Access keys (docs/dataapi.md "Calling a published API"). An administrator makes a key and
 * scopes it to chosen APIs; the answer carries the secret once. The store keeps sha256 of the
 * secret (a bearer call is looked up by it) and the secret encrypted with the server's
 * credentials key (platform/crypto.ts), which a signature check needs: an HMAC needs the key on
 * both sides, and a dump of the database alone yields neither.
 *
 * A call proves itself by one of:
 * - `Authorization: Bearer <secret>` (secrets start with sk_);
 * - a signature: headers X-Access-Key, X-Timestamp (milliseconds since the epoch), X-Nonce and
 *   X-Signature = hex HMAC-SHA256(secret, accessKey + "\n" + timestamp + "\n" + nonce). The
 *   timestamp must be within 5 minutes of the server's clock and the nonce unused: nonces are
 *   claimed in the metadata store, so a replay is refused by every process sharing it;
 * - `Authorization: Bearer <user token>`: a signed-in user (share-link tokens are refused).
 */

const SECRET_CONTEXT = 'shutu:data_api_key.secret';
const SECRET_PREFIX = 'sk_';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export const signingString = (accessKey: string, timestamp: string, nonce: string) => `${accessKey}\n${timestamp}\n${nonce}`;

/** The signature a client sends (also used by tests and the docs' example). */
export const sign = (secret: string, accessKey: string, timestamp: string, nonce: string) =>
  createHmac('sha256', secret)
    .update(signingString(accessKey, timestamp, nonce))
    .digest('hex');

export const keys = (ctx: AppContext): Promise<DataApiAccessKey[]> => listKeys(ctx.db);

export async function createKey(
  ctx: AppContext,
  adminId: number,
  body: { keyName: string; apiIds: number[]; rateLimit: number; enabled: boolean },
): Promise<DataApiAccessKey & { secret: string }> {
  const secret = `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
  const accessKey = `ak_${randomBytes(12).toString('hex')}`;
  const id = await insertKey(
    ctx.db,
    {
      keyName: body.keyName,
      accessKey,
      secretHash: sha256(secret),
      secretEnc: encryptSecret(resolveSecretKey(ctx.config), secret, SECRET_CONTEXT),
      enabled: body.enabled,
      rateLimit: body.rateLimit,
      createUserId: adminId,
    },
    await existingApiIds(ctx.db, [...new Set(body.apiIds)]),
  );
  return { ...(await findKey(ctx.db, id))!, secret };
}

export async function changeKey(
  ctx: AppContext,
  id: number,
  body: { keyName?: string | undefined; apiIds?: number[] | undefined; rateLimit?: number | undefined; enabled?: boolean | undefined },
): Promise<DataApiAccessKey> {
  const apiIds = body.apiIds ? await existingApiIds(ctx.db, [...new Set(body.apiIds)]) : undefined;
  if (!(await updateKey(ctx.db, id, { keyName: body.keyName, enabled: body.enabled, rateLimit: body.rateLimit }, apiIds))) {
    throw notFound(dataApiMessages.keyNotFound);
  }
  return (await findKey(ctx.db, id))!;
}

export async function removeKey(ctx: AppContext, id: number): Promise<void> {
  if (!(await deleteKey(ctx.db, id))) throw notFound(dataApiMessages.keyNotFound);
}

/** Who is calling a published API. */
export type CallIdentity = { kind: 'key'; key: KeyRow } | { kind: 'user'; session: Session };

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

const lastPrune = new WeakMap<AppContext, number>();

function sameHex(a: string, b: string): boolean {
  if (!/^[0-9a-f]{64}$/i.test(a)) return false;
  return timingSafeEqual(Buffer.from(a.toLowerCase(), 'hex'), Buffer.from(b, 'hex'));
}

async function bySignature(ctx: AppContext, request: FastifyRequest, signature: string): Promise<CallIdentity> {
  const accessKey = header(request, 'x-access-key');
  const timestamp = header(request, 'x-timestamp');
  const nonce = header(request, 'x-nonce');
  if (!accessKey || !timestamp || !nonce || nonce.length > 128 || !/^\d{10,16}$/.test(timestamp)) throw unauthorized(dataApiMessages.signatureInvalid);
  const key = await findKeyByAccessKeyMemo(ctx.db, accessKey);
  if (!key || !key.enabled) throw unauthorized(dataApiMessages.keyInvalid);
  const secret = decryptSecret(resolveSecretKey(ctx.config), key.secretEnc, SECRET_CONTEXT);
  if (!sameHex(signature, sign(secret, accessKey, timestamp, nonce))) throw unauthorized(dataApiMessages.signatureInvalid);
  const now = Date.now();
  if (Math.abs(now - Number(timestamp)) > DATA_API_SIGNATURE_WINDOW_MS) throw unauthorized(dataApiMessages.signatureExpired);
  // Kept for twice the window: a timestamp at the window's far edge is still refused as a replay.
  if (!(await claimNonce(ctx.db, accessKey, nonce, new Date(now + 2 * DATA_API_SIGNATURE_WINDOW_MS)))) throw unauthorized(dataApiMessages.nonceReplayed);
  if (now - (lastPrune.get(ctx) ?? 0) > 60_000) {
    lastPrune.set(ctx, now);
    await pruneNonces(ctx.db);
  }
  return { kind: 'key', key };
}

/** The caller of a published API, or 401 saying what is missing or wrong. */
export async function identifyCaller(ctx: AppContext, request: FastifyRequest): Promise<CallIdentity> {
  const signature = header(request, 'x-signature');
  if (signature) return bySignature(ctx, request, signature);
  const token = bearerToken(request);
  if (!token) throw unauthorized(dataApiMessages.credentialsRequired);
  if (token.startsWith(SECRET_PREFIX)) {
    const key = await findKeyBySecretHashMemo(ctx.db, sha256(token));
    if (!key || !key.enabled) throw unauthorized(dataApiMessages.keyInvalid);
    return { kind: 'key', key };
  }
  const session = await findSession(ctx.db, token);
  if (!session) throw unauthorized();
  if (session.scope) throw forbidden(shareMessages.scopeRefused);
  if (session.mustChangePassword) throw new AppError(403, zhCN.passwordChangeRequired);
  return { kind: 'user', session };
}
