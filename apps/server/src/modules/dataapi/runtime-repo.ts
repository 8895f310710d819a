import { sql, type Kysely } from 'kysely';
import type { DataApiAccessKey, DataApiCallLog } from '@shutu/contracts';
import type { Database } from '../../platform/db/schema.ts';
import { forgetMemo, memoized } from './call-memo.ts';

/** Access keys, nonces, rate windows, the call log and the module's settings (0018_dataapi). */

type Db = Kysely<Database>;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export interface KeyRow {
  id: number;
  keyName: string;
  accessKey: string;
  secretHash: string;
  secretEnc: string;
  enabled: boolean;
  rateLimit: number;
  createUserId: number | null;
  createTime: Date;
  lastUsedTime: Date | null;
}

async function scopesOf(db: Db, keyIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(keyIds.map((id) => [id, []]));
  if (keyIds.length === 0) return out;
  const rows = await db.selectFrom('dataApiKeyScope').select(['keyId', 'apiId']).where('keyId', 'in', keyIds).orderBy('apiId').execute();
  for (const r of rows) out.get(r.keyId)?.push(r.apiId);
  return out;
}

const toKey = (r: KeyRow, apiIds: number[]): DataApiAccessKey => ({
  id: r.id,
  keyName: r.keyName,
  accessKey: r.accessKey,
  enabled: r.enabled,
  rateLimit: r.rateLimit,
  apiIds,
  createUserId: r.createUserId,
  createTime: iso(r.createTime)!,
  lastUsedTime: iso(r.lastUsedTime),
});

export async function listKeys(db: Db): Promise<DataApiAccessKey[]> {
  const rows = await db.selectFrom('dataApiKey').selectAll().orderBy('id', 'desc').execute();
  const scopes = await scopesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toKey(r, scopes.get(r.id) ?? []));
}

export async function findKey(db: Db, id: number): Promise<DataApiAccessKey | undefined> {
  const row = await db.selectFrom('dataApiKey').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toKey(row, (await scopesOf(db, [row.id])).get(row.id) ?? []);
}

export function findKeyBySecretHash(db: Db, secretHash: string): Promise<KeyRow | undefined> {
  return db.selectFrom('dataApiKey').selectAll().where('secretHash', '=', secretHash).executeTakeFirst();
}

export function findKeyByAccessKey(db: Db, accessKey: string): Promise<KeyRow | undefined> {
  return db.selectFrom('dataApiKey').selectAll().where('accessKey', '=', accessKey).executeTakeFirst();
}

export function findKeyBySecretHashMemo(db: Db, secretHash: string): Promise<KeyRow | undefined> {
  return memoized(db, 'key', `hash:${secretHash}`, () => findKeyBySecretHash(db, secretHash));
}

export function findKeyByAccessKeyMemo(db: Db, accessKey: string): Promise<KeyRow | undefined> {
  return memoized(db, 'key', `ak:${accessKey}`, () => findKeyByAccessKey(db, accessKey));
}

/** Whether the key is scoped to the API; the key's scope is kept for a moment (call-memo.ts). */
export async function keyMayCall(db: Db, keyId: number, apiId: number): Promise<boolean> {
  const scope = await memoized(db, 'scope', String(keyId), async () => new Set(await keyApiIds(db, keyId)));
  return scope.has(apiId);
}

export async function keyApiIds(db: Db, keyId: number): Promise<number[]> {
  return (await scopesOf(db, [keyId])).get(keyId) ?? [];
}

/** Keeps only the ids of existing APIs. */
export async function existingApiIds(db: Db, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom('dataApi').select('id').where('id', 'in', ids).execute()).map((r) => r.id);
}

export async function insertKey(
  db: Db,
  values: { keyName: string; accessKey: string; secretHash: string; secretEnc: string; enabled: boolean; rateLimit: number; createUserId: number },
  apiIds: number[],
): Promise<number> {
  const inserted = await db.transaction().execute(async (trx) => {
    const { id } = await trx.insertInto('dataApiKey').values(values).returning('id').executeTakeFirstOrThrow();
    if (apiIds.length > 0)
      await trx
        .insertInto('dataApiKeyScope')
        .values(apiIds.map((apiId) => ({ keyId: id, apiId })))
        .execute();
    return id;
  });
  forgetMemo(db, 'key', 'scope');
  return inserted;
}

export async function updateKey(
  db: Db,
  id: number,
  values: { keyName?: string; enabled?: boolean; rateLimit?: number },
  apiIds: number[] | undefined,
): Promise<boolean> {
  const updated = await db.transaction().execute(async (trx) => {
    const set = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
    const exists = await trx.selectFrom('dataApiKey').select('id').where('id', '=', id).executeTakeFirst();
    if (!exists) return false;
    if (Object.keys(set).length > 0) await trx.updateTable('dataApiKey').set(set).where('id', '=', id).execute();
    if (apiIds) {
      await trx.deleteFrom('dataApiKeyScope').where('keyId', '=', id).execute();
      if (apiIds.length > 0)
        await trx
          .insertInto('dataApiKeyScope')
          .values(apiIds.map((apiId) => ({ keyId: id, apiId })))
          .execute();
    }
    return true;
  });
  forgetMemo(db, 'key', 'scope');
  return updated;
}

export async function deleteKey(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('dataApiKey').where('id', '=', id).executeTakeFirst();
  forgetMemo(db, 'key', 'scope');
  return Number(result.numDeletedRows) > 0;
}

const touched = new WeakMap<Db, Map<number, number>>();

/** Marks a key used, at most once a minute per process and in the store (keeps the hot path free of a write per call). */
export async function touchKey(db: Db, id: number): Promise<void> {
  let seen = touched.get(db);
  if (!seen) touched.set(db, (seen = new Map()));
  if (Date.now() - (seen.get(id) ?? 0) < 60_000) return;
  seen.set(id, Date.now());
  await db
    .updateTable('dataApiKey')
    .set({ lastUsedTime: sql`now()` })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('lastUsedTime', 'is', null), eb('lastUsedTime', '<', sql<Date>`now() - interval '1 minute'`)]))
    .execute();
}

/**
 * Remembers a signed call's nonce until `expiresAt`; false when it was already seen (a replay).
 * The primary key decides, so two processes receiving the same request cannot both accept it.
 */
export async function claimNonce(db: Db, accessKey: string, nonce: string, expiresAt: Date): Promise<boolean> {
  const row = await db
    .insertInto('dataApiNonce')
    .values({ accessKey, nonce, expiresAt })
    .onConflict((oc) => oc.columns(['accessKey', 'nonce']).doNothing())
    .returning('nonce')
    .executeTakeFirst();
  return row !== undefined;
}

export async function pruneNonces(db: Db): Promise<void> {
  await db
    .deleteFrom('dataApiNonce')
    .where('expiresAt', '<', sql<Date>`now()`)
    .execute();
}

export interface CallLogValues {
  apiId: number | null;
  apiKey: string;
  accessKey: string | null;
  userId: number | null;
  params: string;
  status: number;
  rowCount: number;
  durationMs: number;
  errorMsg: string | null;
}

export async function insertCallLogs(db: Db, rows: (CallLogValues & { createTime: Date })[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('dataApiCallLog').values(rows).execute();
}

export async function listCallLogs(
  db: Db,
  query: { current: number; size: number; apiId?: number | undefined },
): Promise<{ records: DataApiCallLog[]; total: number }> {
  let base = db.selectFrom('dataApiCallLog');
  if (query.apiId !== undefined) base = base.where('apiId', '=', query.apiId);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('id', 'desc')
      .limit(query.size)
      .offset((query.current - 1) * query.size)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    records: rows.map((r) => ({
      id: Number(r.id),
      apiId: r.apiId,
      apiKey: r.apiKey,
      accessKey: r.accessKey,
      userId: r.userId,
      params: r.params,
      status: r.status,
      rows: r.rowCount,
      durationMs: r.durationMs,
      errorMsg: r.errorMsg,
      createTime: iso(r.createTime)!,
    })),
    total: Number(count.n),
  };
}

/** Calls, failures and the 95th percentile of the duration per API over the last `hours`. */
export async function callStats(db: Db, hours: number): Promise<{ apiId: number; apiKey: string; calls: number; failures: number; p95Ms: number | null }[]> {
  const rows = await db
    .selectFrom('dataApiCallLog')
    .select([
      'apiId',
      sql<string>`max(api_key)`.as('apiKey'),
      sql<string>`count(*)`.as('calls'),
      sql<string>`count(*) filter (where status >= 400)`.as('failures'),
      sql<number | null>`percentile_cont(0.95) within group (order by duration_ms)`.as('p95'),
    ])
    .where('apiId', 'is not', null)
    .where('createTime', '>', sql<Date>`now() - make_interval(hours => ${hours})`)
    .groupBy('apiId')
    .orderBy('apiId')
    .execute();
  return rows.map((r) => ({
    apiId: r.apiId!,
    apiKey: r.apiKey,
    calls: Number(r.calls),
    failures: Number(r.failures),
    p95Ms: r.p95 === null ? null : Math.round(Number(r.p95)),
  }));
}

export async function readSetting(db: Db, key: string): Promise<string | undefined> {
  return (await db.selectFrom('dataApiSetting').select('settingValue').where('settingKey', '=', key).executeTakeFirst())?.settingValue;
}

export async function writeSetting(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto('dataApiSetting')
    .values({ settingKey: key, settingValue: value })
    .onConflict((oc) => oc.column('settingKey').doUpdateSet({ settingValue: value }))
    .execute();
}
