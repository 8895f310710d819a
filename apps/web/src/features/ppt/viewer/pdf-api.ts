import type { PptPdfTask, PptPrint } from '@shutu/contracts';
import { API, apiPath } from '@shutu/contracts';
import { ApiError, getToken, http, request } from '../../../app/api.ts';
import { vm } from './messages.ts';

/** PDF export of a slideshow: start (the task), poll it, download the file. */
export const startPdfExport = (ppid: number, body: PptPrint) => request<PptPdfTask>(apiPath(API.ppt.pdf, { id: ppid }), { method: 'POST', body });
export const fetchPdfTask = (taskId: string) => http.get<PptPdfTask>(apiPath(API.ppt.pdfTask, { taskId }));
export const pdfTaskKey = (taskId: string) => ['ppt', 'pdf-task', taskId] as const;
/** How often a running export is asked for its progress. */
export const PDF_POLL_MS = 1000;

/**
 * Saves the finished PDF. The download needs the bearer token, which a plain link cannot
 * send: fetched as a blob with the token header (the page's own ?token= when it has one) and
 * saved through an object URL under the task's file name.
 */
export async function downloadPdf(task: Pick<PptPdfTask, 'id' | 'fileName'>, pageToken: string | null = null): Promise<void> {
  const headers: Record<string, string> = {};
  const token = pageToken ?? getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(apiPath(API.ppt.pdfFile, { taskId: task.id }), { headers });
  } catch {
    throw new ApiError(0, vm.downloadFailed);
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { msg?: string } | null;
    throw new ApiError(response.status, body?.msg || vm.downloadFailed);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = task.fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked later: the browser reads the blob after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
