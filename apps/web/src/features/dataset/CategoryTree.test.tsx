import { afterEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { fail, mockFetch, ok } from '../../test/fetch-mock.ts';
import { renderWithApp, user } from '../../test/render.tsx';
import { CategoryTree, parentChoices } from './CategoryTree.tsx';
import { categories } from './test-fixtures.ts';

function Harness({ initial = 0 }: { initial?: number }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <CategoryTree categories={categories} loading={false} value={value} onChange={setValue} editable />
      <span data-testid="selected">{value}</span>
    </>
  );
}

const node = (name: string) => screen.getAllByTestId('dset-category').find((n) => n.textContent?.includes(name)) as HTMLElement;

describe('category tree', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('offers top level or a top-level category as parent, never itself, and keeps a parent with children at the top', () => {
    expect(parentChoices(categories).map((c) => c.label)).toEqual(['顶级分类', '销售分析', '财务']);
    // 财务 may go under 销售分析 but not under itself; sub-categories are never offered (two levels).
    expect(parentChoices(categories, categories[2]).map((c) => c.value)).toEqual([0, 1]);
    // 销售分析 holds 华东: it stays top level.
    expect(parentChoices(categories, categories[0]).map((c) => c.value)).toEqual([0]);
    // 华东 may move to another top-level category.
    expect(parentChoices(categories, categories[1]).map((c) => c.value)).toEqual([0, 1, 3]);
  });

  it('shows 全部 first, then the two-level tree, and selects a category', () => {
    mockFetch(() => undefined);
    renderWithApp(<Harness />);
    expect(screen.getAllByTestId('dset-category').map((n) => n.textContent)).toEqual(['全部', '销售分析', '华东', '财务']);
    fireEvent.click(node('华东'));
    expect(screen.getByTestId('selected').textContent).toBe('2');
  });

  it('requires a name (请填写分类名) and adds under the selected top-level category', async () => {
    const calls = mockFetch((c) => (c.method === 'POST' ? ok({ id: 7, wsName: '华南', parentId: 1, sortNum: 0, createUserId: 1 }, '保存成功') : undefined));
    renderWithApp(<Harness initial={2} />);
    fireEvent.click(screen.getByRole('button', { name: /新增分类/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await within(dialog).findByText('请填写分类名')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('分类名称'), { target: { value: ' 华南 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ url: '/api/dataset/categories', body: { id: null, wsName: '华南', parentId: 1 } });
    expect(await screen.findByText('保存成功')).toBeTruthy();
  });

  it('offers edit and delete only on categories the user may change', () => {
    mockFetch(() => undefined);
    renderWithApp(<Harness />, { info: user({ id: 1, isAdministrator: false }) });
    expect(within(node('销售分析')).queryByRole('button', { name: '删除' })).toBeTruthy();
    expect(within(node('财务')).queryByRole('button', { name: '删除' })).toBeNull();
  });

  it('asks 确定删除? and shows the server refusal (409)', async () => {
    const calls = mockFetch((c) => (c.method === 'DELETE' ? fail(409, '请先删除下级分类') : undefined));
    renderWithApp(<Harness />);
    fireEvent.click(within(node('销售分析')).getByRole('button', { name: '删除' }));
    expect(await screen.findByText('确定删除?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(calls.find((c) => c.method === 'DELETE')!.url).toBe('/api/dataset/categories/1');
    expect(await screen.findByText('请先删除下级分类')).toBeTruthy();
  });
});
