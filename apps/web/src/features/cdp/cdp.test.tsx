import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Fan, JoinApp, PlatformType } from '@shutu/contracts';
import { mockFetch, ok } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { FanListPage } from './FanListPage.tsx';
import { JoinListPage } from './JoinListPage.tsx';
import { PlatformForm } from './PlatformForm.tsx';

/** Connected platforms in the browser (issue 21, spec 3 §2): the join list's labels and the fan row editor. */

const app = (over: Partial<JoinApp> = {}): JoinApp => ({
  id: 7,
  appName: '数图示例公众号',
  appIcon: '',
  signature: '',
  authorizerAppId: 'wx1',
  status: 1,
  authTime: '2026-11-01T02:00:00Z',
  cancelAuthTime: null,
  platformDictId: 1,
  platformName: '微信公众号',
  joinType: '扫码授权',
  ...over,
});
const fan: Fan = {
  applyId: 7,
  appName: '数图示例公众号',
  openid: 'o1',
  nickname: '张伟1',
  sex: 1,
  headimgurl: 'https://img/1.png',
  platform: { nickname: '张伟1', sex: 1, headimgurl: 'https://img/1.png' },
  edited: false,
  subscribeTime: null,
};
const page = <T,>(records: T[]) => ({ records, total: records.length, current: 1, size: 10 });

describe('connected platforms', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists joins 10 a page with the join type, "- -" for no cancel time, and a log link; filters by appName', async () => {
    const calls = mockFetch((c) =>
      c.url.startsWith('/api/cdp/join/page')
        ? ok(page([app(), app({ id: 8, appName: '第二个号', status: 0, cancelAuthTime: '2026-11-02T02:00:00Z' })]))
        : undefined,
    );
    renderWithApp(<JoinListPage />);
    const row = (await screen.findByText('数图示例公众号')).closest('tr')!;
    expect(within(row).getByText('- -')).toBeTruthy();
    expect(within(row).getByText('扫码授权')).toBeTruthy();
    expect(within(row).getByRole('link', { name: '日志' }).getAttribute('href')).toBe('/cdp/join/log?id=7');
    const second = screen.getByText('第二个号').closest('tr')!;
    expect(within(second).queryByText('- -')).toBeNull();
    expect(within(second).getByText('未授权或已解除授权')).toBeTruthy();
    expect(new URL(calls[0]!.url, 'http://x').searchParams.get('size')).toBe('10');
    fireEvent.change(screen.getByPlaceholderText('应用名称'), { target: { value: '第二' } });
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(calls.some((c) => new URL(c.url, 'http://x').searchParams.get('appName') === '第二')).toBe(true));
  });

  it('edits a fan row: cancel keeps the row, save sends the edit and shows the platform value beside it', async () => {
    let current = fan;
    const calls = mockFetch((c) => {
      if (c.url.startsWith('/api/cdp/account/list')) return ok([{ id: 7, headImg: '', nickName: '数图示例公众号', signature: '', status: 1 }]);
      if (c.url.startsWith('/api/cdp/fan/page')) return ok(page([current]));
      if (c.url === '/api/cdp/fan' && c.method === 'PUT') {
        current = { ...fan, nickname: (c.body as { nickname: string }).nickname, edited: true };
        return ok(current, '保存成功');
      }
      return undefined;
    });
    renderWithApp(<FanListPage />);
    await screen.findByText('张伟1');
    expect(new URL(calls.find((c) => c.url.startsWith('/api/cdp/fan/page'))!.url, 'http://x').searchParams.get('size')).toBe('30');
    fireEvent.click(screen.getByRole('button', { name: /编\s*辑/ }));
    fireEvent.change(screen.getByLabelText('昵称'), { target: { value: '改过的名字' } });
    fireEvent.click(screen.getByRole('button', { name: /取\s*消/ }));
    expect(screen.getByText('张伟1')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: /编\s*辑/ }));
    fireEvent.change(screen.getByLabelText('昵称'), { target: { value: '改过的名字' } });
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await screen.findByText('改过的名字');
    expect(screen.getByText('平台：张伟1')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ applyId: 7, openid: 'o1', nickname: '改过的名字', sex: 1, headimgurl: 'https://img/1.png' });
  });

  it('saves a platform type keeping its interfaces, its data source and (left empty) its secret; refuses a foreign access URL', async () => {
    const platform: PlatformType = {
      id: 1,
      platformName: '微信公众号',
      platformType: 0,
      accessType: 0,
      accessUrl: '/api/cdp/auth/url',
      icon: '',
      apiBaseUrl: 'https://api.weixin.qq.com',
      authPageUrl: 'https://mp.weixin.qq.com/cgi-bin/componentloginpage',
      componentAppId: 'wx_c',
      hasAppSecret: true,
      hasMessageToken: true,
      ticketTime: null,
      datasourceId: 3,
      interfaces: [{ id: 5, interfaceName: '粉丝列表', dataType: '0', kind: 'fans', tableName: 'wx_fans' }],
    };
    const calls = mockFetch((c) => (c.url === '/api/cdp/platform' ? ok(platform, '保存成功') : undefined));
    const saved = vi.fn();
    renderWithApp(<PlatformForm platform={platform} onClose={() => undefined} onSaved={saved} />);
    expect(screen.getAllByPlaceholderText('已设置，留空则不修改')).toHaveLength(2);
    fireEvent.change(screen.getByLabelText('接入地址'), { target: { value: 'https://evil.example.com/x' } });
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await screen.findByText('接入地址须为本系统的 /api/ 路径');
    expect(calls).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('接入地址'), { target: { value: '/api/cdp/auth/url' } });
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(saved).toHaveBeenCalled());
    expect(calls[0]!.body).toMatchObject({
      id: 1,
      datasourceId: 3,
      componentAppSecret: '',
      interfaces: [{ id: 5, interfaceName: '粉丝列表', kind: 'fans', dataType: '0', tableName: 'wx_fans' }],
    });
  });
});
