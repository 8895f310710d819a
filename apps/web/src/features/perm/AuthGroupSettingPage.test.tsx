import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { mockFetch, ok } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { GRANT_TABS } from '../../app/grant-tabs.tsx';
import { AuthGroupSettingPage, groupFromSearch } from './AuthGroupSettingPage.tsx';

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
      return undefined;
    });
    renderWithApp(<AuthGroupSettingPage tabs={GRANT_TABS} />, {
      path: '/system/authGroupSetting?id=12&name=%E7%AE%A1%E7%90%86%E5%B1%82%20%26%20%E8%B4%A2%E5%8A%A1',
    });
    expect(screen.getByRole('heading', { name: '权限设置：管理层 & 财务' })).toBeTruthy();
    const tabs = within(screen.getByTestId('grant-tabs')).getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['数据源', '数据集', '幻灯片', '可视化大屏', '自助报表', '应用', '第三方链接']);
    expect(await screen.findByText('尚未授权数据源，点击「添加数据源」开始授权')).toBeTruthy();
    expect(calls[0]!.url).toBe('/api/perm/groups/12/datasources');

    fireEvent.click(screen.getByRole('tab', { name: '数据集' }));
    expect(await screen.findByText('暂无数据集分类：请先在「数据集」页面新增分类')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: '应用' }));
    expect(await screen.findByText('应用尚未上线：应用功能上线后在此为权限组授权已发布的应用')).toBeTruthy();
  });

  it('without a group id, says where to come from', () => {
    mockFetch(() => undefined);
    renderWithApp(<AuthGroupSettingPage tabs={GRANT_TABS} />, { path: '/system/authGroupSetting' });
    expect(screen.getByText('未指定权限组，请从权限组列表进入权限设置')).toBeTruthy();
    expect(screen.getByRole('button', { name: /返回权限组列表/ })).toBeTruthy();
  });
});
