import type { Logger } from 'pino';
import { formatMessage, LEAVE_HANDLE_PATH, workflowMessages } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import type { JobDefinition } from '../../platform/jobs/boss.ts';
import { sendEmail } from '../../platform/notify/email.ts';
import { linkBaseUrl, loadNotifySettings } from '../system/index.ts';
import { claimNotice, failExhaustedNotices, finishNotice, noticeContent, owedNotices } from './notice-repo.ts';

/**
 * The approver's email (docs/workflow.md "Approver mail"): an outbox row is written with the step
 * (notice-repo.ts recordNotice); after the commit a job claims it, sends it through the mail
 * server of 系统设置 → 通知设置 and marks it sent, failed (with the mail server's words) or skipped.
 * A sweep at start and every minute enqueues the notices a killed process still owes.
 */

export const WORKFLOW_NOTICE_JOB = 'workflow-notice';
export const WORKFLOW_NOTICE_SWEEP_JOB = 'workflow-notice-sweep';

export const noticeMessages = {
  noEmail: '审批人没有邮箱地址，未发送',
  noMailServer: '未配置邮件服务器（系统设置 → 通知设置），未发送',
  taskClosed: '任务已处理或申请已撤回，不再发送',
  interrupted: '发送中服务多次异常退出，已停止重试',
};

type Log = (message: string) => void;

const leaveLines = (leave: { startTime: string | null; endTime: string | null; reason: string | null }) =>
  leave.reason === null ? [] : [`开始时间：${leave.startTime ?? ''}`, `结束时间：${leave.endTime ?? ''}`, `请假理由：${leave.reason}`];

/**
 * Sends one notice if this caller wins its claim (runId: the job run, or null in a process
 * without a queue). Never throws for a mail problem: the notice records it, the step stays done.
 */
export async function deliverNotice(ctx: AppContext, id: string, runId: string | null, log: Log): Promise<'sent' | 'failed' | 'skipped' | 'not-claimed'> {
  if (!(await claimNotice(ctx.db, id, runId))) return 'not-claimed';
  const finish = async (status: 'sent' | 'failed' | 'skipped', error: string | null) => {
    await finishNotice(ctx.db, id, runId, status, error);
    if (error) log(`workflow: notice ${id} ${status}: ${error}`);
    return status;
  };
  const notice = await noticeContent(ctx.db, id);
  if (!notice || notice.taskEndTime !== null || notice.instanceStatus !== 'running') return finish('skipped', noticeMessages.taskClosed);
  if (!notice.email) return finish('failed', noticeMessages.noEmail);
  const settings = await loadNotifySettings(ctx);
  if (!settings.smtpHost || !settings.smtpFrom) return finish('failed', noticeMessages.noMailServer);
  const base = await linkBaseUrl(ctx, ctx.selfUrl);
  const query = new URLSearchParams({ taskId: notice.taskId, processInstanceId: notice.instanceId, businessId: notice.businessId });
  try {
    await sendEmail(
      {
        host: settings.smtpHost,
        port: settings.smtpPort,
        secure: settings.smtpSecure,
        user: settings.smtpUser,
        password: settings.smtpPassword,
        from: settings.smtpFrom,
      },
      notice.email,
      {
        title: formatMessage(workflowMessages.mailTitle, { starter: notice.starterName, process: notice.processName }),
        lines: leaveLines(notice),
        ...(base ? { link: `${base.replace(/\/$/, '')}${LEAVE_HANDLE_PATH}?${query.toString()}` } : {}),
        images: [],
      },
    );
  } catch (error) {
    return finish('failed', (error as Error).message);
  }
  return finish('sent', null);
}

/**
 * After the step commits: a job per notice (singletonKey: the notice, so a sweep's copy of a job
 * still queued is dropped). A process without a queue (API-only tests) sends in the background.
 */
export async function dispatchNotice(ctx: AppContext, id: string, log: Log): Promise<void> {
  try {
    if (ctx.jobs) await ctx.jobs.send(WORKFLOW_NOTICE_JOB, { noticeId: id }, { singletonKey: id });
    else void deliverNotice(ctx, id, null, log).catch((error: unknown) => log(`workflow: notice ${id} not sent: ${(error as Error).message}`));
  } catch (error) {
    // The row stays pending: the next sweep enqueues it.
    log(`workflow: notice ${id} not enqueued: ${(error as Error).message}`);
  }
}

/** Enqueues every notice still owed (left by a killed process, or a failed enqueue). Returns how many. */
export async function sweepNotices(ctx: AppContext, log: Log): Promise<number> {
  await failExhaustedNotices(ctx.db, noticeMessages.interrupted);
  const owed = await owedNotices(ctx.db);
  for (const id of owed) await dispatchNotice(ctx, id, log);
  if (owed.length > 0) log(`workflow: ${owed.length} approver notice(s) enqueued again`);
  return owed.length;
}

export function workflowJobs(ctx: AppContext, logger: Logger): JobDefinition[] {
  const log: Log = (message) => logger.warn(message);
  const send: JobDefinition<{ noticeId: string }> = {
    name: WORKFLOW_NOTICE_JOB,
    policy: 'short',
    // The claim records the run: when its process dies the recovery sweep removes the run, and the
    // pg-boss retry (or the next notice sweep) takes the claim over.
    handle: async (data, run) => {
      await deliverNotice(ctx, data.noticeId, run?.id ?? null, log);
    },
  };
  const sweep: JobDefinition = {
    name: WORKFLOW_NOTICE_SWEEP_JOB,
    cron: '* * * * *',
    policy: 'singleton',
    runAtStart: true,
    handle: async () => {
      await sweepNotices(ctx, log);
    },
  };
  return [send as JobDefinition, sweep];
}
