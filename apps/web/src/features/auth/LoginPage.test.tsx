import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { AppProviders } from '../../app/providers.tsx';
import { createQueryClient } from '../../app/query-client.ts';
import { RequireAuth } from '../../app/guard.tsx';
import { fail, mockFetch, ok } from '../../test/fetch-mock.ts';
import { md5Hex } from '../../shared/password.ts';
import { LoginPage, safeRedirect } from './LoginPage.tsx';

function renderAt(path: string) {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route element={<RequireAuth />}>
            <Route path="/system/dict" element={<div>字典页面</div>} />
            <Route path="/" element={<div>首页</div>} />
          </Route>
        </Routes>
      </MemoryRouter>
    </AppProviders>,
  );
}

const info = {
  id: 1,
  account: 'admin',
  name: '系统管理员',
  realName: null,
  avatar: null,
  phone: null,
  email: null,
  deptId: null,
  roleIds: [],
  isAdministrator: true,
  permissions: [],
};

async function submit(account: string, password: string) {
  fireEvent.change(await screen.findByPlaceholderText('账号'), { target: { value: account } });
  fireEvent.change(screen.getByPlaceholderText('密码'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: '登录' }));
}

describe('login', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('follows only same-site redirects', () => {
    expect(safeRedirect('/system/dict?x=1')).toBe('/system/dict?x=1');
    expect(safeRedirect(null)).toBe('/');
    expect(safeRedirect('https://evil.example')).toBe('/');
    expect(safeRedirect('//evil.example')).toBe('/');
    expect(safeRedirect('/login')).toBe('/');
  });

  it('shows the configured system name', async () => {
    mockFetch((c) => (c.url === '/api/system/config' ? ok({ systemName: '数图分析平台' }) : undefined));
    renderAt('/login');
    expect(await screen.findByText('数图分析平台', { selector: 'h1' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('数图分析平台'));
  });

  it('shows the server message on a wrong password and stays on the page', async () => {
    const calls = mockFetch((c) => (c.url === '/api/auth/login' ? fail(401, '账号或密码错误') : ok({ systemName: '数图' })));
    renderAt('/login');
    await submit('admin', 'wrong');
    expect(await screen.findByText('账号或密码错误')).toBeTruthy();
    expect(calls.find((c) => c.url === '/api/auth/login')?.body).toEqual({ account: 'admin', password: md5Hex('wrong') });
    expect(localStorage.getItem('shutu.token')).toBeNull();
    expect(screen.getByPlaceholderText('账号')).toBeTruthy();
  });

  it('asks for the account and the password before sending anything', async () => {
    const calls = mockFetch(() => ok({ systemName: '数图' }));
    renderAt('/login');
    fireEvent.click(await screen.findByRole('button', { name: '登录' }));
    expect(await screen.findByText('请输入账号')).toBeTruthy();
    expect(screen.getByText('请输入密码')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('账号'), { target: { value: 'admin' } });
    await waitFor(() => expect(screen.queryByText('请输入账号')).toBeNull());
    expect(calls.some((c) => c.url === '/api/auth/login')).toBe(false);
  });

  it('shows the lock-out message of a 429', async () => {
    mockFetch((c) => (c.url === '/api/auth/login' ? fail(429, '登录失败次数过多，请1分钟后再试') : ok({ systemName: '数图' })));
    renderAt('/login');
    await submit('admin', 'again');
    expect(await screen.findByText('登录失败次数过多，请1分钟后再试')).toBeTruthy();
  });

  it('a signed-out visitor goes to login, then back to the page asked for', async () => {
    mockFetch((c) => {
      if (c.url === '/api/auth/login') return ok({ token: 'tok-9', expiresAt: '2099-01-01T00:00:00Z' });
      if (c.url === '/api/auth/info') return c.headers.Authorization === 'Bearer tok-9' ? ok(info) : fail(401, '登录已失效，请重新登录');
      return ok({ systemName: '数图' });
    });
    renderAt('/system/dict');
    await submit('admin', 'admin123');
    // Sign-in, then the guard's own requests (who am I, the config with its time zone): more than
    // findBy's default second on a loaded CI box.
    expect(await screen.findByText('字典页面', {}, { timeout: 10_000 })).toBeTruthy();
    expect(localStorage.getItem('shutu.token')).toBe('tok-9');
  });
});
