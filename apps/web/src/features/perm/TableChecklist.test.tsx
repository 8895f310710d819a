import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { DataSourceTable } from '@shutu/contracts';
import { fail, mockFetch, ok } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { TableChecklist, VIRTUAL_FROM } from './TableChecklist.tsx';

const many: DataSourceTable[] = Array.from({ length: 3000 }, (_, i) => ({
  schema: 'ods',
  name: `t_${String(i).padStart(4, '0')}`,
  comment: `表${i}`,
  kind: 'TABLE',
}));
const source = { datasourceId: 7, dsName: '大库', tableNames: [{ schema: 'ods', name: 't_0001' }] };

describe('TableChecklist', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it(`renders only the rows in view above ${VIRTUAL_FROM} tables, while 全选 and the counts cover them all`, async () => {
    const calls = mockFetch((c) => (c.url === '/api/datasource/7/tables' ? ok(many) : c.method === 'PUT' ? ok([], '保存成功') : undefined));
    renderWithApp(<TableChecklist groupId={3} source={source} onSaved={() => undefined} />);
    await screen.findByText('t_0000');
    expect(screen.getByTestId('grant-count').textContent).toBe('已选 1 / 共 3000');
    expect(screen.getAllByTestId('grant-table').length).toBeLessThan(100);

    fireEvent.change(screen.getByPlaceholderText('表名 / 注释'), { target: { value: 't_1' } });
    fireEvent.click(screen.getByRole('button', { name: /全\s*选/ }));
    expect(screen.getByTestId('grant-count').textContent).toBe('已选 1001 / 共 3000');
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect((calls.find((c) => c.method === 'PUT')!.body as { tableNames: unknown[] }).tableNames).toHaveLength(1001);
  });

  it('says so when the source cannot list its tables', async () => {
    mockFetch(() => fail(502, '无法连接数据源 db:3306（连接被拒绝），请检查主机地址、端口和网络'));
    renderWithApp(<TableChecklist groupId={3} source={source} onSaved={() => undefined} />);
    expect(await screen.findByText('数据表加载失败')).toBeTruthy();
    expect(screen.getByText('无法连接数据源 db:3306（连接被拒绝），请检查主机地址、端口和网络')).toBeTruthy();
    expect((screen.getByRole('button', { name: /保\s*存/ }) as HTMLButtonElement).disabled).toBe(true);
  });
});
