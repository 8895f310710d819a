import type { App } from 'antd';
import { ApiError } from './api.ts';
import { msg } from './messages.ts';

type MessageInstance = ReturnType<typeof App.useApp>['message'];

let messageApi: MessageInstance | null = null;

/** Set by <NotifierBridge/> inside antd's <App>, so code outside components can toast. */
export function setMessageApi(api: MessageInstance | null): void {
  messageApi = api;
}

export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return msg.serverError;
}

/** Shows a failure once: identical messages arriving together (several queries on one 401) collapse. */
export function notifyError(error: unknown): void {
  const content = errorText(error);
  messageApi?.error({ content, key: `err:${content}` });
}

/** The last success message and when: /login, drawn without antd, shows it after a sign-out (修改密码成功, 已退出登录). */
let recentSuccess: { content: string; at: number } | null = null;
const RECENT_MS = 3000;

export function notifySuccess(content: string): void {
  recentSuccess = { content, at: Date.now() };
  messageApi?.success({ content, key: `ok:${content}` });
}

/** A success message shown in the last seconds (taken once), for a page outside antd's App to show again. */
export function takeRecentSuccess(): string | null {
  const recent = recentSuccess;
  recentSuccess = null;
  return recent && Date.now() - recent.at < RECENT_MS ? recent.content : null;
}

export function notifyWarning(content: string): void {
  messageApi?.warning({ content, key: `warn:${content}` });
}
