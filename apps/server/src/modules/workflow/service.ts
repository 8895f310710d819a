import { randomUUID } from 'node:crypto';
import { WORKFLOW_ACTIVITY_NAMES, workflowMessages, type CompleteTask, type LeaveStart, type TransferTask } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import type { Session } from '../../platform/auth/session.ts';
import { conflict, fieldError, forbidden, notFound } from '../../platform/http/errors.ts';
import { ensureDeployed } from './deploy.ts';
import { signalTask, startProcess, type EngineStep } from './engine.ts';
import { recordNotice } from './notice-repo.ts';
import { dispatchNotice } from './notify.ts';
import { activeUser, findDefinition, findInstance, findTask } from './repo.ts';

/**
 * The workflow's commands (docs/workflow.md): start a leave request, complete, transfer and
 * withdraw. Each runs in one transaction that locks the task and its instance, runs the engine
 * step from the stored state and stores the new state with the queried columns — so a second
 * completion of the same task, from this process or another, finds it closed and is refused.
 */

type Log = (message: string) => void;

const END_STATUS: Record<string, 'approved' | 'rejected'> = { approvedEnd: 'approved', rejectedEnd: 'rejected' };

function mergeFinished(stored: string, step: EngineStep): string {
  return JSON.stringify([...(JSON.parse(stored) as string[]), ...step.finished]);
}

export async function startLeave(ctx: AppContext, session: Session, input: LeaveStart, log: Log) {
  await ensureDeployed(ctx);
  const definition = await findDefinition(ctx.db, input.processDefinitionId);
  if (!definition) throw notFound(workflowMessages.definitionNotFound);
  const approver = await activeUser(ctx.db, input.taskUser);
  if (!approver) throw fieldError('taskUser', workflowMessages.approverNotFound);
  if (approver.id === session.userId) throw fieldError('taskUser', workflowMessages.selfApprover);
  const starter = await activeUser(ctx.db, session.userId);
  if (!starter) throw forbidden();

  const step = await startProcess(definition.xml, definition.id, { starterId: session.userId, approverId: approver.id });
  const task = step.waiting[0];
  if (!task) throw new Error(`${definition.id}: the process did not stop at a user task`);
  const instanceId = randomUUID();
  const businessId = randomUUID();
  const taskId = randomUUID();
  const noticeId = await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('workflowLeave')
      .values({
        id: businessId,
        applicantId: session.userId,
        approverId: approver.id,
        startTime: input.startTime,
        endTime: input.endTime,
        reason: input.reason,
      })
      .execute();
    await trx
      .insertInto('workflowInstance')
      .values({
        id: instanceId,
        definitionId: definition.id,
        businessId,
        starterId: session.userId,
        status: 'running',
        currentActivityId: task.id,
        currentActivityName: task.name,
        assigneeId: approver.id,
        state: JSON.stringify(step.state),
        finishedActivities: JSON.stringify(step.finished),
      })
      .execute();
    const now = new Date();
    await trx
      .insertInto('workflowHistory')
      .values([
        {
          id: randomUUID(),
          instanceId,
          activityId: 'start',
          activityName: '发起申请',
          assigneeId: session.userId,
          action: 'start',
          comment: null,
          createTime: now,
          endTime: now,
        },
        {
          id: taskId,
          instanceId,
          activityId: task.id,
          activityName: task.name,
          assigneeId: approver.id,
          action: 'task',
          comment: null,
          createTime: new Date(now.getTime() + 1),
          endTime: null,
        },
      ])
      .execute();
    return recordNotice(trx, { instanceId, taskId, assigneeId: approver.id, kind: 'started' });
  });
  await dispatchNotice(ctx, noticeId, log);
  return { success: true, msg: workflowMessages.started, processInstanceId: instanceId, businessId };
}

/** The open task, checked: it exists, belongs to the instance, is the caller's and still open. */
async function openTaskOf(trx: AppContext['db'], session: Session, taskId: string, processInstanceId?: string) {
  const task = await findTask(trx, taskId, true);
  if (!task || (processInstanceId !== undefined && task.instanceId !== processInstanceId)) throw notFound(workflowMessages.taskNotFound);
  if (task.action !== 'task' || task.endTime !== null) throw conflict(workflowMessages.taskDone);
  if (task.assigneeId !== session.userId) throw forbidden(workflowMessages.notAssignee);
  const instance = await findInstance(trx, task.instanceId, true);
  if (!instance) throw notFound(workflowMessages.instanceNotFound);
  if (instance.status !== 'running') throw conflict(workflowMessages.taskDone);
  return { task, instance };
}

export async function completeTask(ctx: AppContext, session: Session, input: CompleteTask): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const { task, instance } = await openTaskOf(trx, session, input.taskId, input.processInstanceId);
    const approve = input.flag === 'ok';
    const step = await signalTask(JSON.parse(instance.state), instance.definitionId, task.activityId, { pass: approve, comment: input.comment });
    const now = new Date();
    const closed = await trx
      .updateTable('workflowHistory')
      .set({ action: approve ? 'approve' : 'reject', comment: input.comment, endTime: now })
      .where('id', '=', task.id)
      .where('endTime', 'is', null)
      .executeTakeFirst();
    if (closed.numUpdatedRows !== 1n) throw conflict(workflowMessages.taskDone);
    const next = step.waiting[0] ?? null;
    const endStatus = step.endEventId ? END_STATUS[step.endEventId] : undefined;
    if (step.ended && !endStatus) throw new Error(`${instance.definitionId}: unknown end event ${step.endEventId ?? ''}`);
    if (step.ended && step.endEventId) {
      const endName = step.endEventId === 'approvedEnd' ? '已同意' : '已驳回';
      await trx
        .insertInto('workflowHistory')
        .values({
          id: randomUUID(),
          instanceId: instance.id,
          activityId: step.endEventId,
          activityName: endName,
          assigneeId: null,
          action: 'end',
          comment: null,
          createTime: new Date(now.getTime() + 1),
          endTime: new Date(now.getTime() + 1),
        })
        .execute();
    }
    const updated = await trx
      .updateTable('workflowInstance')
      .set({
        state: JSON.stringify(step.state),
        status: step.ended ? (endStatus ?? 'rejected') : 'running',
        currentActivityId: next?.id ?? null,
        currentActivityName: next?.name ?? null,
        assigneeId: step.ended ? null : instance.assigneeId,
        finishedActivities: mergeFinished(instance.finishedActivities, step),
        revision: instance.revision + 1,
        updateTime: now,
        endTime: step.ended ? now : null,
      })
      .where('id', '=', instance.id)
      .where('revision', '=', instance.revision)
      .executeTakeFirst();
    if (updated.numUpdatedRows !== 1n) throw conflict(workflowMessages.taskDone);
  });
}

export async function transferTask(ctx: AppContext, session: Session, input: TransferTask, log: Log): Promise<void> {
  if (input.assigneeId === session.userId) throw fieldError('assigneeId', workflowMessages.transferToSelf);
  const target = await activeUser(ctx.db, input.assigneeId);
  if (!target) throw fieldError('assigneeId', workflowMessages.approverNotFound);
  const noticeId = await ctx.db.transaction().execute(async (trx) => {
    const { task, instance } = await openTaskOf(trx, session, input.taskId);
    const now = new Date();
    const comment = `${WORKFLOW_ACTIVITY_NAMES.transfer}给 ${target.name}${input.comment ? `：${input.comment}` : ''}`;
    await trx.updateTable('workflowHistory').set({ action: 'transfer', comment, endTime: now }).where('id', '=', task.id).execute();
    const taskId = randomUUID();
    await trx
      .insertInto('workflowHistory')
      .values({
        id: taskId,
        instanceId: instance.id,
        activityId: task.activityId,
        activityName: task.activityName,
        assigneeId: target.id,
        action: 'task',
        comment: null,
        createTime: new Date(now.getTime() + 1),
        endTime: null,
      })
      .execute();
    await trx
      .updateTable('workflowInstance')
      .set({ assigneeId: target.id, revision: instance.revision + 1, updateTime: now })
      .where('id', '=', instance.id)
      .execute();
    return recordNotice(trx, { instanceId: instance.id, taskId, assigneeId: target.id, kind: 'transferred' });
  });
  await dispatchNotice(ctx, noticeId, log);
}

export async function withdraw(ctx: AppContext, session: Session, processInstanceId: string, comment: string | undefined): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const instance = await findInstance(trx, processInstanceId, true);
    if (!instance) throw notFound(workflowMessages.instanceNotFound);
    if (instance.starterId !== session.userId) throw forbidden(workflowMessages.notStarter);
    if (instance.status !== 'running') throw conflict(workflowMessages.notRunning);
    const now = new Date();
    await trx
      .updateTable('workflowHistory')
      .set({ endTime: now })
      .where('instanceId', '=', instance.id)
      .where('action', '=', 'task')
      .where('endTime', 'is', null)
      .execute();
    await trx
      .insertInto('workflowHistory')
      .values({
        id: randomUUID(),
        instanceId: instance.id,
        activityId: 'withdraw',
        activityName: WORKFLOW_ACTIVITY_NAMES.withdraw,
        assigneeId: session.userId,
        action: 'withdraw',
        comment: comment || null,
        createTime: new Date(now.getTime() + 1),
        endTime: new Date(now.getTime() + 1),
      })
      .execute();
    // The engine's state stays as it was (waiting at the task): a withdrawn instance is never signalled again.
    await trx
      .updateTable('workflowInstance')
      .set({
        status: 'withdrawn',
        currentActivityId: null,
        currentActivityName: null,
        assigneeId: null,
        revision: instance.revision + 1,
        updateTime: now,
        endTime: now,
      })
      .where('id', '=', instance.id)
      .execute();
  });
}
