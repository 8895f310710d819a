import {
  workflowMessages,
  type HistoryFlow,
  type Page,
  type PageQuery,
  type LeaveDetail,
  type ProcessDefinition,
  type WorkflowUser,
  type WorkItem,
} from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import type { Session } from '../../platform/auth/session.ts';
import { forbidden, notFound } from '../../platform/http/errors.ts';
import { ensureDeployed } from './deploy.ts';
import { doneRows, findInstance, historyOf, latestDefinitions, leaveById, sendRows, takesPart, todoCount, todoRows } from './repo.ts';

/** What the workbench, the forms and the timeline read (docs/workflow.md). */

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/** 1天2小时3分4秒, leading zero units left out; under a second is 0秒. */
export function formatDuration(ms: number): string {
  let seconds = Math.max(0, Math.floor(ms / 1000));
  const parts: string[] = [];
  for (const [unit, size] of [
    ['天', 86400],
    ['小时', 3600],
    ['分', 60],
  ] as const) {
    const n = Math.floor(seconds / size);
    seconds -= n * size;
    if (n > 0 || parts.length > 0) parts.push(`${n}${unit}`);
  }
  parts.push(`${seconds}秒`);
  return parts.join('');
}

export async function listApprovers(ctx: AppContext): Promise<WorkflowUser[]> {
  return ctx.db.selectFrom('sysUser').select(['id', 'account', 'name']).where('status', '=', 1).orderBy('account').execute();
}

export async function startableProcesses(ctx: AppContext): Promise<ProcessDefinition[]> {
  await ensureDeployed(ctx);
  const rows = await latestDefinitions(ctx.db);
  return rows.map((d) => ({ processDefinitionId: d.id, processDefinitionKey: d.processKey, name: d.name, version: d.version, deployTime: iso(d.deployTime)! }));
}

type Row = Omit<WorkItem, 'createTime' | 'endTime' | 'taskId' | 'comment'> & {
  taskId?: string | null;
  comment?: string | null;
  createTime: Date;
  endTime: Date | null;
};
const toItem = (row: Row): WorkItem => ({
  ...row,
  taskId: row.taskId ?? null,
  comment: row.comment ?? null,
  createTime: iso(row.createTime)!,
  endTime: iso(row.endTime),
});

export async function workLists(ctx: AppContext, session: Session, kind: 'todo' | 'done' | 'send', paging: PageQuery): Promise<Page<WorkItem>> {
  const query = kind === 'todo' ? todoRows(ctx.db, session.userId) : kind === 'done' ? doneRows(ctx.db, session.userId) : sendRows(ctx.db, session.userId);
  const [rows, count] = await Promise.all([
    query
      .limit(paging.size)
      .offset((paging.current - 1) * paging.size)
      .execute(),
    ctx.db
      .selectFrom(query.as('list'))
      .select(({ fn }) => fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { records: (rows as Row[]).map(toItem), total: Number(count.n), current: paging.current, size: paging.size };
}

export const countTodo = (ctx: AppContext, session: Session) => todoCount(ctx.db, session.userId);

/** The applicant, everyone the task passed through, and administrators may read an instance. */
export async function readableInstance(ctx: AppContext, session: Session, processInstanceId: string) {
  const instance = await findInstance(ctx.db, processInstanceId);
  if (!instance) throw notFound(workflowMessages.instanceNotFound);
  if (!session.isAdministrator && instance.starterId !== session.userId && !(await takesPart(ctx.db, instance.id, session.userId))) {
    throw forbidden(workflowMessages.noAccess);
  }
  return instance;
}

export async function historyFlowList(ctx: AppContext, session: Session, processInstanceId: string): Promise<HistoryFlow[]> {
  await readableInstance(ctx, session, processInstanceId);
  const rows = await historyOf(ctx.db, processInstanceId);
  return rows.map((row) => ({
    id: row.id,
    assigneeName: row.assigneeName ?? '',
    createTime: iso(row.createTime)!,
    historyActivityName: row.activityName,
    // Start, withdraw and end rows are instants: no duration.
    historyActivityDurationTime:
      row.endTime && row.action !== 'start' && row.action !== 'end' && row.action !== 'withdraw'
        ? formatDuration(new Date(row.endTime).getTime() - new Date(row.createTime).getTime())
        : '',
    comment: row.comment,
    endTime: iso(row.endTime),
  }));
}

export async function leaveDetail(ctx: AppContext, session: Session, businessId: string): Promise<LeaveDetail> {
  const leave = await leaveById(ctx.db, businessId);
  if (!leave) throw notFound(workflowMessages.instanceNotFound);
  await readableInstance(ctx, session, leave.processInstanceId);
  const history = await historyOf(ctx.db, leave.processInstanceId);
  const open = await ctx.db
    .selectFrom('workflowHistory')
    .select(['id', 'assigneeId'])
    .where('instanceId', '=', leave.processInstanceId)
    .where('action', '=', 'task')
    .where('endTime', 'is', null)
    .executeTakeFirst();
  const decided = [...history].reverse().find((h) => h.action === 'approve' || h.action === 'reject');
  const current = open ? history.find((h) => h.id === open.id) : undefined;
  return {
    id: leave.id,
    processInstanceId: leave.processInstanceId,
    applicantName: leave.applicantName,
    startTime: leave.startTime,
    endTime: leave.endTime,
    reason: leave.reason,
    comment: decided?.comment ?? null,
    status: leave.status,
    flow: {
      assigneeName: (current ?? decided)?.assigneeName ?? '',
      taskId: open?.id ?? null,
      mine: open?.assigneeId === session.userId,
      withdrawable: leave.status === 'running' && leave.starterId === session.userId,
    },
  };
}
