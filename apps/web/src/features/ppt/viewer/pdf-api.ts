import type { PptPdfTask, PptPrint } from '@shutu/contracts';
import { API, apiPath } from '@shutu/contracts';
import { download, http, request } from '../../../shared/api.ts';
import { vm } from './messages.ts';

/** PDF export of a slideshow: start (the task), poll it, download the file. */
export const startPdfExport = (ppid: number, body: PptPrint) => request<PptPdfTask>(apiPath(API.ppt.pdf, { id: ppid }), { method: 'POST', body });
export const fetchPdfTask = (taskId: string) => http.get<PptPdfTask>(apiPath(API.ppt.pdfTask, { taskId }));
export const pdfTaskKey = (taskId: string) => ['ppt', 'pdf-task', taskId] as const;
/** How often a running export is asked for its progress. */
export const PDF_POLL_MS = 1000;

/** Saves the finished PDF, fetched with the page's own ?token= when it has one, else the session's. */
export const downloadPdf = (task: Pick<PptPdfTask, 'id' | 'fileName'>, pageToken: string | null = null): Promise<void> =>
  download(apiPath(API.ppt.pdfFile, { taskId: task.id }), task.fileName, vm.downloadFailed, pageToken ?? undefined);
