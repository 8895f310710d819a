import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, renderHook, screen, waitFor, within } from '@testing-library/react';
import { ORDER_EXPORT_MAX_POLLS, ORDER_EXPORT_POLL_MS, type OrderExportTask } from '@shutu/contracts';
import { mockFetch, ok, type Call } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { HistoryTable } from './HistoryTable.tsx';
import { ReminderModal } from './ReminderModal.tsx';
import { ResultTable } from './ResultTable.tsx';
import { usePollTask, type PollOutcome } from './usePollTask.ts';

/** The order-data export page's parts (issue 20): history, result pages, the reminder, the poll. */
const url = (c: Call) => new URL(c.url, 'http://x');
const task = (taskId: number, status: number, label: string, extra: Partial<OrderExportTask> = {}): OrderExportTask => ({
  taskId,
  mcomment: null,
  fetchedNums: status === 9 ? 1234 : null,
  createTime: '2026-11-20T02:00:00Z',
  creator: '管理员',
  taskStatus1: status,
  statusLabel: label,
  progress: status === 9 ? 1234 : 0,
  utype: 2,
  cusertype: 1,
  conditionJson: '{}',
  errorMsg: null,
  history: [],
  fileExpired: false,
  ...extra,
});

describe('order-data export page parts', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('history: status labels, rows, download only at 9, search by name and creation days', async () => {
    const calls = mockFetch((c) => {
      if (url(c).pathname === '/api/orderexport/page')
        return ok({
          records: [
            task(2, 9, '文件生成完成', { mcomment: '营业厅千号订购' }),
            task(3, 4, '数据提取中'),
            task(4, 6, '数据提取失败', { errorMsg: '服务重启或异常退出，任务已中断，请重试' }),
          ],
          total: 3,
          current: 1,
          size: 10,
        });
      return undefined;
    });
    renderWithApp(<HistoryTable onView={() => undefined} />, { path: '/cdp/orderexport' });
    const done = (await screen.findByText('营业厅千号订购')).closest('tr')!;
    expect(within(done).getByText('文件生成完成')).toBeTruthy();
    expect(within(done).getByText('1,234')).toBeTruthy();
    expect(
      within(done)
        .getByRole('button', { name: /下\s*载/ })
        .hasAttribute('disabled'),
    ).toBe(false);
    const running = screen.getByText('未命名（fetch_order_3）').closest('tr')!;
    expect(within(running).getByText('数据提取中')).toBeTruthy();
    expect(
      within(running)
        .getByRole('button', { name: /下\s*载/ })
        .hasAttribute('disabled'),
    ).toBe(true);
    expect(
      within(running)
        .getByRole('button', { name: /查看结果/ })
        .hasAttribute('disabled'),
    ).toBe(true);
    const failed = screen.getByText('未命名（fetch_order_4）').closest('tr')!;
    expect(within(failed).getByText('数据提取失败').getAttribute('title')).toBe('服务重启或异常退出，任务已中断，请重试');

    const name = screen.getByPlaceholderText('任务名称');
    fireEvent.change(name, { target: { value: ' 千号 ' } });
    fireEvent.keyDown(name, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(calls.some((c) => url(c).searchParams.get('mcomment') === '千号')).toBe(true));
  });

  it('result: the chosen columns with their Chinese titles, 10 a page by default, the total', async () => {
    const calls = mockFetch((c) => {
      if (url(c).pathname === '/api/orderexport/pageresult')
        return ok({
          columns: [
            { column: 'userid', title: '手机号' },
            { column: 'shortname', title: '产品名称' },
          ],
          records: [{ userid: '13800000000', shortname: '视频会员月包' }],
          total: 21,
          current: 1,
          size: 10,
        });
      return undefined;
    });
    renderWithApp(<ResultTable taskId={7} />, { path: '/cdp/orderexport' });
    expect(await screen.findByText('视频会员月包')).toBeTruthy();
    const titles = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(titles).toEqual(expect.arrayContaining(['手机号', '产品名称']));
    expect(screen.getByText('21 条')).toBeTruthy();
    const first = calls.find((c) => url(c).pathname === '/api/orderexport/pageresult')!;
    expect([url(first).searchParams.get('taskId'), url(first).searchParams.get('size')]).toEqual(['7', '10']);
  });

  it('reminder: asks for a task name and saves it trimmed', async () => {
    const onSave = vi.fn();
    renderWithApp(<ReminderModal open saving={false} onSave={onSave} onCancel={() => undefined} />);
    expect(await screen.findByText('数据计算提醒')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('请输入任务名称')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('任务名称'), { target: { value: '  月度导出 ' } });
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(onSave).toHaveBeenCalledWith('月度导出'));
  });

  it('poll: once a second; at 9 done; after 10 polls without an end, slow', async () => {
    vi.useFakeTimers();
    let status = 4;
    const calls = mockFetch((c) => (url(c).pathname === '/api/orderexport/details' ? ok(task(5, status, '')) : undefined));
    localStorage.setItem('shutu.token', 'test-token');
    const ends: PollOutcome[] = [];
    const { result } = renderHook(() => usePollTask((o) => ends.push(o)));
    act(() => result.current.start(5));
    for (let i = 0; i < ORDER_EXPORT_MAX_POLLS; i++) await act(() => vi.advanceTimersByTimeAsync(ORDER_EXPORT_POLL_MS));
    expect(calls).toHaveLength(ORDER_EXPORT_MAX_POLLS);
    expect(ends.map((e) => [e.kind, e.taskId])).toEqual([['slow', 5]]);
    expect(result.current.polling).toBeNull();

    status = 9;
    act(() => result.current.start(5));
    await act(() => vi.advanceTimersByTimeAsync(ORDER_EXPORT_POLL_MS));
    expect(ends.at(-1)).toMatchObject({ kind: 'done', taskId: 5 });
    expect(calls).toHaveLength(ORDER_EXPORT_MAX_POLLS + 1);
  });
});
