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

export function notifySuccess(content: string): void {
  messageApi?.success({ content, key: `ok:${content}` });
}

export function notifyWarning(content: string): void {
  messageApi?.warning({ content, key: `warn:${content}` });
}
