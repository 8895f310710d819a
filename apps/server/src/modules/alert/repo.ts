import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { alertTimeConfigSchema, type AlertBodyParsed, type AlertRecord } from '@shutu/contracts';
import type { AlertTable, Database } from '../../platform/db/schema.ts';

/** SQL of the alert tables (migration 0022_alert). JSON fields are stored as text. */

type Db = Kysely<Database>;
export type AlertRow = Selectable<AlertTable>;

const json = (text: string | null, fallback: unknown) => {
  try {
    return text ? JSON.parse(text) : fallback;
  } catch {
    return fallback;
  }
};

/** The stored columns of a parsed alert body (timeValue already computed by the caller). */
export function alertColumns(body: AlertBodyParsed): Omit<Insertable<AlertTable>, 'createUserId'> {
  return {
    name: body.name,
    requestFreq: body.requestFreq!,
    enableStatus: body.enableStatus,
    cubeDataId: body.cubeDataId ?? null,
    cubeDataName: body.cubeDataName ?? null,
    datasourceId: body.datasourceId ?? null,
    datasourceName: body.datasourceName ?? null,
    columnJson: JSON.stringify(body.columnJson),
    filterJson: JSON.stringify(body.filterJson),
    filterRelationJson: body.filterRelationJson,
    filterTimeJson: JSON.stringify(body.filterTimeJson),
    warnUserIds: typeof body.warnUserIds === 'string' ? body.warnUserIds : body.warnUserIds.join(','),
    warnDeptIds: typeof body.warnDeptIds === 'string' ? body.warnDeptIds : body.warnDeptIds.join(','),
    checkedWays: JSON.stringify(body.checkedWays),
    smsId: body.smsId ?? null,
    smsParams: JSON.stringify(body.smsParams),
    messageDynamicContent: body.messageDynamicContent,
    pushEnabled: body.pushEnabled,
    warningWays: JSON.stringify(body.warningWays),
    flowId: body.flowId ?? null,
    visualDataJson: JSON.stringify(body.visualDataJson),
    repeatIntervalSeconds: body.repeatIntervalSeconds,
    notifyRecovery: body.notifyRecovery,
    quietStart: body.quietStart ?? null,
    quietEnd: body.quietEnd ?? null,
  };
}

export function toRecord(row: AlertRow & { createUserName?: string | null }): AlertRecord {
  return {
    id: row.id,
    name: row.name,
    requestFreq: row.requestFreq,
    enableStatus: row.enableStatus === 1 ? 1 : 0,
    cubeDataId: row.cubeDataId,
    cubeDataName: row.cubeDataName,
    datasourceId: row.datasourceId,
    datasourceName: row.datasourceName,
    columnJson: json(row.columnJson, []),
    filterJson: json(row.filterJson, []),
    filterRelationJson: row.filterRelationJson === 'OR' ? 'OR' : 'AND',
    filterTimeJson: alertTimeConfigSchema.parse(json(row.filterTimeJson, {})),
    warnUserIds: row.warnUserIds,
    warnDeptIds: row.warnDeptIds,
    checkedWays: json(row.checkedWays, []),
    smsId: row.smsId,
    smsParams: json(row.smsParams, {}),
    messageDynamicContent: row.messageDynamicContent,
    pushEnabled: row.pushEnabled,
    warningWays: json(row.warningWays, []),
    flowId: row.flowId,
    visualDataJson: json(row.visualDataJson, []),
    repeatIntervalSeconds: row.repeatIntervalSeconds,
    notifyRecovery: row.notifyRecovery,
    quietStart: row.quietStart,
    quietEnd: row.quietEnd,
    state: row.state,
    stateSince: row.stateSince?.toISOString() ?? null,
    lastCheckTime: row.lastCheckTime?.toISOString() ?? null,
    lastFiredTime: row.lastFiredTime?.toISOString() ?? null,
    createUserId: row.createUserId,
    createUserName: row.createUserName ?? null,
    createTime: row.createTime.toISOString(),
    updateTime: row.updateTime.toISOString(),
  };
}

const withUser = (db: Db) =>
  db.selectFrom('alert').leftJoin('sysUser', 'sysUser.id', 'alert.createUserId').selectAll('alert').select('sysUser.realName as createUserName');

export function findAlert(db: Db, id: number) {
  return withUser(db).where('alert.id', '=', id).executeTakeFirst();
}

export async function pageAlerts(db: Db, filter: { userId: number | null; name?: string }, offset: number, limit: number) {
  let query = db.selectFrom('alert');
  if (filter.userId !== null) query = query.where('createUserId', '=', filter.userId);
  if (filter.name) query = query.where('name', 'ilike', `%${filter.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const total = Number((await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const ids = (await query.select('id').orderBy('id', 'desc').offset(offset).limit(limit).execute()).map((r) => r.id);
  const rows = ids.length === 0 ? [] : await withUser(db).where('alert.id', 'in', ids).orderBy('alert.id', 'desc').execute();
  return { rows, total };
}

export async function insertAlert(db: Db, columns: Insertable<AlertTable>): Promise<number> {
  return (await db.insertInto('alert').values(columns).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateAlert(db: Db, id: number, columns: Updateable<AlertTable>): Promise<void> {
  await db
    .updateTable('alert')
    .set({ ...columns, updateTime: new Date() })
    .where('id', '=', id)
    .execute();
}

export async function deleteAlert(db: Db, id: number): Promise<void> {
  await db.deleteFrom('alert').where('id', '=', id).execute();
}
