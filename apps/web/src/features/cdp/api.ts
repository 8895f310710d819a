import type { DataTask, Fan, JoinApp, OfficialAccount, Page, PlatformType, PlatformTypeInput, PullLog, TaskData } from '@shutu/contracts';
import { API } from '@shutu/contracts';
import { http, request } from '../../shared/api.ts';

const P = API.cdp;

export const cdpKeys = {
  all: ['cdp'] as const,
  platforms: ['cdp', 'platforms'] as const,
  joins: (p: object) => ['cdp', 'joins', p] as const,
  join: (id: number) => ['cdp', 'join', id] as const,
  tasks: (applyId: number) => ['cdp', 'tasks', applyId] as const,
  taskData: (p: object) => ['cdp', 'taskData', p] as const,
  logs: (p: object) => ['cdp', 'logs', p] as const,
  accounts: ['cdp', 'accounts'] as const,
  fans: (p: object) => ['cdp', 'fans', p] as const,
};

export const fetchPlatforms = () => http.get<PlatformType[]>(P.platforms);
export const savePlatform = (input: PlatformTypeInput) => request<PlatformType>(P.platform, { method: 'POST', body: input });
export const deletePlatform = (id: number) => request<null>(P.platformDelete.replace(':id', String(id)), { method: 'DELETE' });
export const fetchJoins = (p: { current: number; size: number; appName?: string }) => http.get<Page<JoinApp>>(P.joinPage, p);
export const fetchJoin = (id: number) => http.get<JoinApp>(P.joinInfo, { id });
/** POST to the platform type's access URL: the authorisation link. */
export const fetchAuthLink = (platform: PlatformType) => http.post<string>(platform.accessUrl, { platformDictId: platform.id });
export const finishJoin = (platformDictId: number, authCode: string) => http.post<{ id: number }>(P.joinCallback, { platformDictId, auth_code: authCode });
export const fetchTasks = (applyId: number) => http.get<Page<DataTask>>(P.taskList, { applyId, current: 1, size: 100 });
export const fetchTaskData = (p: { applyId: number; interfaceDictId: number; current: number; size: number }) => http.get<TaskData>(P.taskData, p);
export const updateTask = (id: number, unit: string, value: number) => request<DataTask>(P.taskUpdate, { method: 'POST', body: { id, unit, value } });
export const refreshTask = (jobId: string) => request<null>(P.taskRefresh, { method: 'POST', body: { jobId } });
export const fetchLogs = (p: { applyId: number; taskId?: number; startDate?: string; endDate?: string; current: number; size: number }) =>
  http.get<Page<PullLog>>(P.logList, p);
export const fetchAccounts = () => http.get<OfficialAccount[]>(P.accounts);
export const fetchFans = (p: { page: number; size: number; applyId?: number }) => http.get<Page<Fan>>(P.fans, p);
export const saveFan = (fan: { applyId: number; openid: string; nickname: string; sex: number; headimgurl: string }) =>
  request<Fan>(P.fan, { method: 'PUT', body: fan });
