import type { OrderExportSettings, OrderExportTask, OrderOptionNode, OrderQueryForm, Page } from '@shutu/contracts';
import { API } from '@shutu/contracts';
import { download, http, request, upload } from '../../shared/api.ts';
import { om } from './messages.ts';

const P = API.orderExport;

export interface ResultPage {
  columns: { column: string; title: string }[];
  records: Record<string, string | number | null>[];
  total: number;
  current: number;
  size: number;
}
export interface HistoryParams {
  current: number;
  size: number;
  mcomment?: string;
  startTime?: string;
  endTime?: string;
}

export const orderKeys = {
  all: ['orderexport'] as const,
  options: ['orderexport', 'options'] as const,
  history: (p: HistoryParams) => ['orderexport', 'history', p] as const,
  result: (taskId: number, current: number, size: number) => ['orderexport', 'result', taskId, current, size] as const,
};

export const fetchMaxRows = () => http.get<number>(P.maxrows);
export const fetchChannels = () => http.get<{ channels: OrderOptionNode[]; belongs: string[] }>(P.channels);
export const fetchAreaTree = () => http.get<OrderOptionNode[]>(P.areaTree);
export const fetchProductTree = () => http.get<OrderOptionNode[]>(P.areapRoductTree);
export const fetchHistory = (p: HistoryParams) => http.get<Page<OrderExportTask>>(P.page, { ...p });
export const fetchTask = (taskId: number) => http.get<OrderExportTask>(P.details, { taskId });
export const fetchResult = (taskId: number, current: number, size: number) => http.get<ResultPage>(P.pageresult, { taskId, current, size });
export const fetchSettings = () => http.get<OrderExportSettings>(P.settings);

/** add (JSON) or addtxt (multipart: the txt and the form as JSON text): the task id. */
export function submitQuery(form: OrderQueryForm, file: File | null) {
  if (!file) return request<number>(P.add, { method: 'POST', body: form });
  const data = new FormData();
  data.append('form', JSON.stringify(form));
  data.append('file', file);
  return upload<number>(P.addtxt, data);
}
export const renameTask = (taskId: number, taskName: string, conditionJson?: string) =>
  request<OrderExportTask>(P.updatename, { method: 'POST', body: { taskId, taskName, conditionJson } });
export const downloadTask = (task: Pick<OrderExportTask, 'taskId' | 'mcomment'>) =>
  download(`${P.download}?taskId=${task.taskId}`, `${task.mcomment || `fetch_order_${task.taskId}`}.csv`, om.downloadFailed);
