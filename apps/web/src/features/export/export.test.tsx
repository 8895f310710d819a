import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { ExportTask, TaskEntry } from '@shutu/contracts';
import { mockFetch, ok, type Call } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { ExportRecordPopover } from './ExportRecordPopover.tsx';
import { ExportTasksPage } from './ExportTasksPage.tsx';

const task = (id: number, fileName: string, extra: Partial<ExportTask> = {}): ExportTask => ({
  id,
  boardId: 7,
  boardTitle: '销售大屏',
  chartKey: 'd1',
  fileName,
  format: 'xlsx',
  status: 'done',
  progress: 100,
  rowCount: 1234,
  totalRows: 1234,
  fileSize: 52_428,
  errMsg: null,
  createTime: '2026-03-04T05:06:07.000Z',
  startTime: '2026-03-04T05:06:08.000Z',
  finishTime: '2026-03-04T05:06:09.000Z',
  ...extra,
});
/** A row of 任务管理 as the server lists it (a chart export unless `kind`). */
const entry = (t: ExportTask, extra: Partial<TaskEntry> = {}): TaskEntry => ({
  kind: 'chart',
  id: String(t.id),
  fileName: t.fileName,
  source: t.boardTitle,
  sourceId: t.boardId,
  rowCount: t.rowCount,
  totalRows: t.totalRows,
  pages: null,
  status: t.status,
  progress: t.progress,
  fileSize: t.fileSize,
  errMsg: t.errMsg,
  createTime: t.createTime,
  finishTime: t.finishTime,
  ...extra,
});
const page = (records: ExportTask[]) => ({ records, total: records.length, current: 1, size: 5 });
const url = (c: Call) => new URL(c.url, 'http://x');

describe('export record popover', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('exports with the typed file name and the chart’s links, then lists the new record', async () => {
    let records = [task(1, '订单明细.xlsx')];
    const calls = mockFetch((c) => {
      if (url(c).pathname === '/api/export/records') return ok(page(records));
      if (url(c).pathname === '/api/export/tasks' && c.method === 'POST') {
        records = [task(2, '华东订单.xlsx', { status: 'running', progress: 40, finishTime: null }), ...records];
        return ok(records[0], '已提交导出任务');
      }
      return undefined;
    });
    const links = [{ fieldId: 3, function: 'in' as const, values: ['北京'] }];
    renderWithApp(
      <ExportRecordPopover boardId={7} chartKey="d1" chartTitle="订单明细" links={links}>
        <button type="button">导出</button>
      </ExportRecordPopover>,
    );
    fireEvent.click(screen.getByText('导出'));
    await screen.findByText('导出记录');
    await screen.findByText('订单明细.xlsx');
    const recordCall = calls.find((c) => url(c).pathname === '/api/export/records')!;
    expect(Object.fromEntries(url(recordCall).searchParams)).toEqual({ boardId: '7', chartKey: 'd1', current: '1', size: '5' });
    expect(document.querySelector('[data-testid="export-download"]')?.textContent).toBe('下载');
    expect(screen.getByText('任务管理').closest('a')?.getAttribute('href')).toBe('/newbi/mine/export');

    const input = document.querySelector<HTMLInputElement>('[data-testid="export-file-name"]')!;
    expect(input.value).toBe('订单明细');
    fireEvent.change(input, { target: { value: '华东订单' } });
    fireEvent.click(screen.getByText('点击导出'));
    await screen.findByText('已提交导出任务');
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({ boardId: 7, chartKey: 'd1', fileName: '华东订单', format: 'xlsx', links, params: {} });
    await screen.findByText('华东订单.xlsx');
    expect(document.querySelector('[data-testid="export-progress"]')?.textContent).toContain('40%');
  });

  it('exports as CSV when the user picks CSV: the name ends in .csv', async () => {
    const calls = mockFetch((c) => {
      if (url(c).pathname === '/api/export/records') return ok(page([]));
      if (url(c).pathname === '/api/export/tasks' && c.method === 'POST')
        return ok(task(5, '各省金额.csv', { format: 'csv', status: 'waiting' }), '已提交导出任务');
      return undefined;
    });
    renderWithApp(
      <ExportRecordPopover boardId={7} chartKey="b1" chartTitle="各省金额">
        <button type="button">导出</button>
      </ExportRecordPopover>,
    );
    fireEvent.click(screen.getByText('导出'));
    await screen.findByText('暂无导出记录');
    expect(screen.getByText('.xlsx')).toBeTruthy();
    fireEvent.click(screen.getByText('CSV'));
    expect(await screen.findByText('.csv')).toBeTruthy();
    fireEvent.click(screen.getByText('点击导出'));
    await screen.findByText('已提交导出任务');
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({ chartKey: 'b1', fileName: '各省金额', format: 'csv' });
  });

  it('says so when there are no records', async () => {
    mockFetch((c) => (url(c).pathname === '/api/export/records' ? ok(page([])) : undefined));
    renderWithApp(
      <ExportRecordPopover boardId={7} chartKey="d1" chartTitle="订单明细">
        <button type="button">导出</button>
      </ExportRecordPopover>,
    );
    fireEvent.click(screen.getByText('导出'));
    await screen.findByText('暂无导出记录');
  });
});

describe('export tasks page', () => {
  let created: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    created = vi.fn(() => 'blob:export');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
  });
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  const tasks = [
    entry(task(3, '华东订单.xlsx', { status: 'running', progress: 55, rowCount: 5000, totalRows: 9000, fileSize: null, finishTime: null })),
    entry(task(2, '订单明细.xlsx')),
    entry(task(1, '失败的导出.xlsx', { status: 'failed', progress: 0, rowCount: 0, fileSize: null, errMsg: '没有此大屏权限', boardTitle: null })),
  ];
  /** A slideshow PDF as 任务管理 lists it. */
  const pdf = (id: string, extra: Partial<TaskEntry> = {}): TaskEntry =>
    entry(task(0, '月度汇报.pdf', { fileSize: null }), {
      kind: 'pdf',
      id,
      source: '月度汇报',
      sourceId: 12,
      rowCount: null,
      totalRows: null,
      pages: 3,
      ...extra,
    });

  it('lists my tasks with status, progress, rows and size, filters by status and downloads with the token', async () => {
    const calls = mockFetch((c) => {
      const u = url(c);
      if (u.pathname === '/api/export/all-tasks' && c.method === 'GET') {
        const status = u.searchParams.get('status');
        const records = tasks.filter((t) => !status || t.status === status);
        return { status: 200, body: { code: 200, success: true, msg: '', data: { records, total: records.length, current: 1, size: 10 } } };
      }
      if (u.pathname === '/api/export/tasks/2/download') return ok('xlsx-bytes');
      return undefined;
    });
    renderWithApp(<ExportTasksPage />, { path: '/newbi/mine/export' });
    await screen.findByText('订单明细.xlsx');
    const rows = Array.from(document.querySelectorAll('[data-testid="export-task-row"]'));
    expect(rows.map((r) => r.getAttribute('data-status'))).toEqual(['running', 'done', 'failed']);
    expect(rows[0]!.textContent).toContain('55%');
    expect(rows[0]!.textContent).toContain('5,000 / 9,000');
    expect(rows[1]!.textContent).toContain('已完成');
    expect(rows[1]!.textContent).toContain('1,234');
    expect(rows[1]!.textContent).toContain('51.2 KB');
    expect(rows[1]!.textContent).toContain('销售大屏');
    expect(rows[2]!.textContent).toContain('没有此大屏权限');
    expect(rows[2]!.textContent).toContain('报表已删除');
    // Only finished tasks can be downloaded.
    const downloads = rows.map((r) => r.querySelector<HTMLButtonElement>('[data-testid="task-download"]')!);
    expect(downloads.map((b) => b.disabled)).toEqual([true, false, true]);

    fireEvent.click(downloads[1]!);
    await waitFor(() => expect(created).toHaveBeenCalled());
    const download = calls.find((c) => c.url === '/api/export/tasks/2/download')!;
    expect(download.headers.Authorization).toBe('Bearer test-token');

    // A task runs: the list asks again by itself.
    await waitFor(() => expect(calls.filter((c) => url(c).pathname === '/api/export/all-tasks' && c.method === 'GET').length).toBeGreaterThan(1), {
      timeout: 5000,
    });

    fireEvent.mouseDown(document.querySelector('[data-testid="task-status-filter"] .ant-select-selector, [data-testid="task-status-filter"]')!);
    fireEvent.click(await screen.findByTitle('失败'));
    await waitFor(() => expect(document.querySelectorAll('[data-testid="export-task-row"]').length).toBe(1));
    expect(url(calls.filter((c) => c.method === 'GET' && url(c).pathname === '/api/export/all-tasks').at(-1)!).searchParams.get('status')).toBe('failed');
  });

  it('retries a failed task (e.g. one a restart interrupted): only failed tasks offer 重试', async () => {
    const interrupted = entry(task(3, '中断订单.xlsx', { status: 'failed', progress: 6, errMsg: '服务重启或异常退出，任务已中断，请重试', finishTime: null }));
    let records = [tasks[1]!, interrupted];
    const calls = mockFetch((c) => {
      const u = url(c);
      if (u.pathname === '/api/export/all-tasks' && c.method === 'GET') return ok({ records, total: records.length, current: 1, size: 10 });
      if (u.pathname === '/api/export/tasks/3/retry' && c.method === 'POST') {
        records = [tasks[1]!, { ...interrupted, status: 'waiting', progress: 0, errMsg: null }];
        return ok(records[1], '已重新提交导出任务');
      }
      return undefined;
    });
    renderWithApp(<ExportTasksPage />, { path: '/newbi/mine/export' });
    await screen.findByText('服务重启或异常退出，任务已中断，请重试');
    const retries = document.querySelectorAll<HTMLButtonElement>('[data-testid="task-retry"]');
    expect(retries).toHaveLength(1);
    fireEvent.click(retries[0]!);
    await screen.findByText('已重新提交导出任务');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/api/export/tasks/3/retry']);
    await waitFor(() => expect(document.querySelector('[data-testid="task-retry"]')).toBeNull());
  });

  it('deletes a task after confirmation', async () => {
    let records = tasks.slice(1, 2);
    const calls = mockFetch((c) => {
      const u = url(c);
      if (u.pathname === '/api/export/all-tasks' && c.method === 'GET') return ok({ records, total: records.length, current: 1, size: 10 });
      if (u.pathname === '/api/export/tasks/2' && c.method === 'DELETE') {
        records = [];
        return ok(null, '删除成功');
      }
      return undefined;
    });
    renderWithApp(<ExportTasksPage />, { path: '/newbi/mine/export' });
    await screen.findByText('订单明细.xlsx');
    fireEvent.click(document.querySelector('[data-testid="task-delete"]')!);
    await screen.findByText('确定删除该导出任务及其文件?');
    fireEvent.click(document.querySelector<HTMLElement>('.ant-modal-confirm-btns .ant-btn-primary')!);
    await screen.findByText('删除成功');
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/export/tasks/2')).toBe(true);
    await waitFor(() => expect(screen.queryByText('订单明细.xlsx')).toBeNull());
  });

  it('lists slideshow PDFs beside exports: their type, pages and slideshow; 下载 and 重试 go to the PDF task', async () => {
    const failedPdf = pdf('0000-pdf-failed', { status: 'failed', progress: 33, errMsg: '服务重启或异常退出，任务已中断，请重试', finishTime: null });
    let records = [pdf('0000-pdf-done'), tasks[1]!, failedPdf];
    const calls = mockFetch((c) => {
      const u = url(c);
      if (u.pathname === '/api/export/all-tasks' && c.method === 'GET') return ok({ records, total: records.length, current: 1, size: 10 });
      if (u.pathname === '/api/ppt/pdf-tasks/0000-pdf-done/file') return ok('pdf-bytes');
      if (u.pathname === '/api/ppt/pdf-tasks/0000-pdf-failed/retry' && c.method === 'POST') {
        records = [records[0]!, records[1]!, { ...failedPdf, status: 'waiting', progress: 0, errMsg: null }];
        return ok({ id: '0000-pdf-failed', status: 'waiting' }, '已重新提交导出任务');
      }
      return undefined;
    });
    renderWithApp(<ExportTasksPage />, { path: '/newbi/mine/export' });
    await screen.findByText('服务重启或异常退出，任务已中断，请重试');
    const rows = Array.from(document.querySelectorAll('[data-testid="export-task-row"]'));
    expect(rows.map((r) => r.getAttribute('data-kind'))).toEqual(['pdf', 'chart', 'pdf']);
    expect(rows[0]!.textContent).toContain('幻灯片PDF');
    expect(rows[0]!.textContent).toContain('3 页');
    expect(rows[0]!.querySelector('a')?.getAttribute('href')).toBe('/newbi/ppt/view/12/0');
    expect(rows[1]!.textContent).toContain('图表导出');

    fireEvent.click(rows[0]!.querySelector<HTMLButtonElement>('[data-testid="task-download"]')!);
    await waitFor(() => expect(created).toHaveBeenCalled());
    expect(calls.some((c) => c.url === '/api/ppt/pdf-tasks/0000-pdf-done/file')).toBe(true);

    fireEvent.click(rows[2]!.querySelector<HTMLButtonElement>('[data-testid="task-retry"]')!);
    await screen.findByText('已重新提交导出任务');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/api/ppt/pdf-tasks/0000-pdf-failed/retry']);
    await waitFor(() => expect(document.querySelector('[data-testid="task-retry"]')).toBeNull());
  });
});
