import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { GlobalParam } from '@shutu/contracts';
import { mockFetch, ok } from '../../../test/fetch-mock.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { page } from '../test-fixtures.ts';
import { GlobalFilterDialog } from './GlobalFilterDialog.tsx';
import type { FilterCondition, FilterField, FilterItem, FilterTree, FilterTreeEditorProps } from './types.ts';

configure({ asyncUtilTimeout: 5000 });

/**
 * The tree editor is tested on its own; here a stand-in shows what the dialog hands it
 * (tree, parameters) and plays the user's edits: `edit.next` is the tree it reports.
 */
const edit = vi.hoisted(() => ({ next: null as unknown, real: false }));
vi.mock('./FilterTreeEditor.tsx', async (importOriginal) => {
  const real = await importOriginal<typeof import('./FilterTreeEditor.tsx')>();
  return {
    FilterTreeEditor: (props: FilterTreeEditorProps) =>
      edit.real ? (
        <real.FilterTreeEditor {...props} />
      ) : (
        <div data-testid={`${props.testIdPrefix}-tree`}>
          <span data-testid="tree-size">{props.value.conditions.length + props.value.filters.length}</span>
          <span data-testid="tree-params">{(props.params ?? []).map((p) => `${p.paramName}:${p.paramKey}:${p.paramColumnType}`).join(',')}</span>
          <button type="button" onClick={() => props.onChange(edit.next as FilterTree)}>
            模拟编辑
          </button>
        </div>
      ),
  };
});

const stamp = { createTime: '2026-01-02T03:04:05.000Z', updateTime: '2026-01-02T03:04:05.000Z' };
const params: GlobalParam[] = [
  { ...stamp, id: 5, typeId: 1, typeName: '组织', paramName: '地区', paramKey: 'region', paramColumnType: 'STRING' },
  { ...stamp, id: 6, typeId: 2, typeName: '时间', paramName: '统计日期', paramKey: 'stat_day', paramColumnType: 'DATETIME' },
];
const fields: FilterField[] = [
  { id: 11, title: '地区', viewDataType: 'STRING' },
  { id: 12, title: '下单日期', viewDataType: 'DATETIME' },
];

const cond = (extra: Partial<FilterCondition> = {}): FilterCondition => ({
  function: 'eq',
  values: [],
  timeType: 'absolute',
  countType: 'left',
  useParam: false,
  paramKey: null,
  ...extra,
});
const item = (cubeColumnId: number, conditions: FilterCondition[]): FilterItem => ({ cubeColumnId, connectType: 'and', conditions });

function serve() {
  return mockFetch((c) => {
    if (c.url.startsWith('/api/global-param/params')) return ok(page(params));
    if (c.url === '/api/global-param/types') return ok([]);
    return undefined;
  });
}

function open(value: FilterTree | null = null) {
  const onOk = vi.fn();
  const onCancel = vi.fn();
  renderWithApp(<GlobalFilterDialog open value={value} fields={fields} onOk={onOk} onCancel={onCancel} />);
  return { onOk, onCancel };
}

describe('global filter dialog', () => {
  afterEach(() => {
    edit.real = false;
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('explains the filter and offers every global parameter (current 1, size 10000) to the conditions', async () => {
    const calls = serve();
    open({ relation: 'AND', conditions: [item(11, [cond({ values: ['华东'] })])], filters: [] });
    expect(await screen.findByText('全局过滤')).toBeTruthy();
    expect(screen.getByText(/作用于该数据集的每一次读取（包括管理员）/)).toBeTruthy();
    expect(screen.getByTestId('tree-size').textContent).toBe('1');
    await waitFor(() => expect(screen.getByTestId('tree-params').textContent).toBe('地区:region:STRING,统计日期:stat_day:DATETIME'));
    expect(calls.map((c) => c.url)).toContain('/api/global-param/params?current=1&size=10000');
  });

  it('refuses a condition that uses a global parameter without choosing one', async () => {
    serve();
    const { onOk } = open();
    await waitFor(() => expect(screen.getByTestId('tree-params').textContent).not.toBe(''));
    edit.next = { relation: 'AND', conditions: [item(11, [cond({ useParam: true, paramKey: null })])], filters: [] };
    fireEvent.click(screen.getByRole('button', { name: '模拟编辑' }));
    fireEvent.click(screen.getByTestId('gf-ok'));
    expect(await screen.findByText('过滤条件【地区】未设置全局参数')).toBeTruthy();
    expect(onOk).not.toHaveBeenCalled();

    // Choosing the parameter clears the warning and confirms.
    const fixed: FilterTree = { relation: 'AND', conditions: [item(11, [cond({ useParam: true, paramKey: 'region' })])], filters: [] };
    edit.next = fixed;
    fireEvent.click(screen.getByRole('button', { name: '模拟编辑' }));
    expect(screen.queryByText('过滤条件【地区】未设置全局参数')).toBeNull();
    fireEvent.click(screen.getByTestId('gf-ok'));
    expect(onOk).toHaveBeenCalledWith(fixed);
  });

  it('refuses a parameter key that no longer exists', async () => {
    serve();
    const { onOk } = open({ relation: 'AND', conditions: [item(12, [cond({ useParam: true, paramKey: 'old_day' })])], filters: [] });
    await waitFor(() => expect(screen.getByTestId('tree-params').textContent).not.toBe(''));
    fireEvent.click(screen.getByTestId('gf-ok'));
    expect(await screen.findByText('过滤条件【下单日期】使用的全局参数【old_day】不存在')).toBeTruthy();
    expect(onOk).not.toHaveBeenCalled();
  });

  it('drops empty nested groups on confirm', async () => {
    serve();
    const kept = item(12, [cond({ function: 'between', values: ['2026-01-01', '2026-01-31'] })]);
    const { onOk } = open({
      relation: 'OR',
      conditions: [],
      filters: [
        { relation: 'AND', conditions: [] },
        { relation: 'AND', conditions: [kept] },
      ],
    });
    fireEvent.click(await screen.findByTestId('gf-ok'));
    expect(onOk).toHaveBeenCalledWith({ relation: 'OR', conditions: [], filters: [{ relation: 'AND', conditions: [kept] }] });
  });

  it('清空 empties the filter and confirms it as null (no global filter)', async () => {
    serve();
    const { onOk } = open({ relation: 'AND', conditions: [item(11, [cond({ values: ['华东'] })])], filters: [] });
    fireEvent.click(await screen.findByTestId('gf-clear'));
    expect(screen.getByTestId('tree-size').textContent).toBe('0');
    fireEvent.click(screen.getByTestId('gf-ok'));
    expect(onOk).toHaveBeenCalledWith(null);
  });

  it('cancels without handing anything back, and opens the parameter manager', async () => {
    serve();
    const { onOk, onCancel } = open();
    fireEvent.click(await screen.findByTestId('gf-manage-params'));
    expect(await screen.findByText('全局参数管理')).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: /取\s*消/ })[0]!);
    expect(onCancel).toHaveBeenCalled();
    expect(onOk).not.toHaveBeenCalled();
  });

  it('with the real tree editor: ticking 使用全局参数 without choosing one is refused, choosing one confirms', async () => {
    edit.real = true;
    serve();
    const { onOk } = open({ relation: 'AND', conditions: [item(11, [cond({ values: ['华东'] })])], filters: [] });
    fireEvent.click(await screen.findByRole('checkbox', { name: '使用全局参数' }));
    fireEvent.click(screen.getByTestId('gf-ok'));
    expect(await screen.findByText('过滤条件【地区】未设置全局参数')).toBeTruthy();
    expect(onOk).not.toHaveBeenCalled();

    const select = screen.getByLabelText('请选择全局参数').closest('.ant-select') as HTMLElement;
    fireEvent.mouseDown(within(select).getByRole('combobox'));
    const option = await waitFor(() => {
      const found = document.querySelector('.ant-select-dropdown .ant-select-item-option[title="地区（region）"]');
      if (!found) throw new Error('no option');
      return found;
    });
    fireEvent.click(option);
    fireEvent.click(screen.getByTestId('gf-ok'));
    await waitFor(() => expect(onOk).toHaveBeenCalled());
    const tree = onOk.mock.calls[0]![0] as FilterTree;
    expect(tree.conditions[0]!.conditions[0]).toMatchObject({ useParam: true, paramKey: 'region' });
  });
});
