import type { Kysely } from 'kysely';
import type { AlertCheckLog, AlertCheckRows, AlertState, ResultField } from '@shutu/contracts';
import type { Row } from '@shutu/connectors';
import type { Database } from '../../platform/db/schema.ts';
import type { Decision, NotifyReason } from './decide.ts';

/** SQL of checks (the claims and the log) and sends (per-channel claims). Migration 0022_alert. */

type Db = Kysely<Database>;

export interface Found {
  fields: ResultField[];
  /** The first rows (ALERT_LOG_ROWS), kept for the message, the push and the log. */
  rows: Row[];
  rowCount: number;
  window: string[];
}

export interface CheckClaim {
  id: number;
  /** Set when a previous run of this slot decided before it died: it is not decided again. */
  decision: Decision | null;
  found: Found | null;
}

const jsonSafe = (_key: string, value: unknown) =>
  typeof value === 'bigint' ? (Number.isSafeInteger(Number(value)) ? Number(value) : value.toString()) : value;

/**
 * Claims (alert, slot): a new row wins; an existing one is taken over once (attempts 1 → 2) when
 * still running and its run is gone (the recovery sweep removed it) or, without a run, older than
 * `staleBefore`. Of two takers, one wins (a single conditional UPDATE).
 */
export async function claimCheck(db: Db, alertId: number, slot: Date, runId: string | null, staleBefore: Date): Promise<CheckClaim | undefined> {
  const inserted = await db
    .insertInto('alertCheck')
    .values({ alertId, slot, runId })
    .onConflict((oc) => oc.columns(['alertId', 'slot']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return { id: inserted.id, decision: null, found: null };
  const taken = await db
    .updateTable('alertCheck')
    .set((eb) => ({ runId, attempts: eb('attempts', '+', 1) }))
    .where('alertId', '=', alertId)
    .where('slot', '=', slot)
    .where('status', '=', 'running')
    .where('attempts', '<', 2)
    .where((eb) =>
      eb.or([
        eb.and([eb('runId', 'is not', null), eb.not(eb.exists(eb.selectFrom('jobRun').select('jobRun.id').whereRef('jobRun.id', '=', 'alertCheck.runId')))]),
        eb.and([eb('runId', 'is', null), eb('checkTime', '<', staleBefore)]),
      ]),
    )
    .returning(['id', 'state', 'notifyReason', 'rowsJson'])
    .executeTakeFirst();
  if (!taken) return undefined;
  if (!taken.notifyReason || !taken.rowsJson) return { id: taken.id, decision: null, found: null };
  return {
    id: taken.id,
    decision: { state: taken.state as AlertState, stateSince: null, changed: false, reason: taken.notifyReason as NotifyReason },
    found: JSON.parse(taken.rowsJson) as Found,
  };
}

/** The decision on the alert and its check row, together. */
export async function recordDecision(db: Db, checkId: number, alertId: number, decision: Decision, found: Found, now: Date, durationMs: number): Promise<void> {
  const notified = decision.reason === 'started' || decision.reason === 'repeat';
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('alert')
      .set({
        state: decision.state,
        stateSince: decision.stateSince,
        lastCheckTime: now,
        ...(decision.state === 'firing' && decision.changed ? { lastFiredTime: now } : {}),
        ...(notified ? { lastNotifiedTime: now } : {}),
      })
      .where('id', '=', alertId)
      .execute();
    await trx
      .updateTable('alertCheck')
      .set({
        state: decision.state,
        notifyReason: decision.reason,
        rowCount: found.rowCount,
        windowStart: found.window[0] ?? null,
        windowEnd: found.window[1] ?? null,
        rowsJson: JSON.stringify(found, jsonSafe),
        durationMs,
      })
      .where('id', '=', checkId)
      .execute();
  });
}

export async function finishCheck(db: Db, checkId: number): Promise<void> {
  await db.updateTable('alertCheck').set({ status: 'done', finishTime: new Date() }).where('id', '=', checkId).execute();
}

export async function failCheck(db: Db, checkId: number, alertId: number, errMsg: string, now: Date, durationMs: number): Promise<void> {
  await db
    .updateTable('alertCheck')
    .set({ status: 'failed', errMsg: errMsg.slice(0, 1000), durationMs, finishTime: new Date() })
    .where('id', '=', checkId)
    .execute();
  await db.updateTable('alert').set({ lastCheckTime: now }).where('id', '=', alertId).execute();
}

/** Claims one send; a send left pending by a dead run is sent again (the check itself was taken over). */
export async function claimSend(db: Db, checkId: number, alertId: number, channel: string, recipient: string): Promise<number | undefined> {
  const inserted = await db
    .insertInto('alertSend')
    .values({ checkId, alertId, channel, recipient })
    .onConflict((oc) => oc.columns(['checkId', 'channel', 'recipient']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return inserted.id;
  const pending = await db
    .selectFrom('alertSend')
    .select('id')
    .where('checkId', '=', checkId)
    .where('channel', '=', channel)
    .where('recipient', '=', recipient)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return pending?.id;
}

export async function finishSend(db: Db, sendId: number, errMsg: string | null): Promise<void> {
  await db
    .updateTable('alertSend')
    .set({ status: errMsg === null ? 'sent' : 'failed', errMsg: errMsg?.slice(0, 1000) ?? null })
    .where('id', '=', sendId)
    .execute();
}

/** Moves last_slot forward; false when another tick did already. */
export async function advanceLastSlot(db: Db, alertId: number, slot: Date): Promise<boolean> {
  const result = await db
    .updateTable('alert')
    .set({ lastSlot: slot })
    .where('id', '=', alertId)
    .where((eb) => eb.or([eb('lastSlot', 'is', null), eb('lastSlot', '<', slot)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The check log (the caller's alerts; administrators: all), newest first, with each check's sends. */
export async function pageChecks(
  db: Db,
  filter: { userId: number | null; alertId?: number },
  offset: number,
  limit: number,
): Promise<{ records: AlertCheckLog[]; total: number }> {
  let query = db.selectFrom('alertCheck').innerJoin('alert', 'alert.id', 'alertCheck.alertId');
  if (filter.userId !== null) query = query.where('alert.createUserId', '=', filter.userId);
  if (filter.alertId) query = query.where('alertCheck.alertId', '=', filter.alertId);
  const total = Number((await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await query.selectAll('alertCheck').select('alert.name as alertName').orderBy('alertCheck.id', 'desc').offset(offset).limit(limit).execute();
  const sends =
    rows.length === 0
      ? []
      : await db
          .selectFrom('alertSend')
          .selectAll()
          .where(
            'checkId',
            'in',
            rows.map((r) => r.id),
          )
          .orderBy('id')
          .execute();
  return {
    total,
    records: rows.map((r) => ({
      id: r.id,
      alertId: r.alertId,
      alertName: r.alertName,
      slot: r.slot.toISOString(),
      status: r.status,
      windowStart: r.windowStart,
      windowEnd: r.windowEnd,
      rowCount: r.rowCount,
      state: r.state as AlertState | null,
      notifyReason: r.notifyReason,
      channels: sends.filter((s) => s.checkId === r.id).map((s) => ({ channel: s.channel, recipient: s.recipient, status: s.status, errMsg: s.errMsg })),
      errMsg: r.errMsg,
      durationMs: r.durationMs,
      checkTime: r.checkTime.toISOString(),
    })),
  };
}

/** A check's kept rows with its alert's owner, or undefined when there is no such check. */
export async function checkRowsOf(db: Db, checkId: number): Promise<{ ownerId: number | null; rows: AlertCheckRows } | undefined> {
  const row = await db
    .selectFrom('alertCheck')
    .innerJoin('alert', 'alert.id', 'alertCheck.alertId')
    .select(['alert.createUserId', 'alertCheck.rowsJson', 'alertCheck.rowCount'])
    .where('alertCheck.id', '=', checkId)
    .executeTakeFirst();
  if (!row) return undefined;
  const found = row.rowsJson ? (JSON.parse(row.rowsJson) as Found) : null;
  const fields = found?.fields ?? [];
  return {
    ownerId: row.createUserId,
    rows: { titles: fields.map((f) => f.title), rows: (found?.rows ?? []).map((r) => fields.map((f) => r[f.alias] ?? null)), rowCount: row.rowCount },
  };
}
