import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, ok } from '../../../test/fetch-mock.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { FilterTreeEditor } from './FilterTreeEditor.tsx';
import { DistinctValuesContext, type DistinctValues } from './pick-list.ts';
import { newItem } from './tree-ops.ts';
import type { FilterField, FilterTree } from './types.ts';

const fields: FilterField[] = [{ id: 1, title: '区域', viewDataType: 'STRING' }];

function Harness({ initial, onTree, distinct }: { initial: FilterTree; onTree: (t: FilterTree) => void; distinct?: DistinctValues }) {
  const [tree, setTree] = useState(initial);
  return (
    <DistinctValuesContext.Provider value={distinct ?? null}>
      <FilterTreeEditor
        value={tree}
        fields={fields}
        onChange={(t) => {
          setTree(t);
          onTree(t);
        }}
      />
    </DistinctValuesContext.Provider>
  );
}

const item = (extra: Record<string, unknown>, fn = 'in') =>
  ({ ...newItem(fields[0]), conditions: [{ function: fn, values: [] }], ...extra }) as unknown as FilterTree['conditions'][number];
const tree = (extra: Record<string, unknown>, fn?: string): FilterTree => ({ relation: 'AND', conditions: [item(extra, fn)], filters: [] });
const lastValues = (onTree: ReturnType<typeof vi.fn>) => (onTree.mock.calls.at(-1)![0] as FilterTree).conditions[0]!.conditions[0]!.values;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('filter value pick-lists', () => {
  it("offers a dictionary's parent/child tree, searchable, and keeps the picked keys", async () => {
    const calls = mockFetch((c) =>
      c.url.startsWith('/api/dataapi/dicts/')
        ? ok({
            id: 1,
            keyCode: '区域',
            apiId: null,
            updateTime: '2026-11-25T00:00:00Z',
            content: [
              {
                key: 'east',
                value: '华东',
                children: [
                  { key: 'sh', value: '上海' },
                  { key: 'js', value: '江苏' },
                ],
              },
              { key: 'south', value: '华南' },
            ],
          })
        : undefined,
    );
    const onTree = vi.fn();
    renderWithApp(<Harness initial={tree({ enumSource: 3, enumId: '区域' })} onTree={onTree} />);
    // While the dictionary loads the input cannot be opened: its dropdown would vanish when the tree replaces it.
    expect(document.querySelector('.ft-value-pick.ant-select-disabled')).toBeTruthy();
    // once the dictionary is loaded, the value input is a tree
    await waitFor(() => expect(document.querySelector('.ant-tree-select')).toBeTruthy());
    expect(document.querySelector('.ft-value-pick.ant-select-disabled')).toBeNull();
    const input = screen.getByRole('combobox', { name: '请选择' });
    await waitFor(() => expect(calls.map((c) => c.url)).toContain(`/api/dataapi/dicts/${encodeURIComponent('区域')}`));
    fireEvent.mouseDown(input);
    fireEvent.change(input, { target: { value: '江' } });
    // the search keeps 江苏 (its parent 华东 stays as the path) and drops 华南
    const node = await screen.findByText((_, el) => el?.classList.contains('ant-select-tree-title') === true && el.textContent === '江苏');
    expect(screen.queryByText('华南')).toBeNull();
    fireEvent.click(node);
    await waitFor(() => expect(lastValues(onTree)).toEqual(['js']));
  });

  it("switches the value source to a data API and offers that API's options", async () => {
    mockFetch((c) => {
      if (c.url === '/api/dataapi/pick-sources') return ok([{ id: 7, apiName: '省份列表', apiKey: 'provinces' }]);
      if (c.url === '/api/dataapi/apis/7/options')
        return ok({
          options: [
            { value: 'gd', label: '广东' },
            { value: 'zj', label: '浙江' },
          ],
        });
      return undefined;
    });
    const onTree = vi.fn();
    renderWithApp(<Harness initial={tree({}, 'eq')} onTree={onTree} />);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '值来源' }));
    fireEvent.click(await screen.findByTitle('数据接口'));
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: '选择数据接口' }));
    fireEvent.click(await screen.findByTitle('省份列表'));
    await waitFor(() => expect((onTree.mock.calls.at(-1)![0] as FilterTree).conditions[0]).toMatchObject({ enumSource: 2, enumId: 7 }));
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: '请选择' }));
    fireEvent.click(await screen.findByTitle('浙江'));
    await waitFor(() => expect(lastValues(onTree)).toEqual(['zj']));
  });

  it("offers the field's own values where the editor can read them", async () => {
    mockFetch(() => undefined);
    const distinct = vi.fn<DistinctValues>(async () => [
      { value: '华北', label: '华北' },
      { value: '华南', label: '华南' },
    ]);
    const onTree = vi.fn();
    renderWithApp(<Harness initial={tree({ enumSource: 1 })} onTree={onTree} distinct={distinct} />);
    // The input opens once the values are there.
    await waitFor(() => expect(document.querySelector('.ft-value-pick.ant-select-disabled')).toBeNull());
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: '请选择' }));
    fireEvent.click(await screen.findByTitle('华南'));
    await waitFor(() => expect(lastValues(onTree)).toEqual(['华南']));
    expect(distinct).toHaveBeenCalledWith(1);
  });
});
