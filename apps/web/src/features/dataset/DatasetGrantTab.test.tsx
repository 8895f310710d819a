import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AuthCubeDetail, CubePermFilter, DatasetField } from '@shutu/contracts';
import { mockFetch, ok, type Call } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { filterText } from './filter-text.ts';
import { categories, cube, page } from './test-fixtures.ts';
import { DatasetGrantTab, firstCategory } from './DatasetGrantTab.tsx';

const orders = cube(5, '订购分析', { workspaceId: 1, workspaceName: '销售分析' });
const east = cube(6, '华东订购', { workspaceId: 2, workspaceName: '华东' });
const books = cube(7, '财务月报', { workspaceId: 3, workspaceName: '财务' });

const field = (id: number, columnTitle: string) => ({ id, columnTitle }) as DatasetField;
const filter: CubePermFilter = {
  id: 3,
  cubeDataId: 5,
  dataPermId: 11,
  permName: '华东销售组',
  cubePermName: '一号过滤器',
  filterJson: {
    relation: 'AND',
    conditions: [
      {
        cubeColumnId: 21,
        connectType: 'and',
        conditions: [{ function: 'in', values: ['江苏', '浙江'], timeType: 'absolute', countType: 'left', useParam: false }],
      },
    ],
    filters: [
      {
        relation: 'OR',
        conditions: [
          { cubeColumnId: 22, connectType: 'and', conditions: [{ function: 'ge', values: [100], timeType: 'absolute', countType: 'left', useParam: false }] },
          { cubeColumnId: 23, connectType: 'and', conditions: [{ function: 'isnull', values: [], timeType: 'absolute', countType: 'left', useParam: false }] },
        ],
      },
    ],
  },
  excludeColumnIds: '24,99',
  createTime: '2026-01-01T00:00:00.000Z',
  updateTime: '2026-01-01T00:00:00.000Z',
};
const fields = [field(21, '省份'), field(22, '金额'), field(23, '渠道'), field(24, '手机号')];
const titles = new Map(fields.map((f) => [String(f.id), f.columnTitle]));

/** Answers like the server: grants kept across calls, per category with its sub-categories. */
function serve(initial: number[] = [6]) {
  let granted = [...initial];
  const within = (ws: number) => [orders, east, books].filter((c) => !ws || c.workspaceId === ws || (ws === 1 && c.workspaceId === 2));
  return mockFetch((c: Call) => {
    const url = new URL(c.url, 'http://x');
    if (url.pathname === '/api/dataset/categories') return ok(categories);
    if (url.pathname === '/api/dataset/cubes') return ok(page(within(Number(url.searchParams.get('workspaceId') ?? 0))));
    if (url.pathname === '/api/dataset/auth/11/cubes' && c.method === 'GET') {
      const ids = within(Number(url.searchParams.get('cubeWorkspaceId'))).map((d) => d.id);
      return ok(granted.filter((id) => ids.includes(id)));
    }
    if (url.pathname === '/api/dataset/auth/11/cubes' && c.method === 'PUT') {
      const { cubeWorkspaceId, dataIdList } = c.body as { cubeWorkspaceId: number; dataIdList: number[] };
      const ids = within(cubeWorkspaceId).map((d) => d.id);
      granted = [...granted.filter((id) => !ids.includes(id)), ...dataIdList];
      return ok(dataIdList, '保存成功');
    }
    if (url.pathname === '/api/dataset/auth/11/cubes/5') {
      return ok({ cubeDataId: 5, dataPermId: 11, cubeWorkspaceId: 1, granted: granted.includes(5), filter } satisfies AuthCubeDetail);
    }
    if (url.pathname === '/api/dataset/auth/11/cubes/6') return ok({ cubeDataId: 6, dataPermId: 11, cubeWorkspaceId: 2, granted: true, filter: null });
    if (url.pathname === '/api/dataset/cubes/5/fields' || url.pathname === '/api/dataset/cubes/6/fields') return ok(fields);
    return undefined;
  });
}

const box = (name: string) => within(screen.getByText(name).closest('[data-testid="grant-cube"]') as HTMLElement).getByRole('checkbox') as HTMLInputElement;

describe('dataset tab of 权限设置', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('opens on the first top-level category', () => {
    expect(firstCategory(categories)).toBe(1);
    expect(firstCategory([])).toBeNull();
  });

  it('reads a filter tree as text', () => {
    expect(filterText(filter.filterJson, titles)).toBe('【省份】 属于 [“江苏”、“浙江”] 且 (【金额】 大于等于 “100” 或 【渠道】 为空)');
    expect(filterText({ relation: 'AND', conditions: [], filters: [] }, titles)).toBeNull();
  });

  it('ticks the granted datasets of the category and saves the ticked ids for that category', async () => {
    const calls = serve();
    renderWithApp(<DatasetGrantTab groupId={11} groupName="华东销售组" />);
    await screen.findByText('华东订购', {}, { timeout: 5000 });
    expect(screen.queryByText('财务月报')).toBeNull();
    await waitFor(() => expect(box('华东订购').checked).toBe(true));
    expect(box('订购分析').checked).toBe(false);
    expect(screen.getByTestId('grant-cube-count').textContent).toBe('已选 1 / 共 2');

    fireEvent.click(box('订购分析'));
    fireEvent.click(box('华东订购'));
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ url: '/api/dataset/auth/11/cubes', body: { cubeWorkspaceId: 1, dataIdList: [5] } });
    expect(await screen.findByText('保存成功')).toBeTruthy();
  });

  it('全选 ticks every dataset of the category, 清空 none; another category saves on its own', async () => {
    const calls = serve([]);
    renderWithApp(<DatasetGrantTab groupId={11} groupName="华东销售组" />);
    await screen.findByText('华东订购', {}, { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: /全\s*选/ }));
    expect(screen.getByTestId('grant-cube-count').textContent).toBe('已选 2 / 共 2');
    fireEvent.click(screen.getByRole('button', { name: /清\s*空/ }));
    expect(screen.getByTestId('grant-cube-count').textContent).toBe('已选 0 / 共 2');

    fireEvent.click(screen.getAllByTestId('dset-category').find((n) => n.textContent === '财务')!);
    await screen.findByText('财务月报');
    fireEvent.click(screen.getByRole('button', { name: /全\s*选/ }));
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ cubeWorkspaceId: 3, dataIdList: [7] });
  });

  it('行权限 shows the group filter, its conditions and excluded columns', async () => {
    serve();
    renderWithApp(<DatasetGrantTab groupId={11} groupName="华东销售组" />);
    await screen.findByText('订购分析', {}, { timeout: 5000 });
    const row = screen.getByText('订购分析').closest('[data-testid="grant-cube"]') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: /行权限/ }));
    const panel = await screen.findByTestId('row-perm');
    expect(await within(panel).findByText('一号过滤器')).toBeTruthy();
    expect(within(panel).getByText(/【省份】 属于/)).toBeTruthy();
    expect(within(panel).getByText('手机号')).toBeTruthy();
    expect(within(panel).getByText('字段99')).toBeTruthy();

    fireEvent.click(document.querySelector('.ant-drawer-close') as HTMLElement);
    const other = screen.getByText('华东订购').closest('[data-testid="grant-cube"]') as HTMLElement;
    fireEvent.click(within(other).getByRole('button', { name: /行权限/ }));
    expect(await screen.findByText('该权限组在此数据集上没有行权限过滤器：成员可以看到全部行和字段')).toBeTruthy();
  });
});
