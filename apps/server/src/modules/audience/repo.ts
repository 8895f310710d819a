import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { AudienceDetail, AudienceListItem, AudienceMemberColumn, AudienceRefreshItem, AudienceRuleParsed } from '@shutu/contracts';
import type { Database } from '../../platform/db/schema.ts';
import { retireMemberTable, settleMemberTable } from './member-gc.ts';
import type { AudienceTable } from './schema.ts';
import './schema.ts';

/** SQL of the audience tables (migration 0034_audience). JSON fields are stored as text. */

type Db = Kysely<Database>;
export type AudienceRow = Selectable<AudienceTable>;

const json = <T>(text: string | null, fallback: T): T => {
  try {
    return text ? (JSON.parse(text) as T) : fallback;
  } catch {
    return fallback;
  }
};
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const count = (v: string | number | null) => (v === null ? null : Number(v));

type Joined = AudienceRow & { classifyName: string | null; createUserName: string | null };

export function toListItem(row: Joined): AudienceListItem {
  return {
    id: row.id,
    groupName: row.groupName,
    classifyId: row.classifyId,
    classifyName: row.classifyName,
    kind: row.kind,
    requestFreq: row.requestFreq,
    remark: row.remark,
    status: row.status,
    size: count(row.size),
    refreshedAt: iso(row.refreshedAt),
    durationMs: row.durationMs,
    error: row.error,
    isOnline: row.isOnline,
    defaultShow: row.defaultShow,
    createUserId: row.createUserId,
    createUserName: row.createUserName,
    createTime: row.createTime.toISOString(),
    updateTime: row.updateTime.toISOString(),
  };
}

export function toDetail(row: Joined): AudienceDetail {
  return {
    ...toListItem(row),
    defineRule: json<AudienceRuleParsed[]>(row.defineRule, []),
    rules: json<unknown>(row.rules, {}),
    groupUse: row.groupUse,
    userGroupStatus: row.userGroupStatus,
    startAnalyseDate: row.startAnalyseDate,
    endAnalyseDate: row.endAnalyseDate,
    memberColumns: memberColumnsOf(row),
    importValid: row.importValid,
    importInvalid: row.importInvalid,
    importDuplicate: row.importDuplicate,
  };
}

export const memberColumnsOf = (row: Pick<AudienceRow, 'memberColumns'>) => json<AudienceMemberColumn[]>(row.memberColumns, []);

function joined(db: Db) {
  return db
    .selectFrom('audience as a')
    .leftJoin('audienceCategory as c', 'c.id', 'a.classifyId')
    .leftJoin('sysUser as u', 'u.id', 'a.createUserId')
    .selectAll('a')
    .select(['c.name as classifyName', 'u.name as createUserName']);
}

export function findAudience(db: Db, id: number): Promise<Joined | undefined> {
  return joined(db).where('a.id', '=', id).executeTakeFirst();
}

export async function listAudiences(
  db: Db,
  filter: { ownerId: number | null; groupName?: string; classifyId?: number; kind?: AudienceRow['kind'] },
  page: { offset: number; limit: number },
): Promise<{ rows: Joined[]; total: number }> {
  let q = joined(db);
  if (filter.ownerId !== null) q = q.where('a.createUserId', '=', filter.ownerId);
  if (filter.groupName) q = q.where('a.groupName', 'ilike', `%${filter.groupName.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  if (filter.classifyId) q = q.where('a.classifyId', '=', filter.classifyId);
  if (filter.kind) q = q.where('a.kind', '=', filter.kind);
  const [rows, total] = await Promise.all([
    q.orderBy('a.id', 'desc').offset(page.offset).limit(page.limit).execute(),
    q
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export async function insertAudience(db: Db, values: Insertable<AudienceTable>): Promise<number> {
  const row = await db.insertInto('audience').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateAudience(db: Db, id: number, values: Updateable<AudienceTable>): Promise<void> {
  await db
    .updateTable('audience')
    .set({ ...values, updateTime: new Date() })
    .where('id', '=', id)
    .execute();
}

/** A failed computation is recorded unless one started after it has switched meanwhile (its members and status stand). */
export async function failAudience(db: Db, id: number, startedAt: Date, values: { error: string; durationMs: number }): Promise<void> {
  await db
    .updateTable('audience')
    .set({ status: 'failed', error: values.error, durationMs: values.durationMs, updateTime: new Date() })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('refreshedAt', 'is', null), eb('refreshedAt', '<=', startedAt)]))
    .execute();
}

/** Deletes the audience; its member table is retired (dropped by the sweep once readers are done: member-gc.ts). */
export async function deleteAudience(db: Db, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx.deleteFrom('audience').where('id', '=', id).returning('memberTable').executeTakeFirst();
    if (row?.memberTable) await retireMemberTable(trx, row.memberTable);
  });
}

/**
 * Switches the member table in one update; answers the table it replaced. In the same transaction the
 * new table stops being pending and the replaced one is retired (member-gc.ts drops it after a grace).
 */
export async function switchMembers(
  db: Db,
  id: number,
  values: { memberTable: string; memberColumns: AudienceMemberColumn[]; size: number; durationMs: number; datasourceId?: number | null },
  startedAt: Date = new Date(),
): Promise<{ previous: string | null; superseded?: true } | null> {
  return db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('audience').select(['memberTable', 'refreshedAt']).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!before) return null;
    // A computation started later has already switched (another process): its members stay.
    if (before.refreshedAt && before.refreshedAt > startedAt) return { previous: before.memberTable, superseded: true };
    await trx
      .updateTable('audience')
      .set({
        memberTable: values.memberTable,
        memberColumns: JSON.stringify(values.memberColumns),
        size: values.size,
        durationMs: values.durationMs,
        // When the computation started: the data are as of then, and a later start supersedes it.
        refreshedAt: startedAt,
        status: 'done',
        error: null,
        ...(values.datasourceId !== undefined ? { datasourceId: values.datasourceId } : {}),
      })
      .where('id', '=', id)
      .execute();
    await settleMemberTable(trx, values.memberTable);
    if (before.memberTable && before.memberTable !== values.memberTable) await retireMemberTable(trx, before.memberTable);
    return { previous: before.memberTable };
  });
}

export function listCategories(db: Db) {
  return db.selectFrom('audienceCategory').select(['id', 'name']).orderBy('sort').orderBy('id').execute();
}

export async function insertCategory(db: Db, name: string): Promise<number> {
  const row = await db.insertInto('audienceCategory').values({ name }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findCategory(db: Db, id: number) {
  return db.selectFrom('audienceCategory').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
}

/** Claims the refresh of a due slot: only one process gets the row (UNIQUE audience_id, slot). */
export async function claimRefresh(db: Db, audienceId: number, slot: Date, runId: string | null): Promise<number | null> {
  const row = await db
    .insertInto('audienceRefresh')
    .values({ audienceId, slot, runId })
    .onConflict((oc) => oc.columns(['audienceId', 'slot']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function finishRefresh(
  db: Db,
  id: number,
  values: { status: 'done' | 'failed'; size?: number | null; durationMs: number; error?: string | null },
) {
  await db
    .updateTable('audienceRefresh')
    .set({ status: values.status, size: values.size ?? null, durationMs: values.durationMs, error: values.error ?? null, finishTime: new Date() })
    .where('id', '=', id)
    .execute();
}

/** Moves last_slot forward; false when another process already did. */
export async function advanceLastSlot(db: Db, id: number, slot: Date): Promise<boolean> {
  const r = await db
    .updateTable('audience')
    .set({ lastSlot: slot })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('lastSlot', 'is', null), eb('lastSlot', '<', slot)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The newest computations of an audience. */
export async function listRefreshes(db: Db, audienceId: number, limit: number): Promise<AudienceRefreshItem[]> {
  const rows = await db
    .selectFrom('audienceRefresh')
    .selectAll()
    .where('audienceId', '=', audienceId)
    .orderBy('startTime', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    slot: r.slot.toISOString(),
    status: r.status,
    size: count(r.size),
    durationMs: r.durationMs,
    error: r.error,
    startTime: r.startTime.toISOString(),
    finishTime: iso(r.finishTime),
  }));
}
