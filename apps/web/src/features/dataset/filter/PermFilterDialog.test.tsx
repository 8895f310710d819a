import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { decodeBase64Json, type CubePermFilter } from '@shutu/contracts';
import { fail, mockFetch, ok, type Call } from '../../../test/fetch-mock.ts';
import { renderWithApp, user } from '../../../test/render.tsx';
import { PermFilterDialog } from './PermFilterDialog.tsx';
import type { FilterField } from './types.ts';

const fields: FilterField[] = [
  { id: 11, title: '城市', viewDataType: 'STRING' },
  { id: 12, title: '金额', viewDataType: 'NUMBER' },
];

const stamp = { createTime: '2026-01-02T03:04:05.000Z', updateTime: '2026-01-02T03:04:05.000Z' };
const cityEq = {
  uniqId: 'u1',
  cubeColumnId: 11,
  column: '城市',
  connectType: 'and' as const,
  conditions: [
    { function: 'eq' as const, values: ['杭州'], timeType: 'absolute' as const, countType: 'left' as const, dateType: null, useParam: false, paramKey: null },
  ],
  dateType: null,
};
const saved: CubePermFilter = {
  ...stamp,
  id: 5,
  cubeDataId: 7,
  dataPermId: 3,
  permName: '华东销售',
  cubePermName: '一号过滤器',
  filterJson: { relation: 'AND', conditions: [cityEq], filters: [] },
  excludeColumnIds: '12',
};
const savedEmpty: CubePermFilter = {
  ...saved,
  id: 6,
  dataPermId: 4,
  permName: '财务',
  cubePermName: '2-新增过滤器',
  filterJson: { relation: 'AND', conditions: [], filters: [] },
  excludeColumnIds: '',
};

const LIST = '/api/dataset/cubes/7/perm-filters';

function serve(list: CubePermFilter[], onSave?: (call: Call) => ReturnType<typeof ok> | ReturnType<typeof fail>) {
  return mockFetch((c) => {
    if (c.method === 'GET' && c.url === LIST) return ok(list);
    if (c.method === 'POST' && c.url === '/api/dataset/perm-filters') return onSave ? onSave(c) : ok(saved, '已保存');
    if (c.method === 'DELETE' && c.url === '/api/dataset/perm-filters/5') return ok(null, '已删除');
    return undefined;
  });
}

function open(isAdmin = true) {
  const onClose = vi.fn();
  renderWithApp(<PermFilterDialog open cubeDataId={7} fields={fields} isAdmin={isAdmin} onClose={onClose} />, { info: user({ isAdministrator: isAdmin }) });
  return onClose;
}

const card = (i: number) => screen.getByTestId(`pf-${i}`);

describe('PermFilterDialog', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('lists the filters with 更新 and, for administrators, 添加 and 删除', async () => {
    serve([saved, savedEmpty]);
    open();
    expect(await screen.findByText('权限过滤器')).toBeTruthy();
    await screen.findByTestId('pf-1');
    expect((within(card(0)).getByTestId('pf-0-name') as HTMLInputElement).value).toBe('一号过滤器');
    expect(within(card(0)).getByText('华东销售')).toBeTruthy();
    expect(within(card(0)).getByTestId('pf-0-save').textContent).toContain('更新');
    expect(within(card(0)).getByTestId('pf-0-delete')).toBeTruthy();
    expect(within(card(0)).getByText('【城市】 等于 “杭州”')).toBeTruthy();
    expect(within(card(0)).getByText('金额')).toBeTruthy(); // excluded column
    // 'set condition' when the filter has conditions, 'add condition' when it has none
    expect(within(card(0)).getByTestId('pf-0-conditions').textContent).toContain('设置条件');
    expect(within(card(1)).getByTestId('pf-1-conditions').textContent).toContain('添加条件');
    expect(screen.getByTestId('pf-add').textContent).toContain('添加');
    expect(within(card(0)).getByRole('button', { name: '选择' })).toBeTruthy();
  });

  it('hides 添加 and 删除 from other users', async () => {
    serve([saved]);
    open(false);
    await screen.findByTestId('pf-0');
    expect(screen.queryByTestId('pf-add')).toBeNull();
    expect(screen.queryByTestId('pf-0-delete')).toBeNull();
    expect(within(card(0)).queryByRole('button', { name: '选择' })).toBeNull();
    expect(within(card(0)).getByTestId('pf-0-save').textContent).toContain('更新');
  });

  it('adds an unsaved filter with the default name, saved with 添加 once a group is chosen', async () => {
    const calls = serve([saved]);
    open();
    await screen.findByTestId('pf-0');
    fireEvent.click(screen.getByTestId('pf-add'));
    expect((within(card(1)).getByTestId('pf-1-name') as HTMLInputElement).value).toBe('2-新增过滤器');
    expect(within(card(1)).getByText('未保存')).toBeTruthy();
    expect(within(card(1)).getByTestId('pf-1-save').textContent).toContain('添加');
    fireEvent.click(within(card(1)).getByTestId('pf-1-save'));
    expect(await screen.findByText('请选择权限组')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('names the first filter 一号过滤器', async () => {
    serve([]);
    open();
    expect(await screen.findByText('暂无权限过滤器，请点击“添加”新建')).toBeTruthy();
    fireEvent.click(screen.getByTestId('pf-add'));
    expect((screen.getByTestId('pf-0-name') as HTMLInputElement).value).toBe('一号过滤器');
  });

  it('updates a filter with a Base64 payload and shows the server message', async () => {
    const calls = serve([saved]);
    open();
    await screen.findByTestId('pf-0');
    fireEvent.change(screen.getByTestId('pf-0-name'), { target: { value: ' 华东过滤 ' } });
    fireEvent.click(screen.getByTestId('pf-0-conditions'));
    // the editor opens on the saved tree; change the value
    fireEvent.change(within(screen.getByTestId('pf-0-ft-item-0-value')).getByRole('textbox'), { target: { value: '上海' } });
    fireEvent.click(screen.getByTestId('pf-0-save'));
    expect(await screen.findByText('已保存')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST')!;
    const body = decodeBase64Json((post.body as { payload: string }).payload) as Record<string, unknown>;
    expect(body).toEqual({
      id: 5,
      cubeDataId: 7,
      dataPermId: 3,
      cubePermName: '华东过滤',
      excludeColumnIds: '12',
      filterJson: { relation: 'AND', conditions: [{ ...cityEq, conditions: [{ ...cityEq.conditions[0], values: ['上海'] }] }], filters: [] },
    });
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET' && c.url === LIST).length).toBe(2));
  });

  it('refuses to save an incomplete condition', async () => {
    const calls = serve([savedEmpty]);
    open();
    await screen.findByTestId('pf-0');
    fireEvent.click(screen.getByTestId('pf-0-conditions')); // 添加条件 opens the editor with a blank condition
    expect(screen.getByTestId('pf-0-ft-item-0')).toBeTruthy();
    fireEvent.click(screen.getByTestId('pf-0-save'));
    expect(await screen.findByText('请为每个过滤条件选择字段')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('shows the server error when saving fails', async () => {
    serve([saved], () => fail(409, '权限组【华东销售】在该数据集上已有过滤器，一个权限组只能有一个过滤器'));
    open();
    await screen.findByTestId('pf-0');
    fireEvent.click(screen.getByTestId('pf-0-save'));
    expect(await screen.findByText('权限组【华东销售】在该数据集上已有过滤器，一个权限组只能有一个过滤器')).toBeTruthy();
  });

  it('asks 确定删除? before deleting', async () => {
    const calls = serve([saved]);
    open();
    await screen.findByTestId('pf-0');
    fireEvent.click(screen.getByTestId('pf-0-delete'));
    expect(await screen.findByText('确定删除?')).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: '确定' }));
    expect(await screen.findByText('已删除')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/dataset/perm-filters/5']);
  });
});
