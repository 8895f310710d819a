import { z } from 'zod';
import { workflowMessages } from './workflow-constants.ts';

export * from './workflow-constants.ts';

/**
 * Approval workflow (issue 23; spec 3 §2 "Leave-request start form", "Leave-approval page", §3, §5,
 * §7 "Workflow"; docs/workflow.md): processes are BPMN files run by bpmn-engine on the server. The two
 * GET paths the spec names (diagram-view, user-list) are served exactly there; the rest follow the
 * same BladeX naming.
 */
export const WORKFLOW_PATHS = {
  userList: '/api/blade-user/user-list',
  diagramView: '/api/blade-flow/process/diagram-view',
  historyFlowList: '/api/blade-flow/process/history-flow-list',
  startList: '/api/blade-flow/work/start-list',
  todoList: '/api/blade-flow/work/todo-list',
  todoCount: '/api/blade-flow/work/todo-count',
  sendList: '/api/blade-flow/work/send-list',
  doneList: '/api/blade-flow/work/done-list',
  completeTask: '/api/blade-flow/work/complete-task',
  transferTask: '/api/blade-flow/work/transfer-task',
  withdraw: '/api/blade-flow/work/withdraw',
  leaveStart: '/api/blade-desk/process/leave/start-process',
  leaveDetail: '/api/blade-desk/process/leave/detail',
} as const;

/** History timeline activity names that are ours (the engine's come from the BPMN file). */
export const WORKFLOW_ACTIVITY_NAMES = {
  withdraw: '申请人撤回',
  transfer: '转交',
} as const;

export const WORKFLOW_STATUSES = ['running', 'approved', 'rejected', 'withdrawn'] as const;
export type WorkflowStatus = (typeof WORKFLOW_STATUSES)[number];
export const WORKFLOW_STATUS_LABELS: Record<WorkflowStatus, string> = {
  running: '审批中',
  approved: '已同意',
  rejected: '已驳回',
  withdrawn: '已撤回',
};

/** yyyy-MM-dd HH:mm:ss (spec 3 §3 "Workflow"). */
export const WORKFLOW_TIME_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;

const requiredText = (message: string) => z.string({ message }).trim().min(1, { message });
const time = (message: string) => requiredText(message).regex(WORKFLOW_TIME_PATTERN, { message: workflowMessages.timeFormat });

export const leaveStartSchema = z
  .object({
    processDefinitionId: z.string().min(1, { message: workflowMessages.definitionNotFound }),
    taskUser: z.coerce.number({ message: workflowMessages.approverRequired }).int().positive({ message: workflowMessages.approverRequired }),
    startTime: time(workflowMessages.startRequired),
    endTime: time(workflowMessages.endRequired),
    reason: requiredText(workflowMessages.reasonRequired).max(500, { message: workflowMessages.reasonTooLong }),
  })
  .refine((v) => v.endTime >= v.startTime, { message: workflowMessages.endBeforeStart, path: ['endTime'] });
export type LeaveStart = z.infer<typeof leaveStartSchema>;

export const completeTaskSchema = z.object({
  taskId: z.string().min(1, { message: workflowMessages.taskNotFound }),
  processInstanceId: z.string().min(1, { message: workflowMessages.instanceNotFound }),
  comment: requiredText(workflowMessages.commentRequired).max(500, { message: workflowMessages.commentTooLong }),
  /** 'ok' approves; absent rejects (spec 3 §4 "Workflow"). */
  flag: z.literal('ok').optional(),
});
export type CompleteTask = z.infer<typeof completeTaskSchema>;

export const transferTaskSchema = z.object({
  taskId: z.string().min(1, { message: workflowMessages.taskNotFound }),
  assigneeId: z.coerce.number({ message: workflowMessages.transferTargetRequired }).int().positive({ message: workflowMessages.transferTargetRequired }),
  comment: z.string().trim().max(500, { message: workflowMessages.commentTooLong }).optional(),
});
export type TransferTask = z.infer<typeof transferTaskSchema>;

export const withdrawSchema = z.object({
  processInstanceId: z.string().min(1, { message: workflowMessages.instanceNotFound }),
  comment: z.string().trim().max(500, { message: workflowMessages.commentTooLong }).optional(),
});

export const processInstanceQuerySchema = z.object({ processInstanceId: z.string().min(1, { message: workflowMessages.instanceNotFound }) });
export const businessIdQuerySchema = z.object({ businessId: z.string().min(1, { message: workflowMessages.instanceNotFound }) });

export const workflowUserSchema = z.object({ id: z.number(), account: z.string(), name: z.string() });
export type WorkflowUser = z.infer<typeof workflowUserSchema>;

export const processDefinitionSchema = z.object({
  processDefinitionId: z.string(),
  processDefinitionKey: z.string(),
  name: z.string(),
  version: z.number(),
  deployTime: z.string(),
});
export type ProcessDefinition = z.infer<typeof processDefinitionSchema>;

/** One row of the workbench lists: a task (todo, done) or a request (send). */
export const workItemSchema = z.object({
  taskId: z.string().nullable(),
  processInstanceId: z.string(),
  processDefinitionId: z.string(),
  processDefinitionName: z.string(),
  businessId: z.string(),
  starterName: z.string(),
  activityName: z.string().nullable(),
  assigneeName: z.string().nullable(),
  status: z.enum(WORKFLOW_STATUSES),
  createTime: z.string(),
  endTime: z.string().nullable(),
  comment: z.string().nullable(),
});
export type WorkItem = z.infer<typeof workItemSchema>;

export const historyFlowSchema = z.object({
  id: z.string(),
  assigneeName: z.string(),
  createTime: z.string(),
  historyActivityName: z.string(),
  /** Human-readable, e.g. 2小时5分 (empty while open). */
  historyActivityDurationTime: z.string(),
  comment: z.string().nullable(),
  endTime: z.string().nullable(),
});
export type HistoryFlow = z.infer<typeof historyFlowSchema>;

export const leaveDetailSchema = z.object({
  id: z.string(),
  processInstanceId: z.string(),
  applicantName: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  reason: z.string(),
  comment: z.string().nullable(),
  status: z.enum(WORKFLOW_STATUSES),
  flow: z.object({
    assigneeName: z.string(),
    /** The open task (null once decided or withdrawn). */
    taskId: z.string().nullable(),
    /** The signed-in user may decide or transfer it. */
    mine: z.boolean(),
    /** The signed-in user started it and it is still running: 撤回 is offered. */
    withdrawable: z.boolean(),
  }),
});
export type LeaveDetail = z.infer<typeof leaveDetailSchema>;

export const leaveStartResultSchema = z.object({ success: z.boolean(), msg: z.string(), processInstanceId: z.string(), businessId: z.string() });
