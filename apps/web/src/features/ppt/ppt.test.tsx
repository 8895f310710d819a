import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { Ppt } from '@shutu/contracts';
import { mockFetch, ok, fail, type Call } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { board, page } from '../board/test-fixtures.ts';
import { GRANT_TABS } from '../../app/grant-tabs.tsx';
import { moveItem } from './editor-parts.tsx';
import { FavouriteArchiveDialog } from './FavouriteArchiveDialog.tsx';
import PptEditorPage from './PptEditorPage.tsx';
import { PptGrantTab } from './PptGrantTab.tsx';
import { playPath } from './PptListPage.tsx';

const source: Ppt = {
  id: 7,
  ppName: '季度经营回顾',
  ppMonth: '2025-03',
  cateId: 0,
  visualIds: [5, 6],
  settings: { autoPlay: true, interval: 15 },
  visualType: 0,
  sourceId: null,
  publicStatus: 1,
  createUserId: 2,
  createUserName: '张三',
  createTime: '2026-01-02T03:04:05.000Z',
  updateTime: '2026-01-02T03:04:05.000Z',
  editable: false,
};

const boards = [board(5, '销售概览'), board(6, '订单明细报表'), board(8, '产品与用户分析')];
const saveButton = () => screen.getByTestId('ppt-save');
const selectedTitles = () => screen.queryAllByTestId('ppt-selected-item').map((li) => li.getAttribute('data-title'));

function serveEditor() {
  return mockFetch((c: Call) => {
    const url = new URL(c.url, 'http://x');
    if (url.pathname === '/api/board/boards') return ok(page(url.searchParams.get('kind') === 'visual' ? boards : []));
    if (url.pathname === '/api/ppt/slideshows' && c.method === 'POST') {
      const body = c.body as { ppName: string };
      if (!body.ppName) return fail(400, '请填写幻灯片名称');
      return ok({ ...source, ...body, id: 21 }, '已保存');
    }
    return undefined;
  });
}

describe('slideshow editor', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('moves items and builds play paths with the mode flags', () => {
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b'], 0, 5)).toEqual(['a', 'b']);
    expect(playPath({ id: 3, visualType: 0 }, false)).toBe('/newbi/ppt/view/3/0');
    expect(playPath({ id: 3, visualType: 1 }, true)).toBe('/fullpowerpoint/3/0?mine=1');
    expect(playPath({ id: 3, visualType: 2 }, false)).toBe('/newbi/ppt/view/3/0?archive=1');
    expect(GRANT_TABS.ppt).toBe(PptGrantTab);
  });

  it('asks for a name and a board, and saves the boards in the chosen order', async () => {
    const calls = serveEditor();
    renderWithApp(<PptEditorPage />, { path: '/newbi/ppt/edit' });
    await screen.findByText('销售概览', {}, { timeout: 5000 });

    fireEvent.click(saveButton());
    expect(await screen.findByText('请填写幻灯片名称')).toBeTruthy();
    fireEvent.change(screen.getByTestId('ppt-name-input'), { target: { value: '月度经营汇报' } });
    fireEvent.click(saveButton());
    expect(await screen.findByText('请至少选择一个大屏')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.click(screen.getByLabelText('添加 销售概览'));
    fireEvent.click(screen.getByLabelText('添加 订单明细报表'));
    fireEvent.click(screen.getByLabelText('添加 产品与用户分析'));
    expect(selectedTitles()).toEqual(['销售概览', '订单明细报表', '产品与用户分析']);
    fireEvent.click(screen.getByLabelText('上移 产品与用户分析'));
    fireEvent.click(screen.getByLabelText('移除 销售概览'));
    expect(selectedTitles()).toEqual(['产品与用户分析', '订单明细报表']);

    fireEvent.click(saveButton());
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const body = calls.find((c) => c.method === 'POST')!.body;
    expect(body).toMatchObject({ ppName: '月度经营汇报', visualIds: [8, 6], visualType: 0, ppMonth: null, settings: { autoPlay: false, interval: 10 } });
  });
});

describe('favourite and archive dialog', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  function serveDialog() {
    return mockFetch((c: Call) => {
      const url = new URL(c.url, 'http://x');
      if (url.pathname === '/api/ppt/categories' && c.method === 'GET') {
        return ok([
          { id: 0, classifyName: '默认分类' },
          { id: 3, classifyName: '重点关注' },
        ]);
      }
      if (url.pathname === '/api/ppt/slideshows' && c.method === 'POST') return ok({ ...source, ...(c.body as object), id: 30 }, '已归档');
      return undefined;
    });
  }

  it('requires a name and archives with the slideshow’s month into 默认分类 by default', async () => {
    const calls = serveDialog();
    const done = vi.fn();
    renderWithApp(<FavouriteArchiveDialog open mode="archive" source={source} onClose={() => undefined} onDone={done} />);
    expect(await screen.findByText('归档幻灯片')).toBeTruthy();
    const name = screen.getByTestId('ppt-dialog-name') as HTMLInputElement;
    expect(name.value).toBe('季度经营回顾');
    await screen.findByText('默认分类');

    fireEvent.change(name, { target: { value: ' ' } });
    fireEvent.click(screen.getByTestId('ppt-dialog-ok'));
    expect(await screen.findByText('请填写幻灯片名称')).toBeTruthy();

    fireEvent.change(name, { target: { value: '三月归档' } });
    fireEvent.click(screen.getByTestId('ppt-dialog-ok'));
    await waitFor(() => expect(done).toHaveBeenCalled());
    const body = calls.find((c) => c.method === 'POST')!.body;
    expect(body).toMatchObject({ ppName: '三月归档', visualType: 2, sourceId: 7, cateId: 0, ppMonth: '2025-03', visualIds: [5, 6] });
    expect(await screen.findByText('已归档')).toBeTruthy();
  });

  it('favourites without a month field', async () => {
    const calls = serveDialog();
    renderWithApp(<FavouriteArchiveDialog open mode="favourite" source={source} onClose={() => undefined} />);
    expect(await screen.findByText('收藏幻灯片')).toBeTruthy();
    expect(screen.queryByTestId('ppt-dialog-month')).toBeNull();
    fireEvent.click(screen.getByTestId('ppt-dialog-ok'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({ ppName: '季度经营回顾', visualType: 1, sourceId: 7 });
  });
});
