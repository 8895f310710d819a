import { formatMessage, LEAVE_HANDLE_PATH, workflowMessages } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { sendEmail } from '../../platform/notify/email.ts';
import { linkBaseUrl, loadNotifySettings } from '../system/index.ts';

/**
 * Email to the approver when a task arrives (started or transferred to them), through the mail
 * server of 系统设置 → 通知设置. Best effort: the step is already committed, so a missing address,
 * an unset server or a refused mail is logged and never undoes it.
 */
export interface TaskNotice {
  taskId: string;
  processInstanceId: string;
  businessId: string;
  processName: string;
  starterName: string;
  assigneeId: number;
  lines: string[];
}

export async function notifyAssignee(ctx: AppContext, notice: TaskNotice, log: (message: string) => void): Promise<void> {
  try {
    const user = await ctx.db.selectFrom('sysUser').select(['email']).where('id', '=', notice.assigneeId).executeTakeFirst();
    if (!user?.email) return log(`workflow: approver ${notice.assigneeId} has no email address`);
    const settings = await loadNotifySettings(ctx);
    if (!settings.smtpHost || !settings.smtpFrom) return log('workflow: no mail server configured');
    const base = await linkBaseUrl(ctx, ctx.selfUrl);
    const query = new URLSearchParams({ taskId: notice.taskId, processInstanceId: notice.processInstanceId, businessId: notice.businessId });
    await sendEmail(
      {
        host: settings.smtpHost,
        port: settings.smtpPort,
        secure: settings.smtpSecure,
        user: settings.smtpUser,
        password: settings.smtpPassword,
        from: settings.smtpFrom,
      },
      user.email,
      {
        title: formatMessage(workflowMessages.mailTitle, { starter: notice.starterName, process: notice.processName }),
        lines: notice.lines,
        ...(base ? { link: `${base.replace(/\/$/, '')}${LEAVE_HANDLE_PATH}?${query.toString()}` } : {}),
        images: [],
      },
    );
  } catch (error) {
    log(`workflow: mail to approver failed: ${(error as Error).message}`);
  }
}
