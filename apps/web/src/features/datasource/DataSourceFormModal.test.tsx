import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { DataSource } from '@shutu/contracts';
import { fail, mockFetch, ok } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { DataSourceFormModal, dataSourceBody } from './DataSourceFormModal.tsx';

const saved: DataSource = {
  id: 7,
  dsDb: '销售库',
  type: 'postgres',
  dsTypeSyl: 'PostgreSQL',
  host: '10.0.0.5',
  port: 5432,
  database: 'sales',
  username: 'bi',
  hasPassword: true,
  path: null,
  remark: null,
  isBuiltin: false,
  createTime: '2026-01-01T00:00:00.000Z',
  updateTime: '2026-01-01T00:00:00.000Z',
};
const builtin: DataSource = {
  ...saved,
  id: 1,
  dsDb: '示例数据仓库',
  type: 'duckdb',
  dsTypeSyl: 'DuckDB',
  host: null,
  port: null,
  database: null,
  username: null,
  hasPassword: false,
  path: '/srv/shutu/data/warehouse.duckdb',
  isBuiltin: true,
};

/** Picks an option of the antd select labelled `label`. */
async function choose(label: string, option: string) {
  fireEvent.mouseDown(within(screen.getByLabelText(label).closest('.ant-select')! as HTMLElement).getByRole('combobox'));
  const item = await screen.findByTitle(option);
  fireEvent.click(item);
}

describe('dataSourceBody', () => {
  it('sends only the fields of the chosen engine, and an empty password as null (keep the stored one)', () => {
    expect(
      dataSourceBody({ dsDb: ' 库 ', type: 'mysql', host: ' h ', port: 3306, database: 'd', username: 'u', password: '', path: 'x.duckdb', remark: ' ' }),
    ).toEqual({
      dsDb: '库',
      type: 'mysql',
      host: 'h',
      port: 3306,
      database: 'd',
      username: 'u',
      password: null,
      remark: null,
    });
    expect(dataSourceBody({ dsDb: 'f', type: 'duckdb', host: 'h', path: ' a.duckdb ', password: 'p' })).toEqual({
      dsDb: 'f',
      type: 'duckdb',
      path: 'a.duckdb',
      remark: null,
    });
    expect(dataSourceBody({ dsDb: 'f', type: 'postgres', host: 'h', port: 5432, password: ' pass ' }).password).toBe(' pass ');
  });
});

describe('DataSourceFormModal', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('asks for the fields of a server source, and switches fields and default port with the engine', async () => {
    const calls = mockFetch(() => ok(null));
    renderWithApp(<DataSourceFormModal target={{}} onClose={() => undefined} />);
    expect(await screen.findByText('新增数据源')).toBeTruthy();
    expect((screen.getByLabelText('端口') as HTMLInputElement).value).toBe('5432');
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    for (const text of ['请输入数据源名称', '请输入主机地址', '请输入数据库名称', '请输入用户名']) expect(await screen.findByText(text)).toBeTruthy();
    expect(calls).toHaveLength(0);

    await choose('数据源类型', 'MySQL / MariaDB');
    await waitFor(() => expect((screen.getByLabelText('端口') as HTMLInputElement).value).toBe('3306'));
    await choose('数据源类型', 'DuckDB');
    expect(await screen.findByLabelText('数据库文件')).toBeTruthy();
    expect(screen.queryByLabelText('主机地址')).toBeNull();
  });

  it('tests an edited form with the stored password (empty) and shows the server version', async () => {
    const calls = mockFetch((c) =>
      c.url === '/api/datasource/test' ? ok({ dialect: 'postgres', serverVersion: '16.4', elapsedMs: 12 }, '连接成功') : undefined,
    );
    renderWithApp(<DataSourceFormModal target={{ record: saved }} onClose={() => undefined} />);
    expect(await screen.findByText('编辑数据源')).toBeTruthy();
    expect(screen.getByPlaceholderText('已保存密码，留空则保持不变')).toBeTruthy();
    fireEvent.click(screen.getByTestId('ds-form-test'));
    const result = await screen.findByTestId('ds-test-result');
    expect(result.textContent).toContain('连接成功');
    expect(result.textContent).toContain('服务器版本 16.4，用时 12 毫秒');
    expect(calls[0]).toMatchObject({
      method: 'POST',
      body: { id: 7, type: 'postgres', host: '10.0.0.5', port: 5432, database: 'sales', username: 'bi', password: null },
    });
  });

  it('shows the Chinese error of a failed test in the dialog', async () => {
    const message = '无法连接数据源 10.0.0.5:5432（连接被拒绝），请检查主机地址、端口和网络';
    mockFetch(() => fail(502, message, { kind: 'unreachable', detail: 'connect ECONNREFUSED' }));
    renderWithApp(<DataSourceFormModal target={{ record: saved }} onClose={() => undefined} />);
    fireEvent.click(await screen.findByTestId('ds-form-test'));
    const result = await screen.findByTestId('ds-test-result');
    expect(result.textContent).toContain('连接失败');
    expect(result.textContent).toContain(message);
  });

  it('lets only the name and remark of the built-in warehouse change', async () => {
    const onClose = vi.fn();
    const calls = mockFetch(() => ok(builtin, '保存成功'));
    renderWithApp(<DataSourceFormModal target={{ record: builtin }} onClose={onClose} />);
    expect(await screen.findByText('内置数据仓库由系统管理，只能修改名称和备注')).toBeTruthy();
    const path = screen.getByLabelText('数据库文件') as HTMLInputElement;
    expect(path.value).toBe('/srv/shutu/data/warehouse.duckdb');
    expect(path.readOnly).toBe(true);
    expect(screen.getByLabelText('数据源类型').closest('.ant-select')!.className).toContain('ant-select-disabled');
    fireEvent.change(screen.getByLabelText('数据源名称'), { target: { value: '演示仓库' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({
      method: 'PUT',
      url: '/api/datasource/1',
      body: { dsDb: '演示仓库', type: 'duckdb', path: '/srv/shutu/data/warehouse.duckdb' },
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});
