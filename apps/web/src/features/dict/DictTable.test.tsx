import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Dict } from '@shutu/contracts';
import { mockFetch, ok, type Call } from '../../test/fetch-mock.ts';
import { renderWithApp, user } from '../../test/render.tsx';
import { fetchDictParents } from './api.ts';
import { DictTable } from './DictTable.tsx';

const rows: Dict[] = [
  { id: 1, parentId: 0, code: 'gender', dictKey: 0, dictValue: '性别', sort: 1, isSealed: 0, remark: null },
  { id: 2, parentId: 0, code: 'status', dictKey: 0, dictValue: '状态', sort: 2, isSealed: 1, remark: '封存的' },
];

function server() {
  return mockFetch((call: Call) => {
    if (call.url.startsWith('/api/dict/parents')) return ok({ records: rows, total: 2, current: 1, size: 5 });
    if (call.url === '/api/dict/remove') return ok(null, '删除成功!');
    return undefined;
  });
}

function renderTable(info = user()) {
  const onAdd = vi.fn();
  const onEdit = vi.fn();
  const onRowClick = vi.fn();
  renderWithApp(
    <DictTable
      testId="t"
      searchPlaceholder="字典编号 / 名称"
      queryKey={(p) => ['dict', 'parents', p]}
      fetch={fetchDictParents}
      addLabel="新增"
      onAdd={onAdd}
      onEdit={onEdit}
      onRowClick={onRowClick}
    />,
    { info },
  );
  return { onAdd, onEdit, onRowClick };
}

describe('DictTable', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('asks for page 1 of 5 rows and shows the rows with 是/否 for sealed', async () => {
    const calls = server();
    renderTable();
    await screen.findByText('性别');
    expect(calls[0]!.url).toBe('/api/dict/parents?current=1&size=5');
    const sealedRow = screen.getByText('状态').closest('tr')!;
    expect(within(sealedRow).getByText('是')).toBeTruthy();
  });

  it('a viewer (dict_view only) gets no add, edit, delete or selection', async () => {
    server();
    renderTable(user({ isAdministrator: false, permissions: ['dict_view'] }));
    await screen.findByText('性别');
    for (const name of [/新增/, /编辑/, /删除/]) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
  });

  it('each button follows its own permission', async () => {
    server();
    renderTable(user({ isAdministrator: false, permissions: ['dict_view', 'dict_edit'] }));
    await screen.findByText('性别');
    expect(screen.queryByRole('button', { name: /新增/ })).toBeNull();
    expect(screen.getAllByRole('button', { name: '编辑' })).toHaveLength(2);
    expect(screen.queryByRole('button', { name: /批量删除/ })).toBeNull();
  });

  it('batch delete with nothing selected warns and calls nothing', async () => {
    const calls = server();
    renderTable();
    await screen.findByText('性别');
    fireEvent.click(screen.getByRole('button', { name: /批量删除/ }));
    expect(await screen.findByText('请选择至少一条数据')).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/dict/remove')).toBe(false);
  });

  it('batch delete confirms, then removes the selected ids', async () => {
    const calls = server();
    renderTable();
    await screen.findByText('性别');
    const row = screen.getByText('状态').closest('tr')!;
    fireEvent.click(within(row).getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: /批量删除/ }));
    expect(await screen.findByText('确定将选择数据删除?')).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/dict/remove')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(calls.find((c) => c.url === '/api/dict/remove')?.body).toEqual({ ids: [2] }));
    expect(await screen.findByText('删除成功!')).toBeTruthy();
  });

  it('clicking a row selects it as the parent, clicking its buttons does not', async () => {
    server();
    const { onRowClick, onEdit } = renderTable();
    await screen.findByText('性别');
    fireEvent.click(screen.getByText('性别'));
    expect(onRowClick).toHaveBeenCalledWith(rows[0]);
    const row = screen.getByText('状态').closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '编辑' }));
    expect(onEdit).toHaveBeenCalledWith(rows[1]);
    expect(onRowClick).toHaveBeenCalledTimes(1);
  });
});
