import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { mockFetch, ok, type Call } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { ALL_CATEGORIES } from './CategoryTree.tsx';
import { categoryFromAddress, DatasetListPage } from './DatasetListPage.tsx';
import { categories, cube, page } from './test-fixtures.ts';

const mine = cube(5, '订购分析', { tableType: 'LOGIC', publicStatus: 1 });
const theirs = cube(6, '财务月报', { editable: false, createUserName: '王五', workspaceId: 3, workspaceName: '财务' });

function serve() {
  return mockFetch((c: Call) => {
    if (c.url === '/api/dataset/categories') return ok(categories);
    if (c.url.startsWith('/api/dataset/cubes?')) {
      const q = new URL(c.url, 'http://x').searchParams;
      const name = q.get('cubeName') ?? '';
      return ok(page([mine, theirs].filter((d) => d.cubeName.includes(name))));
    }
    if (c.method === 'DELETE') return ok(null, '删除成功');
    return undefined;
  });
}

const row = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;

function App() {
  return (
    <Routes>
      <Route path="/newbi/dataset" element={<DatasetListPage />} />
      <Route path="/newbi/dataset/edit" element={<div>编辑器</div>} />
    </Routes>
  );
}

describe('dataset list', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('shows type, visibility and creator, and 删除 only where the user may edit', async () => {
    serve();
    renderWithApp(<App />, { path: '/newbi/dataset' });
    await screen.findByText('订购分析', {}, { timeout: 5000 });
    expect(within(row('订购分析')).getByText('多表关联')).toBeTruthy();
    expect(within(row('订购分析')).getByText('公开')).toBeTruthy();
    expect(within(row('财务月报')).getByText('单表')).toBeTruthy();
    expect(within(row('财务月报')).getByText('权限组控制')).toBeTruthy();
    expect(within(row('财务月报')).getByText('王五')).toBeTruthy();
    expect(within(row('订购分析')).queryByRole('button', { name: /删\s*除/ })).toBeTruthy();
    expect(within(row('财务月报')).queryByRole('button', { name: /删\s*除/ })).toBeNull();
    // Not the user's to change: 查看 (the read-only view) rather than 打开.
    expect(within(row('财务月报')).getByRole('button', { name: /查\s*看/ })).toBeTruthy();
    expect(within(row('订购分析')).getByRole('button', { name: /打\s*开/ })).toBeTruthy();
  });

  it('lists a category with its sub-categories and searches by name', async () => {
    const calls = serve();
    renderWithApp(<App />, { path: '/newbi/dataset' });
    await screen.findByText('订购分析', {}, { timeout: 5000 });
    fireEvent.click(screen.getAllByTestId('dset-category').find((n) => n.textContent === '销售分析')!);
    await waitFor(() => expect(calls.some((c) => c.url.includes('workspaceId=1'))).toBe(true));
    fireEvent.change(screen.getByPlaceholderText('数据集名称'), { target: { value: '财务' } });
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(screen.queryByText('订购分析')).toBeNull());
    expect(calls.at(-1)!.url).toContain(`cubeName=${encodeURIComponent('财务')}`);
    expect(calls.at(-1)!.url).toContain('workspaceId=1');
  });

  it('opens the category the address names (?ws=, where the editor’s 返回 leads)', async () => {
    const calls = serve();
    renderWithApp(<App />, { path: '/newbi/dataset?ws=3' });
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/api/dataset/cubes?') && c.url.includes('workspaceId=3'))).toBe(true));
    expect(calls.some((c) => c.url.startsWith('/api/dataset/cubes?') && !c.url.includes('workspaceId='))).toBe(false);
    expect(await screen.findByText(/数据集列表 · 财务/)).toBeTruthy();
    expect([categoryFromAddress(null), categoryFromAddress('0'), categoryFromAddress('x'), categoryFromAddress('2')]).toEqual([
      ALL_CATEGORIES,
      ALL_CATEGORIES,
      ALL_CATEGORIES,
      2,
    ]);
  });

  it('deletes after 确定删除?', async () => {
    const calls = serve();
    renderWithApp(<App />, { path: '/newbi/dataset' });
    await screen.findByText('订购分析', {}, { timeout: 5000 });
    fireEvent.click(within(row('订购分析')).getByRole('button', { name: /删\s*除/ }));
    expect(await screen.findByText('确定删除?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(calls.find((c) => c.method === 'DELETE')!.url).toBe('/api/dataset/cubes/5');
  });

  it('打开 goes to the editor with the id', async () => {
    serve();
    renderWithApp(<App />, { path: '/newbi/dataset' });
    await screen.findByText('订购分析', {}, { timeout: 5000 });
    fireEvent.click(within(row('订购分析')).getByRole('button', { name: /打\s*开/ }));
    expect(await screen.findByText('编辑器')).toBeTruthy();
  });
});
