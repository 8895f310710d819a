import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';

/** SQL of the workflow tables (docs/workflow.md "Store"). */

type Db = Kysely<Database>;

export const INSTANCE_COLUMNS = [
  'workflowInstance.id',
  'workflowInstance.definitionId',
  'workflowInstance.businessId',
  'workflowInstance.starterId',
  'workflowInstance.status',
  'workflowInstance.currentActivityId',
  'workflowInstance.assigneeId',
  'workflowInstance.state',
  'workflowInstance.finishedActivities',
  'workflowInstance.revision',
] as const;

export function findDefinition(db: Db, id: string) {
  return db.selectFrom('workflowDefinition').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The newest version of every process key. */
export function latestDefinitions(db: Db) {
  return db
    .selectFrom('workflowDefinition as d')
    .selectAll('d')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('workflowDefinition as n').select('n.id').whereRef('n.processKey', '=', 'd.processKey').whereRef('n.version', '>', 'd.version'))),
    )
    .orderBy('d.processKey')
    .execute();
}

export function findInstance(db: Db, id: string, lock = false) {
  const query = db.selectFrom('workflowInstance').select(INSTANCE_COLUMNS).where('id', '=', id);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export function findTask(db: Db, id: string, lock = false) {
  // A task row keeps its id when it is decided or transferred (action approve / reject / transfer).
  const query = db.selectFrom('workflowHistory').selectAll().where('id', '=', id).where('action', 'in', ['task', 'approve', 'reject', 'transfer']);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export function activeUser(db: Db, id: number) {
  return db.selectFrom('sysUser').select(['id', 'account', 'name', 'email']).where('id', '=', id).where('status', '=', 1).executeTakeFirst();
}

/** Was the user ever in the instance's history (applicant, approver, transferred to)? */
export async function takesPart(db: Db, instanceId: string, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('workflowHistory')
    .select('id')
    .where('instanceId', '=', instanceId)
    .where('assigneeId', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export function historyOf(db: Db, instanceId: string) {
  return db
    .selectFrom('workflowHistory as h')
    .leftJoin('sysUser as u', 'u.id', 'h.assigneeId')
    .select([
      'h.id',
      'h.activityId',
      'h.activityName',
      'h.action',
      'h.comment',
      'h.createTime',
      'h.endTime',
      'u.name as assigneeName',
      'u.account as assigneeAccount',
    ])
    .where('h.instanceId', '=', instanceId)
    .orderBy('h.createTime')
    .orderBy(({ fn }) => fn('coalesce', ['h.endTime', 'h.createTime']))
    .execute();
}

/** The workbench's lists (query builders; the caller pages them): rows of one instance joined with its definition, starter and a task. */
function workRows(db: Db) {
  return db
    .selectFrom('workflowInstance as i')
    .innerJoin('workflowDefinition as d', 'd.id', 'i.definitionId')
    .innerJoin('sysUser as s', 's.id', 'i.starterId')
    .select([
      'i.id as processInstanceId',
      'i.definitionId as processDefinitionId',
      'd.name as processDefinitionName',
      'i.businessId',
      's.name as starterName',
      'i.status',
    ]);
}

export function todoRows(db: Db, userId: number) {
  return workRows(db)
    .innerJoin('workflowHistory as t', 't.instanceId', 'i.id')
    .leftJoin('sysUser as a', 'a.id', 't.assigneeId')
    .select(['t.id as taskId', 't.activityName', 'a.name as assigneeName', 't.createTime', 't.endTime', 't.comment'])
    .where('t.action', '=', 'task')
    .where('t.endTime', 'is', null)
    .where('t.assigneeId', '=', userId)
    .where('i.status', '=', 'running')
    .orderBy('t.createTime', 'desc')
    .orderBy('t.id');
}

export async function todoCount(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('workflowHistory as t')
    .innerJoin('workflowInstance as i', 'i.id', 't.instanceId')
    .select(({ fn }) => fn.countAll<string>().as('n'))
    .where('t.action', '=', 'task')
    .where('t.endTime', 'is', null)
    .where('t.assigneeId', '=', userId)
    .where('i.status', '=', 'running')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function doneRows(db: Db, userId: number) {
  return workRows(db)
    .innerJoin('workflowHistory as t', 't.instanceId', 'i.id')
    .leftJoin('sysUser as a', 'a.id', 'i.assigneeId')
    .select(['t.id as taskId', 't.activityName', 'a.name as assigneeName', 't.createTime', 't.endTime', 't.comment'])
    .where('t.action', 'in', ['approve', 'reject', 'transfer'])
    .where('t.assigneeId', '=', userId)
    .orderBy('t.endTime', 'desc')
    .orderBy('t.id');
}

export function sendRows(db: Db, userId: number) {
  return workRows(db)
    .leftJoin('sysUser as a', 'a.id', 'i.assigneeId')
    .select(['i.currentActivityName as activityName', 'a.name as assigneeName', 'i.createTime', 'i.endTime'])
    .where('i.starterId', '=', userId)
    .orderBy('i.createTime', 'desc')
    .orderBy('i.id');
}

export function leaveById(db: Db, id: string) {
  return db
    .selectFrom('workflowLeave as l')
    .innerJoin('sysUser as a', 'a.id', 'l.applicantId')
    .innerJoin('workflowInstance as i', 'i.businessId', 'l.id')
    .select(['l.id', 'l.startTime', 'l.endTime', 'l.reason', 'a.name as applicantName', 'i.id as processInstanceId', 'i.status', 'i.starterId'])
    .where('l.id', '=', id)
    .executeTakeFirst();
}
