import type { HistoryFlow, LeaveDetail, LeaveStart, Page, ProcessDefinition, WorkflowUser, WorkItem } from '@shutu/contracts';
import { WORKFLOW_PATHS as P } from '@shutu/contracts';
import { getToken, http, request } from '../../shared/api.ts';

export const workflowKeys = {
  all: ['workflow'] as const,
  users: ['workflow', 'users'] as const,
  startable: ['workflow', 'startable'] as const,
  list: (kind: WorkListKind, current = 1, size = 10) => ['workflow', 'list', kind, current, size] as const,
  todoCount: ['workflow', 'todoCount'] as const,
  detail: (businessId: string) => ['workflow', 'detail', businessId] as const,
  history: (processInstanceId: string) => ['workflow', 'history', processInstanceId] as const,
};

export type WorkListKind = 'todo' | 'send' | 'done';
const LIST_PATHS: Record<WorkListKind, string> = { todo: P.todoList, send: P.sendList, done: P.doneList };

export const fetchUsers = () => http.get<WorkflowUser[]>(P.userList);
export const fetchStartable = () => http.get<ProcessDefinition[]>(P.startList);
export const fetchWorkList = (kind: WorkListKind, current = 1, size = 10) => http.get<Page<WorkItem>>(LIST_PATHS[kind], { current, size });
export const fetchTodoCount = () => http.get<number>(P.todoCount);
export const fetchLeaveDetail = (businessId: string) => http.get<LeaveDetail>(P.leaveDetail, { businessId });
export const fetchHistory = (processInstanceId: string) => http.get<HistoryFlow[]>(P.historyFlowList, { processInstanceId });

/** Returns the server's msg with the data (the forms show it). */
export const startLeave = (body: LeaveStart) => request<{ success: boolean; msg: string }>(P.leaveStart, { method: 'POST', body });
export const completeTask = (body: { taskId: string; processInstanceId: string; comment: string; flag?: 'ok' }) =>
  request<null>(P.completeTask, { method: 'POST', body });
export const transferTask = (body: { taskId: string; assigneeId: number; comment?: string }) => request<null>(P.transferTask, { method: 'POST', body });
export const withdraw = (processInstanceId: string) => request<null>(P.withdraw, { method: 'POST', body: { processInstanceId } });

/** The diagram is an image behind the session: fetched with the token, shown through an object URL. */
export async function fetchDiagram(processInstanceId: string): Promise<Blob> {
  const token = getToken();
  const response = await fetch(`${P.diagramView}?processInstanceId=${encodeURIComponent(processInstanceId)}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) throw new Error(String(response.status));
  return response.blob();
}
