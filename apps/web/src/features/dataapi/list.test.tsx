import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { fail, mockFetch, ok, type Call } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { DataApiListPage } from './DataApiListPage.tsx';
import { AccessKeysTab } from './admin/AccessKeysTab.tsx';
import { RuntimeSettings } from './admin/RuntimeSettings.tsx';

const url = (c: Call) => new URL(c.url, 'http://x');
const row = (id: number, apiKey: string, apiStatus: number, apiType = 1) => ({
  id,
  apiKey,
  apiName: `接口${id}`,
  categoryId: 1,
  apiType,
  apiStatus,
  updateTime: '2026-01-01T00:00:00Z',
});

describe('data-API list', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('lists by category and name, shows 故障, and copies with an optional new key', async () => {
    const calls = mockFetch((c) => {
      const path = url(c).pathname;
      if (path === '/api/dataapi/categories') return ok([{ id: 1, categoryName: '销售', sort: 0, apiCount: 2 }]);
      if (path === '/api/dataapi/apis') return ok({ records: [row(1, 'sales', 1), row(2, 'broken', 2, 3)], total: 2, current: 1, size: 10 });
      if (path === '/api/dataapi/apis/1/copy') return ok(row(3, 'sales_copy', 0), '操作成功!');
      return undefined;
    });
    renderWithApp(<DataApiListPage />, { path: '/newbi/dataapi' });
    expect((await screen.findByTestId('dataapi-status-broken')).textContent).toBe('故障');
    expect(screen.getByTestId('dataapi-status-sales').textContent).toBe('上线');

    fireEvent.click(screen.getByTestId('dataapi-category-1'));
    await waitFor(() => expect(calls.some((c) => url(c).searchParams.get('categoryId') === '1')).toBe(true));

    const search = screen.getByPlaceholderText('搜索接口名或接口key');
    fireEvent.change(search, { target: { value: '销' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(calls.some((c) => url(c).searchParams.get('apiName') === '销')).toBe(true));

    fireEvent.click(screen.getAllByText('复制')[0]!);
    fireEvent.change(await screen.findByTestId('dataapi-copy-key'), { target: { value: 'sales_v2' } });
    fireEvent.click(screen.getByRole('button', { name: /确\s*定|OK/ }));
    await screen.findByText('操作成功!');
    expect(calls.find((c) => url(c).pathname === '/api/dataapi/apis/1/copy')!.body).toEqual({ apiKey: 'sales_v2' });
  });
});

describe('access keys', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('saves only the runtime settings changed: the cache time, and the server refuses a bad value', async () => {
    let refuse = false;
    const calls = mockFetch((c) => {
      if (url(c).pathname !== '/api/dataapi/settings') return ok([]);
      if (c.method === 'PUT' && refuse) return fail(400, '缓存时间须为 0 到 3600 的整数秒（0 为不缓存）');
      return ok({ allowedHosts: ['api.example.com'], logRetentionDays: 90, cacheSeconds: 0 }, '保存成功');
    });
    renderWithApp(<RuntimeSettings />);
    const cache = await screen.findByLabelText('接口缓存（0 为不缓存）');
    await waitFor(() => expect((screen.getByLabelText('日志保留天数') as HTMLInputElement).value).toBe('90'));
    fireEvent.change(cache, { target: { value: '30' } });
    fireEvent.click(screen.getByTestId('dataapi-runtime-save'));
    await screen.findByText('保存成功');
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ cacheSeconds: 30 });
    refuse = true;
    fireEvent.change(cache, { target: { value: '60' } });
    fireEvent.click(screen.getByTestId('dataapi-runtime-save'));
    await screen.findByText('缓存时间须为 0 到 3600 的整数秒（0 为不缓存）');
  });

  it('shows the secret once after creating a key; a missing name is refused', async () => {
    const calls = mockFetch((c) => {
      const path = url(c).pathname;
      if (path === '/api/dataapi/keys' && c.method === 'POST')
        return ok({
          id: 1,
          keyName: '报表系统',
          accessKey: 'ak_abc',
          secret: 'sk_secret123',
          enabled: true,
          rateLimit: 600,
          apiIds: [1],
          createUserId: 1,
          createTime: '',
          lastUsedTime: null,
        });
      if (path === '/api/dataapi/keys') return ok([]);
      if (path === '/api/dataapi/apis') return ok({ records: [row(1, 'sales', 1)], total: 1, current: 1, size: 1000 });
      return fail(404, '接口不存在');
    });
    renderWithApp(<AccessKeysTab />);
    fireEvent.click(await screen.findByTestId('dataapi-new-key'));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
    await screen.findByText('请输入密钥名称');
    fireEvent.change(screen.getByTestId('dataapi-key-name'), { target: { value: '报表系统' } });
    fireEvent.click(screen.getByRole('button', { name: /确\s*定|OK/ }));
    expect((await screen.findByTestId('dataapi-created-secret')).textContent).toContain('sk_secret123');
    screen.getByText('请立即复制保存：关闭后不会再显示');
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ keyName: '报表系统', apiIds: [], rateLimit: 600 });
  });
});
