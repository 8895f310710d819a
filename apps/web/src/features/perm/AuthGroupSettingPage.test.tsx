import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { PermGroup } from '@shutu/contracts';
import { fail, mockFetch, ok } from '../../test/fetch-mock.ts';
import { renderWithApp, user } from '../../test/render.tsx';
import { AppProviders } from '../../app/providers.tsx';
import { createQueryClient } from '../../app/query-client.ts';
import { NotFoundResult } from '../../app/guard.tsx';
import { GRANT_TABS } from '../../app/grant-tabs.tsx';
import { authKeys } from '../../shared/session.ts';
import { AuthGroupSettingPage, groupFromSearch } from './AuthGroupSettingPage.tsx';
import { permKeys } from './api.ts';
import { bossGroup } from './test-fixtures.ts';

const page = <AuthGroupSettingPage tabs={GRANT_TABS} notFound={<NotFoundResult />} />;

/** The page at `path` with `known` already looked up (as when coming from the list), a home page and the list behind it. */
function renderPage(path: string, known?: PermGroup) {
  const queryClient = createQueryClient();
  localStorage.setItem('shutu.token', 'test-token');
  queryClient.setQueryData(authKeys.info, user());
  if (known) queryClient.setQueryData(permKeys.group(known.id), known);
  return render(
    <AppProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/system/authGroupSetting" element={page} />
          <Route path="/" element={<div>首页</div>} />
        </Routes>
      </MemoryRouter>
    </AppProviders>,
  );
}

describe('AuthGroupSettingPage', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('reads the group from ?id=&name=', () => {
    expect(groupFromSearch(new URLSearchParams('id=12&name=%E7%AE%A1%E7%90%86%E5%B1%82%20%26%20%E8%B4%A2%E5%8A%A1'))).toEqual({
      id: 12,
      name: '管理层 & 财务',
    });
    expect(groupFromSearch(new URLSearchParams('id=abc&name=x'))).toBeNull();
    expect(groupFromSearch(new URLSearchParams(''))).toBeNull();
  });

  it('titles the page with the group name and shows the seven grant tabs in order', async () => {
    const calls = mockFetch((c) => {
      if (c.url === '/api/perm/groups/12/datasources') return ok([]);
      if (c.url === '/api/dataset/categories') return ok([]);
      if (c.url === '/api/apps/grantable') return ok([{ appId: 3, appName: '经营驾驶舱' }]);
      if (c.url === '/api/apps/auth/12') return ok([3]);
      return undefined;
    });
    renderPage('/system/authGroupSetting?id=12&name=%E7%AE%A1%E7%90%86%E5%B1%82%20%26%20%E8%B4%A2%E5%8A%A1', bossGroup);
    expect(screen.getByRole('heading', { name: '权限设置：管理层 & 财务' })).toBeTruthy();
    const tabs = within(screen.getByTestId('grant-tabs')).getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['数据源', '数据集', '幻灯片', '可视化大屏', '自助报表', '应用', '第三方链接']);
    expect(await screen.findByText('尚未授权数据源，点击「添加数据源」开始授权')).toBeTruthy();
    expect(calls[0]!.url).toBe('/api/perm/groups/12/datasources');

    fireEvent.click(screen.getByRole('tab', { name: '数据集' }));
    expect(await screen.findByText('暂无数据集分类：请先在「数据集」页面新增分类')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: '应用' }));
    // The published apps, the group's grants ticked (issue 24).
    expect(await screen.findByText('已选 1 / 共 1 个已发布应用')).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: '经营驾驶舱' })).toHaveProperty('checked', true);
  });

  it('without a group id, says where to come from', () => {
    mockFetch(() => undefined);
    renderWithApp(page, { path: '/system/authGroupSetting' });
    expect(screen.getByText('未指定权限组，请从权限组列表进入权限设置')).toBeTruthy();
    expect(screen.getByRole('button', { name: /返回权限组列表/ })).toBeTruthy();
  });

  it('looks the group up before any tab asks for anything', async () => {
    const calls = mockFetch((c) => {
      if (c.url === '/api/perm/groups/12') return ok(bossGroup);
      if (c.url === '/api/perm/groups/12/datasources') return ok([]);
      return undefined;
    });
    renderPage('/system/authGroupSetting?id=12&name=old');
    expect(await screen.findByText('尚未授权数据源，点击「添加数据源」开始授权')).toBeTruthy();
    // The title is the group's current name, not the one in the address.
    expect(screen.getByRole('heading', { name: '权限设置：管理层 & 财务' })).toBeTruthy();
    expect(calls.map((c) => c.url)).toEqual(['/api/perm/groups/12', '/api/perm/groups/12/datasources']);
  });

  it('shows the not-found page, with its link home, for a group that does not exist, and no tab asks for anything', async () => {
    const calls = mockFetch((c) => (c.url === '/api/perm/groups/999999' ? fail(404, '权限组不存在') : undefined));
    renderPage('/system/authGroupSetting?id=999999&name=x');
    expect(await screen.findByText('页面不存在')).toBeTruthy();
    expect(screen.queryByTestId('grant-tabs')).toBeNull();
    expect(screen.queryByText('权限组不存在')).toBeNull(); // not toasted
    expect(calls.map((c) => c.url)).toEqual(['/api/perm/groups/999999']);
    fireEvent.click(screen.getByRole('button', { name: /返回首页/ }));
    expect(await screen.findByText('首页')).toBeTruthy();
  });

  it('shows the not-found page for an id that is no id, asking nothing', async () => {
    for (const id of ['abc', '-3', '0', '1.5', '']) {
      const calls = mockFetch(() => undefined);
      renderPage(`/system/authGroupSetting?id=${id}`);
      expect(await screen.findByText('页面不存在')).toBeTruthy();
      expect(screen.queryByTestId('grant-tabs')).toBeNull();
      expect(calls).toEqual([]);
      cleanup();
    }
  });
});
