import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import type { BoardKind } from '@shutu/contracts';
import { mockFetch, ok, type Call } from '../../test/fetch-mock.ts';
import { renderWithApp, user } from '../../test/render.tsx';
import { BoardListPage, moveId, typeLabel } from './BoardListPage.tsx';
import { board, boardCategories, group, page } from './test-fixtures.ts';

const sales = board(5, '销售驾驶舱', { backgroundUrl: '/api/board/thumbnails/5.png' });
const quick = board(6, '门店日报', { type: 'quick', publicStatus: 0 });
const theirs = board(7, '财务月报', { editable: false, createUserId: 9, createUserName: '王五', categoryId: 3, categoryName: '财务' });

function serve(kind: BoardKind = 'visual') {
  let order = [sales, quick, theirs];
  return mockFetch((c: Call) => {
    const url = new URL(c.url, 'http://x');
    if (url.pathname === '/api/board/categories') return ok(boardCategories(kind));
    if (url.pathname === '/api/board/boards' && c.method === 'GET') {
      const title = url.searchParams.get('title') ?? '';
      return ok(
        page(
          order.filter((b) => b.title.includes(title)),
          3,
        ),
      );
    }
    if (url.pathname === '/api/board/boards/5/info') return ok({ ...sales, ...(c.body as object) }, '保存成功');
    if (url.pathname === '/api/board/boards/5' && c.method === 'DELETE') return ok(null, '删除成功!');
    if (url.pathname === '/api/board/boards/5/copy') return ok({ ...sales, id: 8, title: '销售驾驶舱-副本' });
    if (url.pathname === '/api/board/sort') {
      const ids = String((c.body as { ids: string }).ids)
        .split(',')
        .map(Number);
      order = ids.map((id) => order.find((b) => b.id === id)!);
      return ok(null);
    }
    if (url.pathname === '/api/board/boards/6/auth' && c.method === 'GET') return ok({ publicStatus: 0, permIds: [11] });
    if (url.pathname === '/api/board/boards/6/auth' && c.method === 'PUT') return ok(null, '保存成功');
    if (url.pathname === '/api/perm/groups')
      return ok(page([group(11, '华东销售组', 1, '销售'), group(12, '财务组', 2, '职能'), group(13, '华南销售组', 1, '销售')]));
    if (url.pathname === '/api/board/categories' && c.method === 'POST') return ok(boardCategories(kind)[0]);
    return undefined;
  });
}

function Page({ kind }: { kind: BoardKind }) {
  return (
    <Routes>
      <Route path={`/newbi/${kind}`} element={<BoardListPage kind={kind} />} />
      <Route path="/newbi/preview/:id" element={<div>预览页</div>} />
    </Routes>
  );
}

const card = (title: string) => screen.getAllByTestId('board-card').find((c) => c.getAttribute('data-title') === title)!;
const boardCalls = (calls: Call[]) => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/api/board/boards?'));
const icon = (title: string, name: string) => card(title).querySelector<HTMLElement>(`button[aria-label="${name}"]`);
/** The primary button of the open dialog's footer (保存) or of a confirmation (确定): cheaper than role queries. */
const okButton = () => document.querySelector<HTMLElement>('.ant-modal-wrap:not([style*="display: none"]) .ant-modal-footer .ant-btn-primary')!;
const confirmOk = () => document.querySelector<HTMLElement>('.ant-modal-confirm-btns .ant-btn-primary')!;

async function open(kind: BoardKind = 'visual', info = user()) {
  const calls = serve(kind);
  renderWithApp(<Page kind={kind} />, { path: `/newbi/${kind}`, info });
  await screen.findByText('销售驾驶舱', {}, { timeout: 5000 });
  return calls;
}

describe('board list', () => {
  let openSpy: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    openSpy = vi.fn(() => null);
    vi.stubGlobal('open', openSpy);
  });
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('shows 全部 first in the category menu and lists with kind, current, size 50, no categoryId for 全部', async () => {
    const calls = await open('report');
    const nodes = screen.getAllByTestId('board-category').map((n) => n.textContent);
    expect(nodes).toEqual(['全部', '经营分析', '华东大区', '财务']);
    expect(screen.getAllByTestId('board-category')[0]!.getAttribute('data-id')).toBe('-1');
    const first = new URL(boardCalls(calls)[0]!.url, 'http://x').searchParams;
    expect(first.get('kind')).toBe('report');
    expect(first.get('current')).toBe('1');
    expect(first.get('size')).toBe('50');
    expect(first.has('categoryId')).toBe(false);
    expect(first.has('title')).toBe(false);
  });

  it('filters by category and by title', async () => {
    const calls = await open();
    fireEvent.click(screen.getAllByTestId('board-category').find((n) => n.textContent === '华东大区')!);
    await waitFor(() => expect(boardCalls(calls).some((c) => c.url.includes('categoryId=2'))).toBe(true));
    fireEvent.change(screen.getByPlaceholderText('请输入名称搜索'), { target: { value: '财务' } });
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(screen.queryByText('销售驾驶舱')).toBeNull());
    const last = new URL(boardCalls(calls).at(-1)!.url, 'http://x').searchParams;
    expect(last.get('title')).toBe('财务');
    expect(last.get('categoryId')).toBe('2');
    expect(last.get('kind')).toBe('visual');
    // Going back to 全部 drops the category again.
    fireEvent.click(screen.getAllByTestId('board-category').find((n) => n.textContent === '全部')!);
    await waitFor(() => expect(new URL(boardCalls(calls).at(-1)!.url, 'http://x').searchParams.has('categoryId')).toBe(false));
  });

  it('filters the category menu with the search box', async () => {
    await open();
    fireEvent.change(screen.getByPlaceholderText('搜索分类'), { target: { value: '华东' } });
    await waitFor(() => expect(screen.getAllByTestId('board-category').map((n) => n.textContent)).toEqual(['全部', '经营分析', '华东大区']));
  });

  it('shows thumbnails, placeholders and the type ribbon (大屏 by default, 快速 for quick)', async () => {
    await open();
    expect(card('销售驾驶舱').querySelector('img')!.getAttribute('src')).toBe('/api/board/thumbnails/5.png');
    expect(within(card('门店日报')).getByTestId('board-card-placeholder')).toBeTruthy();
    expect(within(card('销售驾驶舱')).getByTestId('board-card-ribbon').textContent).toBe('大屏');
    expect(within(card('门店日报')).getByTestId('board-card-ribbon').textContent).toBe('快速');
    expect(typeLabel(undefined)).toBe('大屏');
  });

  it('新建自助报表 opens the editors of the kind in a new tab with the category', async () => {
    await open('report');
    fireEvent.click(screen.getAllByTestId('board-category').find((n) => n.textContent === '经营分析')!);
    fireEvent.click(screen.getByTestId('board-create'));
    fireEvent.click(await screen.findByText('大屏模式'));
    expect(openSpy).toHaveBeenLastCalledWith('/newbi/report/bigdataEdit?cg=1', '_blank');
    fireEvent.click(screen.getByTestId('board-create'));
    fireEvent.click(await screen.findByText('快速模式'));
    expect(openSpy).toHaveBeenLastCalledWith('/newbi/report/quickEdit?cg=1', '_blank');
  });

  it('编辑 opens the matching editor by id in a new tab; 预览 stays in the tab', async () => {
    await open('visual');
    fireEvent.click(within(card('门店日报')).getByRole('button', { name: /(^|\s)编\s*辑$/ }));
    expect(openSpy).toHaveBeenLastCalledWith('/newbi/visual/quickEdit?id=6', '_blank');
    fireEvent.click(within(card('销售驾驶舱')).getByRole('button', { name: /(^|\s)编\s*辑$/ }));
    expect(openSpy).toHaveBeenLastCalledWith('/newbi/visual/bigdataEdit?id=5', '_blank');
    // Not editable: no 编辑, but 预览.
    expect(within(card('财务月报')).queryByRole('button', { name: /(^|\s)编\s*辑$/ })).toBeNull();
    fireEvent.click(within(card('财务月报')).getByRole('button', { name: /预\s*览/ }));
    expect(await screen.findByText('预览页')).toBeTruthy();
  });

  it('edit info requires a title (请填写大屏名称) and saves title and category', async () => {
    const calls = await open();
    fireEvent.click(icon('销售驾驶舱', '编辑信息')!);
    const input = await screen.findByTestId('board-info-title');
    fireEvent.change(input, { target: { value: '  ' } });
    fireEvent.click(okButton());
    expect(await screen.findByText('请填写大屏名称')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    fireEvent.change(input, { target: { value: '销售驾驶舱 2026' } });
    fireEvent.click(okButton());
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.url).toBe('/api/board/boards/5/info');
    expect(put.body).toEqual({ title: '销售驾驶舱 2026', categoryId: 1, backgroundUrl: '/api/board/thumbnails/5.png' });
  });

  it('deletes after 确定删除该报表? and copies after 确定复制该报表?', async () => {
    const calls = await open();
    expect(icon('财务月报', '删除')).toBeNull();
    fireEvent.click(icon('销售驾驶舱', '删除')!);
    expect(await screen.findByText('确定删除该报表?')).toBeTruthy();
    fireEvent.click(confirmOk());
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(calls.find((c) => c.method === 'DELETE')!.url).toBe('/api/board/boards/5');
    expect(await screen.findByText('删除成功')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('确定删除该报表?')).toBeNull());

    fireEvent.click(icon('销售驾驶舱', '复制')!);
    expect(await screen.findByText('确定复制该报表?')).toBeTruthy();
    fireEvent.click(confirmOk());
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/api/board/boards/5/copy')).toBe(true));
    expect(await screen.findByText('复制成功')).toBeTruthy();
  });

  it('shows the permission icon to administrators only', async () => {
    await open('visual', user({ id: 1, isAdministrator: false }));
    expect(icon('销售驾驶舱', '权限配置')).toBeNull();
    expect(icon('销售驾驶舱', '编辑信息')).toBeTruthy();
    cleanup();
    await open('visual', user());
    expect(icon('销售驾驶舱', '权限配置')).toBeTruthy();
  });

  it('permission config: groups by type; 公开 sends an empty group list with publicStatus 1', async () => {
    const calls = await open();
    fireEvent.click(icon('门店日报', '权限配置')!);
    const dialog = await screen.findByTestId('board-perm');
    await within(dialog).findByText('华东销售组');
    expect(
      within(dialog)
        .getAllByTestId('board-perm-type')
        .map((s) => s.firstChild?.textContent),
    ).toEqual(['销售', '职能']);
    expect(calls.find((c) => c.url.startsWith('/api/perm/groups'))!.url).toContain('size=10000');
    expect((within(dialog).getByRole('checkbox', { name: '华东销售组' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(dialog).getByText('公开'));
    fireEvent.click(okButton());
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.url).toBe('/api/board/boards/6/auth');
    expect(put.body).toEqual({ publicStatus: 1, dataPermIdList: [] });
  });

  it('permission config: 权限组 sends the ticked groups with publicStatus 0', async () => {
    const calls = await open();
    fireEvent.click(icon('门店日报', '权限配置')!);
    const dialog = await screen.findByTestId('board-perm');
    fireEvent.click(await within(dialog).findByRole('checkbox', { name: '财务组' }));
    fireEvent.click(okButton());
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ publicStatus: 0, dataPermIdList: [11, 12] });
  });

  it('drags a card to reorder and sends the ids in their new order; only editable cards drag', async () => {
    const calls = await open();
    expect(card('财务月报').getAttribute('draggable')).toBe('false');
    expect(card('门店日报').getAttribute('draggable')).toBe('true');
    fireEvent.dragStart(card('门店日报'));
    fireEvent.dragOver(card('销售驾驶舱'));
    fireEvent.drop(card('销售驾驶舱'));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/board/sort')).toBe(true));
    expect(calls.find((c) => c.url === '/api/board/sort')!.body).toEqual({ kind: 'visual', ids: '6,5,7' });
    expect(screen.getAllByTestId('board-card').map((c) => c.getAttribute('data-title'))[0]).toBe('门店日报');
  });

  it('moveId puts the moved id at the target position', () => {
    expect(moveId([1, 2, 3, 4], 4, 2)).toEqual([1, 4, 2, 3]);
    expect(moveId([1, 2, 3, 4], 1, 3)).toEqual([2, 3, 1, 4]);
    expect(moveId([1, 2, 3], 2, 2)).toEqual([1, 2, 3]);
  });

  it('adds a category: name required (请填写分类名), parent top level or a top-level category', async () => {
    const calls = await open();
    fireEvent.click(screen.getByLabelText('新增分类'));
    const input = await screen.findByPlaceholderText('请填写分类名');
    const form = input.closest('form')!;
    fireEvent.submit(form);
    expect(await screen.findByText('请填写分类名', { selector: '.ant-form-item-explain-error' })).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(input, { target: { value: '市场' } });
    fireEvent.submit(form);
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/api/board/categories')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({ kind: 'visual', categoryValue: '市场', parentId: 0 });
  }, 60_000);

  it('编辑分类 lists the two-level tree and deletes after 是否删除此分类', async () => {
    const calls = await open();
    fireEvent.click(screen.getByLabelText('编辑分类'));
    const list = await screen.findByTestId('board-category-list');
    expect(
      within(list)
        .getAllByTestId('board-category-item')
        .map((n) => n.textContent),
    ).toEqual(['经营分析', '华东大区', '财务']);
    const east = within(list)
      .getAllByTestId('board-category-item')
      .find((n) => n.textContent === '华东大区')!;
    fireEvent.click(east.querySelector<HTMLElement>('button[aria-label="删除"]')!);
    expect(await screen.findByText('是否删除此分类')).toBeTruthy();
    fireEvent.click(confirmOk());
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(calls.find((c) => c.method === 'DELETE')!.url).toBe('/api/board/categories/2');
  });
});
