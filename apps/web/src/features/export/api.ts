import type { ExportCreate, ExportStatus, ExportTask, Page, PptPdfTask, TaskEntry, TaskKind } from '@shutu/contracts';
import { API, apiPath, EXPORT_RECORD_PAGE_SIZE } from '@shutu/contracts';
import { download, http, request } from '../../shared/api.ts';
import { formatDateTime as formatInstant } from '../../shared/time.ts';
import { em } from './messages.ts';

export interface ExportTaskParams {
  current: number;
  size: number;
  status?: ExportStatus;
  kind?: TaskKind;
}

export const exportKeys = {
  all: ['export'] as const,
  records: (boardId: number, chartKey: string) => ['export', 'records', boardId, chartKey] as const,
  tasks: (p: ExportTaskParams) => ['export', 'tasks', p] as const,
  entries: (p: ExportTaskParams) => ['export', 'entries', p] as const,
};

/** Starts an export: the task (waiting) and the server's message (已提交导出任务). */
export const createExport = (body: ExportCreate) => request<ExportTask>(API.export.tasks, { method: 'POST', body });
/** The latest export records of a chart for the signed-in user (size 5). */
export const fetchExportRecords = (boardId: number, chartKey: string) =>
  http.get<Page<ExportTask>>(API.export.records, { boardId, chartKey, current: 1, size: EXPORT_RECORD_PAGE_SIZE });
export const fetchExportTasks = ({ current, size, status }: ExportTaskParams) => http.get<Page<ExportTask>>(API.export.tasks, { current, size, status });
export const deleteExportTask = (id: number) => request<null>(apiPath(API.export.task, { id }), { method: 'DELETE' });
/** Runs a failed task again (e.g. one a server restart interrupted): the task (waiting) and 已重新提交导出任务. */
export const retryExportTask = (id: number) => request<ExportTask>(apiPath(API.export.retry, { id }), { method: 'POST' });

/** 任务管理: chart exports and slideshow PDFs in one list (the server pages and sorts across both). */
export const fetchTaskEntries = ({ current, size, status, kind }: ExportTaskParams) =>
  http.get<Page<TaskEntry>>(API.export.allTasks, { current, size, status, kind });
/** Deletes a task of either kind with its file. */
export const deleteTaskEntry = (task: Pick<TaskEntry, 'kind' | 'id'>) =>
  task.kind === 'pdf' ? request<null>(apiPath(API.ppt.pdfTask, { taskId: task.id }), { method: 'DELETE' }) : deleteExportTask(Number(task.id));
/** Runs a failed task of either kind again, as the same task; the server's message (已重新提交导出任务). */
export const retryTaskEntry = (task: Pick<TaskEntry, 'kind' | 'id'>): Promise<{ msg: string }> =>
  task.kind === 'pdf' ? request<PptPdfTask>(apiPath(API.ppt.pdfRetry, { taskId: task.id }), { method: 'POST' }) : retryExportTask(Number(task.id));
/** Downloads a finished task of either kind. */
export const downloadTaskEntry = (task: Pick<TaskEntry, 'kind' | 'id' | 'fileName'>): Promise<void> =>
  task.kind === 'pdf'
    ? download(apiPath(API.ppt.pdfFile, { taskId: task.id }), task.fileName, em.downloadFailed)
    : downloadExport({ id: Number(task.id), fileName: task.fileName });

/** While any task is waiting or running, lists refresh this often. */
export const EXPORT_POLL_MS = 2000;
export const isActive = (task: Pick<ExportTask, 'status'>) => task.status === 'waiting' || task.status === 'running';
export const pollWhileActive = (page: Page<Pick<ExportTask, 'status'>> | undefined) => (page?.records.some(isActive) ? EXPORT_POLL_MS : false);

/** Downloads a finished export (fetched with the token: a plain link cannot send it). */
export const downloadExport = (task: Pick<ExportTask, 'id' | 'fileName'>): Promise<void> =>
  download(apiPath(API.export.download, { id: task.id }), task.fileName, em.downloadFailed);

/** 1.2 MB-style size of a file. */
export function formatFileSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '-';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** yyyy-MM-dd HH:mm:ss of an ISO time, on the installation's clock (shared/time.ts). */
export const formatDateTime = (iso: string | null | undefined): string => formatInstant(iso);
