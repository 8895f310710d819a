import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api.ts';
import { notifyError, notifySuccess, notifyWarning, setMessageApi, takeRecentSuccess } from './notify.ts';

type Shown = { kind: string; content: string; key: string };

/** A stand-in for antd's message API that records what would be shown. */
function recorder(): { shown: Shown[] } {
  const shown: Shown[] = [];
  const record = (kind: string) => (config: { content: string; key: string }) => void shown.push({ kind, ...config });
  setMessageApi({ success: record('success'), error: record('error'), warning: record('warning') } as unknown as Parameters<typeof setMessageApi>[0]);
  return { shown };
}

describe('toasts (shared/notify.ts)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-27T10:00:00Z'));
  });
  afterEach(() => {
    setMessageApi(null);
    vi.useRealTimers();
  });

  it('shows the same words twice at one moment once, and again a few seconds later as a message of its own', () => {
    const { shown } = recorder();
    notifySuccess('保存成功');
    notifySuccess('保存成功');
    expect(shown.map((s) => s.content)).toEqual(['保存成功']);

    // 3 s later the first one is fading out: the second must not reuse its key (it stayed hidden).
    vi.advanceTimersByTime(3000);
    notifySuccess('保存成功');
    expect(shown.map((s) => s.content)).toEqual(['保存成功', '保存成功']);
    expect(shown[1]!.key).not.toBe(shown[0]!.key);
  });

  it('a burst of identical calls, each within a second of the last, still shows one a second after the first shown', () => {
    const { shown } = recorder();
    for (let i = 0; i < 5; i++) {
      notifySuccess('保存成功');
      vi.advanceTimersByTime(400);
    }
    // At 0 ms shown; 400 and 800 ms left out; 1,200 ms shown again; 1,600 ms left out.
    expect(shown).toHaveLength(2);
  });

  it('keeps different words, kinds and failures apart; identical failures at once collapse', () => {
    const { shown } = recorder();
    notifySuccess('保存成功');
    notifyWarning('保存成功');
    notifyError(new ApiError(401, '请先登录', null));
    notifyError(new ApiError(401, '请先登录', null));
    notifySuccess('删除成功');
    expect(shown.map((s) => `${s.kind} ${s.content}`)).toEqual(['success 保存成功', 'warning 保存成功', 'error 请先登录', 'success 删除成功']);
  });

  it('remembers the last success for /login for a few seconds, once', () => {
    recorder();
    notifySuccess('已退出登录');
    expect(takeRecentSuccess()).toBe('已退出登录');
    expect(takeRecentSuccess()).toBeNull();
    notifySuccess('修改密码成功');
    vi.advanceTimersByTime(5000);
    expect(takeRecentSuccess()).toBeNull();
  });
});
