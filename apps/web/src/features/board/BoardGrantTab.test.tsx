import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { BoardKind } from '@shutu/contracts';
import { mockFetch, ok, type Call } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { GRANT_TABS } from '../../app/grant-tabs.tsx';
import { BoardGrantTab, firstCategory, ReportGrantTab, VisualGrantTab } from './BoardGrantTab.tsx';
import { board, boardCategories, page } from './test-fixtures.ts';

const sales = board(5, '销售驾驶舱', { categoryId: 1 });
const east = board(6, '华东日报', { categoryId: 2, type: 'quick', publicStatus: 0 });
const books = board(7, '财务月报', { categoryId: 3 });

/** Answers like the server: grants kept across calls, per category with its sub-categories. */
function serve(kind: BoardKind, initial: number[] = [6]) {
  let granted = [...initial];
  const inCategory = (id: number) => [sales, east, books].filter((b) => b.categoryId === id || (id === 1 && b.categoryId === 2));
  return mockFetch((c: Call) => {
    const url = new URL(c.url, 'http://x');
    if (url.pathname === '/api/board/categories') return ok(boardCategories(kind));
    if (url.pathname === '/api/board/boards') return ok(page(inCategory(Number(url.searchParams.get('categoryId')))));
    if (url.pathname === '/api/board/auth/11' && c.method === 'GET') {
      const ids = inCategory(Number(url.searchParams.get('reportCategoryId'))).map((b) => b.id);
      return ok(granted.filter((id) => ids.includes(id)));
    }
    if (url.pathname === '/api/board/auth/11' && c.method === 'PUT') {
      const body = c.body as { reportCategoryId: number; selfReportIdList: number[] };
      const ids = inCategory(body.reportCategoryId).map((b) => b.id);
      granted = [...granted.filter((id) => !ids.includes(id)), ...body.selfReportIdList];
      return ok(body.selfReportIdList, '保存成功');
    }
    return undefined;
  });
}

const cards = () => screen.getAllByTestId('grant-board');
const ticked = () =>
  cards()
    .filter((c) => c.classList.contains('is-checked'))
    .map((c) => c.getAttribute('data-title'));
const saveButton = () => screen.getByText(/保\s*存/).closest('button')!;

describe('board grant tab', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('is registered for 可视化大屏 and 自助报表', () => {
    expect(GRANT_TABS.visual).toBe(VisualGrantTab);
    expect(GRANT_TABS.report).toBe(ReportGrantTab);
    expect(firstCategory(boardCategories())).toBe(1);
    expect(firstCategory([])).toBeNull();
  });

  it('opens on the first category, ticks the group grants, and saves the category selection', async () => {
    const calls = serve('report');
    renderWithApp(<BoardGrantTab kind="report" groupId={11} groupName="华东销售组" />);
    await screen.findByText('销售驾驶舱', {}, { timeout: 5000 });
    await waitFor(() => expect(ticked()).toEqual(['华东日报']));
    expect(screen.getByTestId('grant-board-count').textContent).toBe('已选 1 / 共 2');
    const list = calls.find((c) => c.url.startsWith('/api/board/boards?'))!;
    expect(list.url).toContain('kind=report');
    expect(list.url).toContain('categoryId=1');
    expect(list.url).toContain('size=10000');
    expect(calls.find((c) => c.url.startsWith('/api/board/auth/11'))!.url).toContain('reportCategoryId=1');
    // The category menu has no 全部.
    expect(screen.getAllByTestId('board-category').map((n) => n.textContent)).toEqual(['经营分析', '华东大区', '财务']);

    fireEvent.click(screen.getByText(/全\s*选/).closest('button')!);
    expect(ticked()).toEqual(['销售驾驶舱', '华东日报']);
    fireEvent.click(saveButton());
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.url).toBe('/api/board/auth/11');
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ kind: 'report', reportCategoryId: 1, selfReportIdList: [5, 6] });
  });

  it('清空 then save sends an empty list for the category; another category loads its own grants', async () => {
    const calls = serve('visual', [6, 7]);
    renderWithApp(<BoardGrantTab kind="visual" groupId={11} groupName="华东销售组" />);
    await screen.findByText('销售驾驶舱', {}, { timeout: 5000 });
    await waitFor(() => expect(ticked()).toEqual(['华东日报']));
    fireEvent.click(screen.getByText(/清\s*空/).closest('button')!);
    expect(ticked()).toEqual([]);
    fireEvent.click(saveButton());
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ kind: 'visual', reportCategoryId: 1, selfReportIdList: [] });

    fireEvent.click(screen.getAllByTestId('board-category').find((n) => n.textContent === '财务')!);
    await screen.findByText('财务月报');
    await waitFor(() => expect(ticked()).toEqual(['财务月报']));
    // Clicking a card toggles it.
    fireEvent.click(cards()[0]!);
    expect(ticked()).toEqual([]);
  });

  it('filters the cards by title', async () => {
    serve('visual');
    renderWithApp(<BoardGrantTab kind="visual" groupId={11} groupName="华东销售组" />);
    await screen.findByText('销售驾驶舱', {}, { timeout: 5000 });
    fireEvent.change(screen.getByPlaceholderText('报表名称'), { target: { value: '华东' } });
    await waitFor(() => expect(cards().map((c) => c.getAttribute('data-title'))).toEqual(['华东日报']));
  });
});
