import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { AppProviders } from '../../app/providers.tsx';
import { createQueryClient } from '../../app/query-client.ts';
import { RequireAuth } from '../../app/guard.tsx';
import { fail, mockFetch, ok } from '../../test/fetch-mock.ts';
import { user } from '../../test/render.tsx';
import { md5Hex } from '../../shared/password.ts';
import { LoginPage } from './LoginPage.tsx';
import ChangeInitialPasswordPage, { changePasswordPath } from './ChangeInitialPasswordPage.tsx';

function renderAt(path: string) {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route element={<RequireAuth />}>
            <Route path="/change-password" element={<ChangeInitialPasswordPage />} />
            <Route path="/system/dict" element={<div>字典页面</div>} />
            <Route path="/" element={<div>首页</div>} />
          </Route>
        </Routes>
      </MemoryRouter>
    </AppProviders>,
  );
}

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe('修改初始密码', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('keeps the redirect only for same-site pages', () => {
    expect(changePasswordPath('/system/dict?x=1')).toBe('/change-password?redirect=%2Fsystem%2Fdict%3Fx%3D1');
    expect(changePasswordPath('/')).toBe('/change-password');
    expect(changePasswordPath('//evil.example')).toBe('/change-password');
  });

  it('sends a first sign-in with the initial password to the change page, then on to the page asked for', async () => {
    let flagged = true;
    const calls = mockFetch((c) => {
      if (c.url === '/api/auth/login') return ok({ token: 'tok-1', expiresAt: '2099-01-01T00:00:00Z', mustChangePassword: true });
      if (c.url === '/api/auth/info') return ok(user({ mustChangePassword: flagged }));
      if (c.url === '/api/profile/password') {
        flagged = false;
        return ok(null, '修改密码成功');
      }
      return ok({ systemName: '数图' });
    });
    renderAt('/login?redirect=%2Fsystem%2Fdict');
    fireEvent.change(await screen.findByPlaceholderText('账号'), { target: { value: 'admin' } });
    fireEvent.change(screen.getByPlaceholderText('密码'), { target: { value: 'admin123' } });
    fireEvent.click(screen.getByRole('button', { name: '登录' }));

    expect(await screen.findByRole('heading', { name: '修改初始密码' }, { timeout: 10_000 })).toBeTruthy();
    expect(await screen.findByText('当前账号：admin')).toBeTruthy();
    expect(screen.queryByText('字典页面')).toBeNull();

    fill('原密码', 'admin123');
    fill('新密码', 'admin123');
    fill('确认密码', 'admin123');
    fireEvent.click(screen.getByRole('button', { name: '确认修改并进入系统' }));
    expect(await screen.findByText('新密码不能与原密码相同', undefined, { timeout: 10_000 })).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/profile/password')).toBe(false);

    fill('新密码', 'my-own-pass');
    fill('确认密码', 'my-own-pass');
    fireEvent.click(screen.getByRole('button', { name: '确认修改并进入系统' }));
    expect(await screen.findByText('字典页面', undefined, { timeout: 10_000 })).toBeTruthy();
    expect(calls.find((c) => c.url === '/api/profile/password')?.body).toEqual({
      oldPassword: md5Hex('admin123'),
      newPassword: md5Hex('my-own-pass'),
      confirmPassword: md5Hex('my-own-pass'),
    });
    // The session goes on: no sign-out.
    expect(calls.some((c) => c.url === '/api/auth/logout')).toBe(false);
    expect(localStorage.getItem('shutu.token')).toBe('tok-1');
  });

  it('an open session still flagged cannot reach any page but the change page', async () => {
    localStorage.setItem('shutu.token', 'tok-2');
    mockFetch((c) =>
      c.url === '/api/auth/info'
        ? ok(user({ mustChangePassword: true }))
        : c.url === '/api/system/config'
          ? ok({ systemName: '数图' })
          : fail(403, '请先修改初始密码'),
    );
    renderAt('/system/dict');
    expect(await screen.findByRole('heading', { name: '修改初始密码' }, { timeout: 10_000 })).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('字典页面')).toBeNull());
  });

  it('an unflagged user on the change page goes on to the page asked for', async () => {
    localStorage.setItem('shutu.token', 'tok-3');
    mockFetch((c) => (c.url === '/api/auth/info' ? ok(user()) : ok({ systemName: '数图' })));
    renderAt('/change-password?redirect=%2Fsystem%2Fdict');
    expect(await screen.findByText('字典页面', undefined, { timeout: 10_000 })).toBeTruthy();
  });
});
