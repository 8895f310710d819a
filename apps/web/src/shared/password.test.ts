import { afterEach, describe, expect, it, vi } from 'vitest';
import { loginBody } from '../features/auth/api.ts';
import { createUser, resetUserPassword } from '../features/org/api.ts';
import { passwordBody } from '../features/profile/api.ts';
import { mockFetch, ok } from '../test/fetch-mock.ts';
import { hashPasswordFields, md5Hex } from './password.ts';

// Known digests: md5('admin123') and md5('newpass1').
const ADMIN123 = '0192023a7bbd73250516f069df18b500';
const NEWPASS1 = md5Hex('newpass1');

describe('password hashing', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('md5Hex gives the lowercase hex digest', () => {
    expect(md5Hex('admin123')).toBe(ADMIN123);
    expect(md5Hex('中文密码')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('hashes only the named fields', () => {
    expect(hashPasswordFields({ account: 'admin', password: 'admin123' }, ['password'])).toEqual({ account: 'admin', password: ADMIN123 });
  });

  it('the login body carries the md5 of the password, never the clear text', () => {
    expect(loginBody({ account: ' admin ', password: 'admin123' })).toEqual({ account: 'admin', password: ADMIN123 });
  });

  it('the password change sends old, new and confirm as md5', () => {
    expect(passwordBody({ oldPassword: 'admin123', newPassword: 'newpass1', confirmPassword: 'newpass1' })).toEqual({
      oldPassword: ADMIN123,
      newPassword: NEWPASS1,
      confirmPassword: NEWPASS1,
    });
  });

  it('user creation and password reset send md5 on the wire', async () => {
    const calls = mockFetch(() => ok(null));
    await createUser({ account: 'zhangsan', password: 'admin123', name: '张三' });
    await resetUserPassword(7, 'newpass1');
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/api/org/users', body: { account: 'zhangsan', password: ADMIN123, name: '张三' } });
    expect(calls[1]).toMatchObject({ method: 'PUT', url: '/api/org/users/7/password', body: { password: NEWPASS1 } });
    expect(JSON.stringify(calls)).not.toContain('admin123');
    expect(JSON.stringify(calls)).not.toContain('newpass1');
  });
});
