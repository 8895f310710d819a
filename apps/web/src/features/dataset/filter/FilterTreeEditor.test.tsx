import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { renderWithApp } from '../../../test/render.tsx';
import { FilterTreeEditor } from './FilterTreeEditor.tsx';
import { newItem } from './tree-ops.ts';
import { EMPTY_TREE, type FilterField, type FilterParam, type FilterTree } from './types.ts';

const fields: FilterField[] = [
  { id: 1, title: '城市', viewDataType: 'STRING' },
  { id: 2, title: '金额', viewDataType: 'NUMBER' },
  { id: 3, title: '下单时间', viewDataType: 'DATETIME' },
];
const params: FilterParam[] = [{ paramKey: 'city', paramName: '城市参数', paramColumnType: 'STRING' }];

function Harness({
  initial,
  onTree,
  withParams,
  disabled,
}: {
  initial: FilterTree;
  onTree: (t: FilterTree) => void;
  withParams?: boolean;
  disabled?: boolean;
}) {
  const [tree, setTree] = useState(initial);
  return (
    <FilterTreeEditor
      value={tree}
      fields={fields}
      params={withParams ? params : undefined}
      disabled={disabled}
      onChange={(t) => {
        setTree(t);
        onTree(t);
      }}
    />
  );
}

function setup(initial: FilterTree = EMPTY_TREE, options: { withParams?: boolean; disabled?: boolean } = {}) {
  let latest = initial;
  renderWithApp(<Harness initial={initial} onTree={(t) => (latest = t)} {...options} />);
  return () => latest;
}

async function choose(testId: string, option: string) {
  const root = screen.getByTestId(testId);
  const select = (root.classList.contains('ant-select') ? root : root.querySelector('.ant-select')) as HTMLElement;
  fireEvent.mouseDown(within(select).getByRole('combobox'));
  const items = await screen.findAllByTitle(option);
  fireEvent.click(items[items.length - 1]!);
}

const withItem = (field: FilterField, values: (string | number)[] = []): FilterTree => {
  const it = newItem(field);
  return { relation: 'AND', conditions: [{ ...it, conditions: [{ ...it.conditions[0]!, values }] }], filters: [] };
};

describe('FilterTreeEditor', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('adds a condition, picks its field and types its value', async () => {
    const tree = setup();
    expect(screen.getByText('暂无过滤条件，所有数据可见')).toBeTruthy();
    fireEvent.click(screen.getByTestId('ft-add-item'));
    expect(screen.getByTestId('ft-item-0')).toBeTruthy();
    await choose('ft-item-0-field', '城市');
    expect(tree().conditions[0]).toMatchObject({ cubeColumnId: 1, column: '城市' });
    const input = within(screen.getByTestId('ft-item-0-value')).getByRole('textbox');
    fireEvent.change(input, { target: { value: '杭州' } });
    expect(tree().conditions[0]!.conditions[0]).toMatchObject({ function: 'eq', values: ['杭州'] });
  });

  it('offers the functions of the field type', async () => {
    setup(withItem(fields[1]!, [3]));
    fireEvent.mouseDown(within(screen.getByTestId('ft-item-0-fn')).getByRole('combobox'));
    expect(await screen.findByTitle('大于等于')).toBeTruthy();
    expect(screen.queryByTitle('包含')).toBeNull();
  });

  it('hides the add-condition action once the function is 属于 and keeps one condition', async () => {
    const tree = setup(withItem(fields[0]!, ['a']));
    fireEvent.click(screen.getByTestId('ft-item-0-add-condition'));
    expect(screen.getByTestId('ft-item-0-fn-c1')).toBeTruthy();
    expect(screen.getByTestId('ft-item-0-connect').textContent).toBe('且');
    fireEvent.click(screen.getByTestId('ft-item-0-connect'));
    expect(tree().conditions[0]!.connectType).toBe('or');
    await choose('ft-item-0-fn', '属于');
    expect(tree().conditions[0]!.conditions).toHaveLength(1);
    expect(screen.queryByTestId('ft-item-0-fn-c1')).toBeNull();
    expect(screen.queryByTestId('ft-item-0-add-condition')).toBeNull();
  });

  it('toggles 且/或 and nests a root condition into a group that cannot nest further', () => {
    const tree = setup({ ...withItem(fields[0]!, ['a']), conditions: [...withItem(fields[0]!, ['a']).conditions, ...withItem(fields[1]!, [1]).conditions] });
    const relation = screen.getByTestId('ft-relation');
    expect(relation.textContent).toBe('且');
    fireEvent.click(relation);
    expect(screen.getByTestId('ft-relation').textContent).toBe('或');
    expect(tree().relation).toBe('OR');

    fireEvent.click(screen.getByTestId('ft-item-1-wrap'));
    expect(tree().filters).toHaveLength(1);
    const group = screen.getByTestId('ft-group-0');
    expect(within(group).getByTestId('ft-group-0-relation').textContent).toBe('且');
    expect(within(group).getByTestId('ft-item-1')).toBeTruthy();
    expect(screen.queryByTestId('ft-item-1-wrap')).toBeNull(); // level 2: no further nesting
    fireEvent.click(within(group).getByTestId('ft-group-0-add-item'));
    expect(tree().filters[0]!.conditions).toHaveLength(2);
  });

  it('drags a condition out of a group to the root and prunes the emptied group', () => {
    const base = withItem(fields[0]!, ['a']);
    const tree = setup({ relation: 'AND', conditions: base.conditions, filters: [{ relation: 'OR', conditions: withItem(fields[1]!, [1]).conditions }] });
    const dataTransfer = { setData: vi.fn(), getData: vi.fn(), effectAllowed: '', dropEffect: '' };
    fireEvent.dragStart(screen.getByTestId('ft-item-1-drag'), { dataTransfer });
    fireEvent.dragOver(screen.getByTestId('ft-item-0'), { dataTransfer });
    fireEvent.drop(screen.getByTestId('ft-item-0'), { dataTransfer });
    expect(tree().filters).toHaveLength(0);
    expect(tree().conditions.map((i) => i.column)).toEqual(['金额', '城市']);
    expect(screen.queryByTestId('ft-group-0')).toBeNull();
  });

  it('removes a condition', () => {
    const tree = setup(withItem(fields[0]!, ['a']));
    fireEvent.click(screen.getByTestId('ft-item-0-remove'));
    expect(tree().conditions).toHaveLength(0);
  });

  it('switches a date condition to relative time with 前 1 天', async () => {
    const tree = setup(withItem(fields[2]!));
    await choose('ft-item-0-time-type', '相对时间');
    expect(tree().conditions[0]!.conditions[0]).toMatchObject({ timeType: 'relative', values: [1], countType: 'left', dateType: 'DAY' });
    const value = screen.getByTestId('ft-item-0-value');
    expect(within(value).getByText('前')).toBeTruthy();
    expect(within(value).getByText('天')).toBeTruthy();
    expect((within(value).getByRole('spinbutton') as HTMLInputElement).value).toBe('1');
  });

  it('shows 使用全局参数 only with params, and then a parameter select instead of the value', async () => {
    const tree = setup(withItem(fields[0]!, ['a']), { withParams: true });
    fireEvent.click(screen.getByRole('checkbox', { name: '使用全局参数' }));
    expect(screen.queryByTestId('ft-item-0-value')).toBeNull();
    await choose('ft-item-0-param', '城市参数（city）');
    expect(tree().conditions[0]!.conditions[0]).toMatchObject({ useParam: true, paramKey: 'city' });
    cleanup();
    setup(withItem(fields[0]!, ['a']));
    expect(screen.queryByText('使用全局参数')).toBeNull();
    expect(screen.getByTestId('ft-item-0-value')).toBeTruthy();
  });

  it('is read-only when disabled', () => {
    setup(withItem(fields[0]!, ['a']), { disabled: true });
    expect(screen.queryByTestId('ft-add-item')).toBeNull();
    expect(screen.queryByTestId('ft-item-0-remove')).toBeNull();
    expect(screen.queryByTestId('ft-item-0-drag')).toBeNull();
    expect((within(screen.getByTestId('ft-item-0-value')).getByRole('textbox') as HTMLInputElement).disabled).toBe(true);
  });
});
