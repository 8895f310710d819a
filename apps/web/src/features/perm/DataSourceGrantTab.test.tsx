import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { DataSourceGrant, DataSourceTable } from '@shutu/contracts';
import { mockFetch, ok, type Call } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { tableKey } from './api.ts';
import { DataSourceGrantTab, mergeSources } from './DataSourceGrantTab.tsx';
import { tickAll } from './TableChecklist.tsx';
import { page, salesDb, warehouse, warehouseTables } from './test-fixtures.ts';

const salesTables: DataSourceTable[] = [
  { schema: 'sales', name: 'orders', comment: '订单', kind: 'TABLE' },
  { schema: 'sales', name: 'customers', comment: '客户', kind: 'TABLE' },
];
const salesGrant: DataSourceGrant = {
  dataPermId: 11,
  datasourceId: 2,
  dsName: '销售库',
  dsTypeSyl: 'MySQL / MariaDB',
  tableNames: [{ schema: 'sales', name: 'orders' }],
};

/** Answers like the server, keeping the group's grants across calls. */
function serve(initial: DataSourceGrant[] = [salesGrant]) {
  let grants = [...initial];
  const names: Record<number, string> = { 1: '示例数据仓库', 2: '销售库' };
  return mockFetch((c: Call) => {
    if (c.url === '/api/perm/groups/11/datasources') return ok(grants);
    if (c.method === 'PUT') {
      const datasourceId = Number(c.url.split('/').pop());
      const { tableNames } = c.body as Pick<DataSourceGrant, 'tableNames'>;
      grants = grants.filter((g) => g.datasourceId !== datasourceId);
      if (tableNames.length) grants.push({ dataPermId: 11, datasourceId, dsName: names[datasourceId]!, dsTypeSyl: 'DuckDB', tableNames });
      return ok(grants, '保存成功');
    }
    if (c.url.startsWith('/api/datasource?')) return ok(page([warehouse, salesDb]));
    if (c.url === '/api/datasource/1/tables') return ok(warehouseTables);
    if (c.url === '/api/datasource/2/tables') return ok(salesTables);
    return undefined;
  });
}

const sourceList = () => screen.findByTestId('grant-sources');
const row = (name: string) => screen.getByText(name).closest('label') as HTMLElement;
const box = (name: string) => within(row(name)).getByRole('checkbox') as HTMLInputElement;

async function addSource(name: string) {
  fireEvent.click(screen.getByRole('button', { name: /添加数据源/ }));
  const select = (await screen.findByTestId('grant-source-select')) as HTMLElement;
  fireEvent.mouseDown(within(select.closest('.ant-select') ?? select).getByRole('combobox'));
  const option = await waitFor(() => {
    const found = document.querySelector(`.ant-select-dropdown .ant-select-item-option[title="${name}"]`);
    if (!found) throw new Error(`no option ${name}`);
    return found;
  });
  fireEvent.click(option);
}

describe('data-source table authorisation', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('keeps saved sources first and drops local copies of saved ones', () => {
    const local = { ...salesGrant, local: true };
    expect(mergeSources([salesGrant], [local]).map((s) => [s.datasourceId, s.local])).toEqual([[2, false]]);
  });

  it('全选 adds only the tables in view to what is ticked', () => {
    const ticked = tickAll(new Set([tableKey(warehouseTables[0]!)]), warehouseTables.slice(1, 3));
    expect([...ticked].sort()).toEqual(warehouseTables.slice(0, 3).map(tableKey).sort());
  });

  it('shows the saved grant ticked, and warns instead of adding a source twice', async () => {
    serve();
    renderWithApp(<DataSourceGrantTab groupId={11} groupName="华东销售组" />);
    expect(await within(await sourceList()).findByText('销售库')).toBeTruthy();
    await screen.findByText('customers');
    expect(box('orders').checked).toBe(true);
    expect(box('customers').checked).toBe(false);
    expect(screen.getByTestId('grant-count').textContent).toBe('已选 1 / 共 2');

    await addSource('销售库');
    expect(await screen.findByText('数据源不能重复使用一个权限组')).toBeTruthy();
    expect(within(await sourceList()).getAllByRole('option')).toHaveLength(1);
  });

  it('adds a source locally, with 保存 disabled until a table is ticked; saving makes it a saved grant', async () => {
    const calls = serve();
    renderWithApp(<DataSourceGrantTab groupId={11} groupName="华东销售组" />);
    await within(await sourceList()).findByText('销售库');
    await addSource('示例数据仓库');
    const added = (await within(await sourceList()).findByText('示例数据仓库')).closest('li')!;
    expect(within(added).getByText('未保存')).toBeTruthy();
    await screen.findByText('provinces');
    const save = screen.getByRole('button', { name: /保\s*存/ }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    expect(screen.getByTestId('grant-count').textContent).toBe('已选 0 / 共 4');

    fireEvent.click(box('provinces'));
    expect(save.disabled).toBe(false);
    fireEvent.click(save);
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      url: '/api/perm/groups/11/datasources/1',
      body: { tableNames: [{ schema: 'main', name: 'provinces' }] },
    });
    expect(await screen.findByText('保存成功')).toBeTruthy();
    await waitFor(() => expect(within(added).queryByText('未保存')).toBeNull());
    expect(within(added).getByText(/1 张表/)).toBeTruthy();
  });

  it('全选 after a search ticks only the tables found, on top of those ticked; 清空 unticks all', async () => {
    const calls = serve([{ dataPermId: 11, datasourceId: 1, dsName: '示例数据仓库', dsTypeSyl: 'DuckDB', tableNames: [{ schema: 'main', name: 'orders' }] }]);
    renderWithApp(<DataSourceGrantTab groupId={11} groupName="华东销售组" />);
    await screen.findByText('provinces');
    expect(screen.getByTestId('grant-count').textContent).toBe('已选 1 / 共 4');

    fireEvent.change(screen.getByPlaceholderText('表名 / 注释'), { target: { value: '退订' } });
    await waitFor(() => expect(screen.queryByText('provinces')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: /全\s*选/ }));
    expect(screen.getByTestId('grant-count').textContent).toBe('已选 3 / 共 4');
    fireEvent.change(screen.getByPlaceholderText('表名 / 注释'), { target: { value: '' } });
    await screen.findByText('provinces');
    expect([box('orders'), box('cancellations'), box('v_order_data'), box('provinces')].map((b) => b.checked)).toEqual([true, true, true, false]);

    // 允许上传文件: the grant's write permission goes with the save (issue 28)
    fireEvent.click(screen.getByTestId('grant-writable'));
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({
      tableNames: [
        { schema: 'main', name: 'orders' },
        { schema: 'main', name: 'cancellations' },
        { schema: 'main', name: 'v_order_data' },
      ],
      writable: true,
    });

    fireEvent.click(screen.getByRole('button', { name: /清\s*空/ }));
    expect(screen.getByTestId('grant-count').textContent).toBe('已选 0 / 共 4');
    expect((screen.getByRole('button', { name: /保\s*存/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('removes a saved source after confirming, with an empty table list', async () => {
    const calls = serve();
    renderWithApp(<DataSourceGrantTab groupId={11} groupName="华东销售组" />);
    const item = (await within(await sourceList()).findByText('销售库')).closest('li')!;
    fireEvent.click(within(item).getByRole('button', { name: '移除数据源' }));
    expect(await screen.findByText('确定移除数据源【销售库】的全部数据表权限?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ url: '/api/perm/groups/11/datasources/2', body: { tableNames: [] } });
  });

  it('drops an unsaved source without asking the server', async () => {
    const calls = serve([]);
    renderWithApp(<DataSourceGrantTab groupId={11} groupName="华东销售组" />);
    expect(await screen.findByText('尚未授权数据源，点击「添加数据源」开始授权')).toBeTruthy();
    await addSource('示例数据仓库');
    const item = (await within(await sourceList()).findByText('示例数据仓库')).closest('li')!;
    fireEvent.click(within(item).getByRole('button', { name: '移除数据源' }));
    expect(await screen.findByText('尚未授权数据源，点击「添加数据源」开始授权')).toBeTruthy();
    expect(calls.filter((c) => c.method !== 'GET')).toHaveLength(0);
  });
});
