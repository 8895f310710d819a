import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { DataSource, DataSourceTable } from '@shutu/contracts';
import { mockFetch, ok } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { DataSourcePage, addressOf } from './DataSourcePage.tsx';
import { matchesTable } from './TablesDrawer.tsx';

const base = { username: null, hasPassword: false, remark: null, createTime: '2026-01-01T00:00:00.000Z', updateTime: '2026-01-01T00:00:00.000Z' };
const warehouse: DataSource = {
  ...base,
  id: 1,
  dsDb: '示例数据仓库',
  type: 'duckdb',
  dsTypeSyl: 'DuckDB',
  host: null,
  port: null,
  database: null,
  path: '/data/warehouse.duckdb',
  isBuiltin: true,
  remark: '内置 DuckDB 数据仓库',
};
const sales: DataSource = {
  ...base,
  id: 2,
  dsDb: '销售库',
  type: 'mysql',
  dsTypeSyl: 'MySQL / MariaDB',
  host: 'db',
  port: 3306,
  database: 'sales',
  path: null,
  isBuiltin: false,
};
const tables: DataSourceTable[] = [
  { schema: 'main', name: 'orders', comment: '产品订购记录', kind: 'TABLE' },
  { schema: 'main', name: 'v_order_data', comment: '订购数据视图', kind: 'VIEW' },
];

describe('data source page', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('shows where each source lives', () => {
    expect(addressOf(warehouse)).toBe('/data/warehouse.duckdb');
    expect(addressOf(sales)).toBe('db:3306/sales');
    expect(addressOf({ ...sales, database: null })).toBe('db:3306');
  });

  it('filters tables by name or comment, ignoring case', () => {
    expect(tables.filter((t) => matchesTable(t, '订购')).map((t) => t.name)).toEqual(['orders', 'v_order_data']);
    expect(tables.filter((t) => matchesTable(t, 'V_ORDER')).map((t) => t.name)).toEqual(['v_order_data']);
    expect(tables.filter((t) => matchesTable(t, '  '))).toHaveLength(2);
  });

  it('lists sources with the built-in warehouse undeletable, and opens its tables and their columns', async () => {
    const calls = mockFetch((c) => {
      if (c.url.startsWith('/api/datasource?')) return ok({ records: [warehouse, sales], total: 2, current: 1, size: 10 });
      if (c.url === '/api/datasource/1/tables') return ok(tables);
      if (c.url.startsWith('/api/datasource/1/columns')) return ok([{ name: 'order_id', comment: '订单编号', dbType: 'BIGINT', viewDataType: 'NUMBER' }]);
      return undefined;
    });
    renderWithApp(<DataSourcePage />);
    const list = await screen.findByTestId('ds-list');
    const rowOf = async (text: string) => (await within(list).findByText(text)).closest('tr')!;
    const builtinRow = await rowOf('示例数据仓库');
    expect(within(builtinRow).getByText('内置')).toBeTruthy();
    expect(within(builtinRow).queryByRole('button', { name: '删除' })).toBeNull();
    expect(within(await rowOf('销售库')).getByRole('button', { name: '删除' })).toBeTruthy();
    expect(within(await rowOf('销售库')).getByText('db:3306/sales')).toBeTruthy();

    fireEvent.click(within(builtinRow).getByRole('button', { name: '查看表' }));
    const tableList = await screen.findByTestId('ds-tables');
    fireEvent.click(await within(tableList).findByText('产品订购记录'));
    expect(await within(await screen.findByTestId('ds-columns')).findByText('订单编号')).toBeTruthy();
    expect(screen.getByText('数值')).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.url === '/api/datasource/1/columns?tableName=orders&schema=main')).toBe(true));
  });
});
