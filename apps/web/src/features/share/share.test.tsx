import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, screen, waitFor } from '@testing-library/react';
import type { ShareLink } from '@shutu/contracts';
import { fail, mockFetch, ok } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { ShareDialog } from './ShareDialog.tsx';
import { LinkGrantTab } from './LinkGrantTab.tsx';

// antd renders slowly on a loaded machine: wait on conditions for longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

const link = (extra: Partial<ShareLink> = {}): ShareLink => ({
  id: 3,
  code: 'Ab3_xYz-9Q',
  dataType: 'visual',
  dataId: 5,
  visualDataTitle: '销售驾驶舱',
  purpose: '周会',
  shortLink: 'http://bi.example.com/share/Ab3_xYz-9Q',
  linkType: 0,
  hasPassword: true,
  expireTime: null,
  expired: false,
  enabled: true,
  createUserId: 2,
  createUserName: '张三',
  createTime: '2026-03-04T05:06:07.000Z',
  ...extra,
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('share dialog', () => {
  it('creates a login-free link with a password and copies the address with the password', async () => {
    const calls = mockFetch((c) => (c.url === '/api/share/links' && c.method === 'POST' ? ok(link(), '已生成分享链接') : undefined));
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderWithApp(<ShareDialog open dataType="visual" dataId={5} title="销售驾驶舱" onClose={() => undefined} />);
    expect(await screen.findByText('分享「销售驾驶舱」')).toBeTruthy();
    expect(screen.getByText('任何拿到链接的人无需登录即可查看，看到的数据与您的数据权限一致')).toBeTruthy();

    const password = document.querySelector<HTMLInputElement>('[data-testid="share-password"]')!;
    fireEvent.change(password, { target: { value: '12' } });
    fireEvent.click(screen.getByTestId('share-create'));
    expect(await screen.findByText('访问密码为 4-32 个字符')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    fireEvent.change(document.querySelector('[data-testid="share-purpose"]')!, { target: { value: '周会' } });
    fireEvent.change(password, { target: { value: 'Zj2026' } });
    fireEvent.click(screen.getByTestId('share-create'));
    await screen.findByTestId('share-created');
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      dataType: 'visual',
      dataId: 5,
      purpose: '周会',
      linkType: 0,
      password: 'Zj2026',
      expireTime: null,
    });
    expect(document.querySelector<HTMLInputElement>('[data-testid="share-link"]')!.value).toBe('http://bi.example.com/share/Ab3_xYz-9Q');
    expect(screen.getByText(/访问密码：Zj2026/)).toBeTruthy();
    fireEvent.click(screen.getByTestId('share-copy'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('http://bi.example.com/share/Ab3_xYz-9Q\n访问密码：Zj2026'));
    expect(await screen.findByText('已复制链接')).toBeTruthy();
  });

  it('sends account matching when chosen, and shows the server’s refusal', async () => {
    const calls = mockFetch((c) => (c.url === '/api/share/links' ? fail(403, '没有此大屏权限') : undefined));
    renderWithApp(<ShareDialog open dataType="report" dataId={9} title="订单明细" onClose={() => undefined} />);
    fireEvent.click(await screen.findByText('账号匹配'));
    expect(await screen.findByText('访问者须登录，按其本人的数据权限查看；没有查看权限的账号无法打开')).toBeTruthy();
    fireEvent.click(screen.getByTestId('share-create'));
    expect(await screen.findByText('没有此大屏权限')).toBeTruthy();
    expect(calls[0]!.body).toMatchObject({ dataType: 'report', dataId: 9, linkType: 1, password: null });
    expect(screen.queryByTestId('share-created')).toBeNull();
  });
});

describe('第三方链接 tab', () => {
  it('ticks the group’s account-matching links, filters, selects all and saves the ticked ids', async () => {
    const links = [link({ id: 3, linkType: 1, visualDataTitle: '销售驾驶舱' }), link({ id: 4, linkType: 1, visualDataTitle: '库存报表', purpose: '仓库' })];
    const calls = mockFetch((c) => {
      const url = new URL(c.url, 'http://x');
      if (url.pathname === '/api/share/links') return ok({ records: links, total: 2, current: 1, size: 10000 });
      if (url.pathname === '/api/share/auth' && c.method === 'GET') return ok([3]);
      if (url.pathname === '/api/share/auth' && c.method === 'PUT') return ok([3, 4], '已保存');
      return undefined;
    });
    renderWithApp(<LinkGrantTab groupId={8} groupName="华东销售" />);
    await waitFor(() => expect(screen.getByTestId('grant-link-count').textContent).toBe('已选 1 / 2'));
    expect(new URL(calls[0]!.url, 'http://x').searchParams.get('linkType')).toBe('1');
    fireEvent.change(document.querySelector('.grant-table-search input')!, { target: { value: '仓库' } });
    await waitFor(() => expect(document.querySelectorAll('[data-testid="grant-link"]')).toHaveLength(1));
    fireEvent.click(screen.getByTestId('grant-link-all'));
    await waitFor(() => expect(screen.getByTestId('grant-link-count').textContent).toBe('已选 2 / 2'));
    fireEvent.click(screen.getByTestId('grant-link-save'));
    expect(await screen.findByText('已保存')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ dataPermId: 8, linkIdList: [3, 4] });
  });
});
