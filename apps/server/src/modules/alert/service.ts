import { alertSaveProblem, alertMessages, templateVariables, type AlertBodyParsed, type AlertCheckRows, type AlertRecord } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { AppError, badRequest, forbidden, notFound } from '../../platform/http/errors.ts';
import { openRead } from '../read/index.ts';
import type { Caller } from '../perm/index.ts';
import { windowOf } from './query.ts';
import { enqueueCheck } from './check.ts';
import { checkRowsOf, pageChecks } from './check-repo.ts';
import { alertColumns, deleteAlert, findAlert, insertAlert, pageAlerts, toRecord, updateAlert, type AlertRow } from './repo.ts';
import { existingDepartments } from './recipients.ts';

/**
 * Alert records (spec 3 §5 "Alert save", §7; docs/alerts.md): save checks the spec's rules in the
 * editor's order, that the saver may read the dataset and that every field is one of it; the
 * dataset's and its source's names are taken from the store, never from the client; timeValue
 * is computed. Only the creator (or an administrator) changes, copies or deletes an alert.
 */

async function requireOwned(ctx: AppContext, caller: Caller, id: number): Promise<AlertRow & { createUserName: string | null }> {
  const row = await findAlert(ctx.db, id);
  if (!row) throw notFound(alertMessages.notFound);
  if (!caller.isAdministrator && row.createUserId !== caller.userId) throw forbidden(alertMessages.notOwner);
  return row;
}

/** The users of the comma list that exist and are active (a deleted recipient is dropped, not an error). */
async function activeUsers(ctx: AppContext, list: string | number[]): Promise<number[]> {
  const ids = (typeof list === 'string' ? list.split(',') : list).map((v) => Number(String(v).trim())).filter((n) => Number.isSafeInteger(n) && n > 0);
  if (ids.length === 0) return [];
  const rows = await ctx.db.selectFrom('sysUser').select('id').where('id', 'in', ids).where('status', '=', 1).execute();
  const found = new Set(rows.map((r) => r.id));
  return [...new Set(ids)].filter((id) => found.has(id));
}

async function smsVariables(ctx: AppContext, body: AlertBodyParsed): Promise<string[] | null> {
  if (!body.checkedWays.includes('sms') || !body.smsId) return null;
  const template = await ctx.db.selectFrom('alertSmsTemplate').select('templateContent').where('id', '=', body.smsId).executeTakeFirst();
  return template ? templateVariables(template.templateContent) : null;
}

/** Validated, normalised columns of a save: the spec's first problem is a 400 with its message. */
async function prepare(ctx: AppContext, caller: Caller, body: AlertBodyParsed) {
  const problem = alertSaveProblem(body, await smsVariables(ctx, body));
  if (problem) throw badRequest(problem);
  const users = await activeUsers(ctx, body.warnUserIds);
  const depts = await existingDepartments(ctx, body.warnDeptIds);
  if (users.length === 0 && depts.length === 0) throw badRequest(alertMessages.recipientsRequired);
  // The saver must be allowed to read the dataset (its owner's permissions are what checks read with).
  const read = await openRead(ctx, { viewer: caller }, body.cubeDataId!, undefined);
  const known = new Set(read.model.fields.map((f) => f.id));
  const used = [
    ...body.columnJson.map((c) => c.cubeColumnId),
    ...body.filterJson.map((f) => f.cubeColumnId),
    body.filterTimeJson.timeColumn,
    body.filterTimeJson.calcType === 'SPECIAL' ? body.filterTimeJson.timeTypeColumn : null,
  ];
  const unknown = used.find((id) => id != null && !known.has(id));
  if (unknown != null) throw badRequest(alertMessages.fieldNotInDataset.replace('{name}', String(unknown)));
  const window = windowOf(read, body, read.now);
  const filterTimeJson = {
    ...body.filterTimeJson,
    // NORMAL clears the time-type column (spec 3 §4).
    timeTypeColumn: body.filterTimeJson.calcType === 'NORMAL' ? null : body.filterTimeJson.timeTypeColumn,
    timeValue: [window.start, window.end],
  };
  return alertColumns({
    ...body,
    warnUserIds: users.join(','),
    warnDeptIds: depts.join(','),
    filterTimeJson,
    cubeDataName: read.cube.cubeName,
    datasourceId: read.cube.datasourceId,
    datasourceName: read.cube.dsName,
  });
}

/** Create (no id) or update; a save that re-enables an alert starts its schedule now. */
export async function saveAlert(ctx: AppContext, caller: Caller, body: AlertBodyParsed): Promise<AlertRecord> {
  const columns = await prepare(ctx, caller, body);
  if (body.id) {
    const existing = await requireOwned(ctx, caller, body.id);
    await updateAlert(ctx.db, body.id, { ...columns, ...(existing.enableStatus === 0 && columns.enableStatus === 1 ? { lastSlot: null } : {}) });
    return getAlert(ctx, caller, body.id);
  }
  const id = await insertAlert(ctx.db, { ...columns, createUserId: caller.userId });
  return getAlert(ctx, caller, id);
}

export async function getAlert(ctx: AppContext, caller: Caller, id: number): Promise<AlertRecord> {
  return toRecord(await requireOwned(ctx, caller, id));
}

export async function listAlerts(ctx: AppContext, caller: Caller, query: { current: number; size: number; name?: string }) {
  const { rows, total } = await pageAlerts(
    ctx.db,
    { userId: caller.isAdministrator ? null : caller.userId, name: query.name },
    (query.current - 1) * query.size,
    query.size,
  );
  return { records: rows.map(toRecord), total, current: query.current, size: query.size };
}

export async function removeAlert(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  await requireOwned(ctx, caller, id);
  await deleteAlert(ctx.db, id);
}

/** A copy: same settings, name + （副本）, disabled, state ok, owned by the copier. */
export async function copyAlert(ctx: AppContext, caller: Caller, id: number): Promise<AlertRecord> {
  const source = toRecord(await requireOwned(ctx, caller, id));
  const {
    id: _id,
    state: _s,
    stateSince: _ss,
    lastCheckTime: _l,
    lastFiredTime: _f,
    createUserId: _c,
    createUserName: _n,
    createTime: _t,
    updateTime: _u,
    ...body
  } = source;
  const columns = alertColumns({ ...body, name: `${source.name}（副本）`.slice(0, 100), enableStatus: 0 });
  const copyId = await insertAlert(ctx.db, { ...columns, createUserId: caller.userId });
  return getAlert(ctx, caller, copyId);
}

export async function setAlertEnabled(ctx: AppContext, caller: Caller, id: number, enableStatus: 0 | 1): Promise<void> {
  const row = await requireOwned(ctx, caller, id);
  if (row.enableStatus === enableStatus) return;
  // Re-enabled: checks start from now, the time it was off is not caught up.
  await updateAlert(ctx.db, id, { enableStatus, ...(enableStatus === 1 ? { lastSlot: null } : {}) });
}

/** 立即检查: the current instant as its own slot, through the same job, claim and log as a due slot. */
export async function checkNow(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  await requireOwned(ctx, caller, id);
  if (!ctx.jobs) throw new AppError(503, alertMessages.jobsOff);
  await enqueueCheck(ctx, id, new Date());
}

export async function listChecks(ctx: AppContext, caller: Caller, query: { current: number; size: number; alertId?: number }) {
  const { records, total } = await pageChecks(
    ctx.db,
    { userId: caller.isAdministrator ? null : caller.userId, alertId: query.alertId },
    (query.current - 1) * query.size,
    query.size,
  );
  return { records, total, current: query.current, size: query.size };
}

/** The rows one check kept (预警日志's detail): the alert's owner or an administrator. */
export async function getCheckRows(ctx: AppContext, caller: Caller, checkId: number): Promise<AlertCheckRows> {
  const found = await checkRowsOf(ctx.db, checkId);
  if (!found) throw notFound(alertMessages.checkNotFound);
  if (!caller.isAdministrator && found.ownerId !== caller.userId) throw forbidden(alertMessages.notOwner);
  return found.rows;
}
