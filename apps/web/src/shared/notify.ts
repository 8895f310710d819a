import type { App } from 'antd';
import { ApiError } from './api.ts';
import { msg } from './messages.ts';

type MessageInstance = ReturnType<typeof App.useApp>['message'];

let messageApi: MessageInstance | null = null;

/** Identical messages this close together (several queries failing on one 401, two saves answering at once) show once. */
const SAME_MOMENT_MS = 1000;
const lastShown = new Map<string, number>();

/** Set by <NotifierBridge/> inside antd's <App>, so code outside components can toast. */
export function setMessageApi(api: MessageInstance | null): void {
  messageApi = api;
  // A new App has shown nothing yet.
  lastShown.clear();
}

export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return msg.serverError;
}

/**
 * Shows a message unless the same one was shown a moment ago. Each message has a key of its own:
 * with one key per text, a message shown again while the last one of that text was fading out
 * (3 s later, its leave animation) stayed hidden — antd's motion list took the fading one back
 * and then finished removing it (perm.e2e.ts saw 保存成功 never appear).
 */
function show(kind: 'success' | 'error' | 'warning', content: string): void {
  const now = Date.now();
  const id = `${kind}:${content}`;
  const last = lastShown.get(id);
  // Measured from the message shown, not from the last one left out: a burst of identical calls
  // (a menu saved after each of several quick edits) shows one now and one again a second on.
  // (A clock set back shows the message: a moment is measured forwards.)
  if (last !== undefined && now >= last && now - last < SAME_MOMENT_MS) return;
  for (const [key, at] of lastShown) if (Math.abs(now - at) >= SAME_MOMENT_MS) lastShown.delete(key);
  lastShown.set(id, now);
  messageApi?.[kind]({ content, key: `${id}:${now}` });
}

/** Shows a failure once: identical messages arriving together (several queries on one 401) collapse. */
export function notifyError(error: unknown): void {
  show('error', errorText(error));
}

/** The last success message and when: /login, drawn without antd, shows it after a sign-out (修改密码成功, 已退出登录). */
let recentSuccess: { content: string; at: number } | null = null;
const RECENT_MS = 3000;

export function notifySuccess(content: string): void {
  recentSuccess = { content, at: Date.now() };
  show('success', content);
}

/** A success message shown in the last seconds (taken once), for a page outside antd's App to show again. */
export function takeRecentSuccess(): string | null {
  const recent = recentSuccess;
  recentSuccess = null;
  return recent && Date.now() - recent.at < RECENT_MS ? recent.content : null;
}

export function notifyWarning(content: string): void {
  show('warning', content);
}
