import type { MarketDailyRow, MarketFunnelRow, MarketKeepRow, MarketTask, Page } from '@shutu/contracts';
import { API } from '@shutu/contracts';
import { http } from '../../shared/api.ts';

const P = API.market;

export interface TaskListParams {
  current: number;
  size: number;
  missionName?: string;
  taskType?: number;
}

export const marketKeys = {
  all: ['market'] as const,
  tasks: (p: TaskListParams) => ['market', 'tasks', p] as const,
  daily: (taskId: string, start: string, end: string) => ['market', 'daily', taskId, start, end] as const,
  funnel: (taskId: string, start: string, end: string) => ['market', 'funnel', taskId, start, end] as const,
  keep: (taskId: string, start: string, end: string) => ['market', 'keep', taskId, start, end] as const,
};

export const fetchTasks = (p: TaskListParams) => http.get<Page<MarketTask>>(P.tasks, { ...p });
/** Member-activate-task (type 1) or Member-receive-task (type 3). */
export const fetchDaily = (task: MarketTask, start: string, end: string) =>
  http.get<MarketDailyRow[]>(task.taskType === 1 ? P.activate : P.receive, { task_id: task.taskId, start, end });
export const fetchFunnel = (task: MarketTask, start: string, end: string) =>
  http.get<MarketFunnelRow[]>(P.chart, { task_id: task.taskId, channel: task.channelId, start, end });
export const fetchKeep = (task: MarketTask, start: string, end: string) =>
  http.get<MarketKeepRow[]>(P.keep, { task_id: task.taskId, channel: task.channelId, start, end });
