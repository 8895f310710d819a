import {
  ALERT_API,
  API,
  apiPath,
  type AlertBody,
  type AlertCheckLog,
  type AlertPreviewBody,
  type AlertRecord,
  type AlertCheckRows,
  type AlertRecipients,
  type AlertPushSettings,
  type AlertTimeConfig,
  type BoardListItem,
  type Page,
  type SmsProvider,
  type ResultField,
  type SmsTemplate,
  type SmsTemplateSave,
} from '@shutu/contracts';
import { http, request } from '../../shared/api.ts';

export const alertKeys = {
  all: ['alert'] as const,
  list: (current: number, size: number) => ['alert', 'list', current, size] as const,
  detail: (id: number) => ['alert', 'detail', id] as const,
  logs: (alertId: number | undefined, current: number) => ['alert', 'logs', alertId, current] as const,
};

export interface CubeOption {
  id: number;
  cubeName: string;
  workspaceName: string;
  dsName: string;
}
export interface FieldOption {
  id: number;
  columnTitle: string;
  dimensionType: 'WEIDU' | 'ZHIBIAO';
  viewDataType: 'STRING' | 'NUMBER' | 'DATETIME';
  aggregationType: string;
}
export const fetchAlerts = (current: number, size: number) => http.get<Page<AlertRecord>>(ALERT_API.alerts, { current, size });
export const fetchAlert = (id: number) => http.get<AlertRecord>(apiPath(ALERT_API.alert, { id }));
/** spec 3 §7: the save payload is Base64 of the JSON alert. */
export const saveAlert = (alert: AlertBody) =>
  request<AlertRecord>(ALERT_API.alerts, { method: 'POST', body: { payload: btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(alert)))) } });
export const deleteAlert = (id: number) => request<null>(apiPath(ALERT_API.alert, { id }), { method: 'DELETE' });
export const copyAlert = (id: number) => request<AlertRecord>(apiPath(ALERT_API.copy, { id }), { method: 'POST', body: {} });
export const checkAlertNow = (id: number) => request<null>(apiPath(ALERT_API.check, { id }), { method: 'POST', body: {} });
export const setAlertEnabled = (id: number, enableStatus: 0 | 1) => http.put<null>(apiPath(ALERT_API.enabled, { id }), { enableStatus });
export const fetchAlertLogs = (alertId: number | undefined, current: number, size: number) =>
  http.get<Page<AlertCheckLog>>(ALERT_API.logs, { alertId, current, size });
export const previewAlert = (body: AlertPreviewBody) =>
  request<{ dataList: Record<string, unknown>[]; fieldDict: ResultField[]; total: number | null; timeValue: string[] }>(ALERT_API.preview, {
    method: 'POST',
    body,
  });
export const fetchWindow = (config: AlertTimeConfig) => request<string[]>(ALERT_API.window, { method: 'POST', body: config });

export const fetchCubes = () => http.get<Page<CubeOption>>(API.dataset.cubes, { current: 1, size: 1000 });
export const fetchFields = (cubeId: number) => http.get<FieldOption[]>(apiPath(API.dataset.fields, { id: cubeId }));
export const fetchSmsTemplates = () => http.get<SmsTemplate[]>(ALERT_API.smsTemplates);
export const fetchCheckRows = (checkId: number) => http.get<AlertCheckRows>(apiPath(ALERT_API.logRows, { id: checkId }));
/** Boards (大屏) a message may attach: the caller's visible ones. */
export const fetchAttachableBoards = () => http.get<Page<BoardListItem>>(API.board.boards, { kind: 'visual', current: 1, size: 1000 });
export const fetchRecipients = () => http.get<AlertRecipients>(ALERT_API.recipients);

export const saveSmsTemplate = (body: SmsTemplateSave) => request<SmsTemplate>(ALERT_API.smsTemplates, { method: 'POST', body });
export const deleteSmsTemplate = (id: number) => request<null>(apiPath(ALERT_API.smsTemplate, { id }), { method: 'DELETE' });
export const fetchSmsProviders = () => http.get<SmsProvider[]>(ALERT_API.smsProviders);
export const saveSmsProvider = (body: SmsProvider) => request<SmsProvider>(ALERT_API.smsProviders, { method: 'PUT', body });
export const fetchPushSettings = () => http.get<AlertPushSettings>(ALERT_API.push);
export const savePushSettings = (body: AlertPushSettings) => request<AlertPushSettings>(ALERT_API.push, { method: 'PUT', body });
