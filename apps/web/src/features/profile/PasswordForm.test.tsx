import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, ok } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { md5Hex } from '../../shared/password.ts';
import { PasswordForm } from './PasswordForm.tsx';

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe('PasswordForm', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('refuses a confirmation that differs, without calling the server', async () => {
    const calls = mockFetch(() => ok(null));
    renderWithApp(<PasswordForm />);
    fill('原密码', 'admin123');
    fill('新密码', 'newpass1');
    fill('确认密码', 'newpass2');
    fireEvent.click(screen.getByRole('button', { name: '修改密码' }));
    expect(await screen.findByText('两次输入的密码不一致')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('refuses a new password shorter than 6 characters', async () => {
    const calls = mockFetch(() => ok(null));
    renderWithApp(<PasswordForm />);
    fill('原密码', 'admin123');
    fill('新密码', '123');
    fill('确认密码', '123');
    fireEvent.click(screen.getByRole('button', { name: '修改密码' }));
    expect(await screen.findByText('密码长度不能少于6位')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('sends the three entries as md5, then signs out and goes to login', async () => {
    const calls = mockFetch((c) => (c.url === '/api/profile/password' ? ok(null, '修改密码成功') : ok(null, '已退出登录')));
    renderWithApp(<PasswordForm />);
    fill('原密码', 'admin123');
    fill('新密码', 'newpass1');
    fill('确认密码', 'newpass1');
    fireEvent.click(screen.getByRole('button', { name: '修改密码' }));
    await waitFor(() => expect(calls.map((c) => c.url)).toEqual(['/api/profile/password', '/api/auth/logout']));
    expect(calls[0]).toMatchObject({
      method: 'PUT',
      body: { oldPassword: md5Hex('admin123'), newPassword: md5Hex('newpass1'), confirmPassword: md5Hex('newpass1') },
    });
    expect(await screen.findByText('修改密码成功')).toBeTruthy();
    expect(await screen.findByText('登录页')).toBeTruthy();
    expect(localStorage.getItem('shutu.token')).toBeNull();
  });

  it('shows the server message when the old password is wrong and stays signed in', async () => {
    mockFetch(() => ({
      status: 400,
      body: { code: 400, success: false, msg: '原密码不正确', data: { fields: [{ field: 'oldPassword', message: '原密码不正确' }] } },
    }));
    renderWithApp(<PasswordForm />);
    fill('原密码', 'wrongpass');
    fill('新密码', 'newpass1');
    fill('确认密码', 'newpass1');
    fireEvent.click(screen.getByRole('button', { name: '修改密码' }));
    await waitFor(() => expect(screen.getAllByText('原密码不正确').length).toBeGreaterThanOrEqual(1));
    expect(localStorage.getItem('shutu.token')).toBe('test-token');
  });
});
