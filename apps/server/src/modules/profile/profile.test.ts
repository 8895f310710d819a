import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call, createUser } from '../../../test/fixtures.ts';
import { md5Hex } from '../../platform/auth/password.ts';

const kinds = await storeKinds();

describe.each(kinds)('personal settings on %s', (kind) => {
  let server: TestServer;
  let admin: Record<string, string>;
  beforeAll(async () => {
    server = await createTestServer(kind);
    admin = await server.login();
  });
  afterAll(() => server?.close());

  const login = (account: string, password: string) =>
    server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { account, password: md5Hex(password) } });
  const changePassword = (headers: Record<string, string>, oldPassword: string, newPassword: string, confirmPassword = newPassword) =>
    call(server, 'PUT', '/api/profile/password', {
      headers,
      payload: { oldPassword: md5Hex(oldPassword), newPassword: md5Hex(newPassword), confirmPassword: md5Hex(confirmPassword) },
    });

  it('shows the caller their own information', async () => {
    const res = await call(server, 'GET', '/api/profile', { headers: admin });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ account: 'admin', name: '系统管理员', realName: '管理员', isAdministrator: true });
    expect(res.body.data.permissions).toContain('dict_view');
  });

  it('saves the personal-info tab and says 修改信息成功', async () => {
    const user = await createUser(server, admin, { name: '张三' });
    const headers = await server.login(user.account, user.password);
    const res = await call(server, 'PUT', '/api/profile', {
      headers,
      payload: { name: '张三丰', realName: '张君宝', phone: '13800138000', email: 'zhang@example.com', avatar: '/a.png' },
    });
    expect(res.status).toBe(200);
    expect(res.body.msg).toBe('修改信息成功');
    expect(res.body.data).toMatchObject({
      id: user.id,
      account: user.account,
      name: '张三丰',
      realName: '张君宝',
      phone: '13800138000',
      email: 'zhang@example.com',
    });
    const again = await call(server, 'GET', '/api/profile', { headers });
    expect(again.body.data).toMatchObject({ name: '张三丰', avatar: '/a.png' });

    // Empty optional fields are cleared, not stored as ''.
    const cleared = await call(server, 'PUT', '/api/profile', { headers, payload: { name: '张三丰', realName: '', phone: '', email: '' } });
    expect(cleared.body.data).toMatchObject({ realName: null, phone: null, email: null, avatar: null });
  });

  it('refuses a missing name and malformed phone or email with Chinese messages', async () => {
    const headers = await server.login();
    const noName = await call(server, 'PUT', '/api/profile', { headers, payload: { name: '  ' } });
    expect(noName.status).toBe(400);
    expect(noName.body.msg).toBe('请输入姓名');
    const badPhone = await call(server, 'PUT', '/api/profile', { headers, payload: { name: 'x', phone: 'abc' } });
    expect(badPhone.body.msg).toBe('请输入正确的手机号');
    const badEmail = await call(server, 'PUT', '/api/profile', { headers, payload: { name: 'x', email: 'nope' } });
    expect(badEmail.body.msg).toBe('请输入正确的邮箱');
  });

  it('changes the password: the new one works, the old one no longer does, other sessions end', async () => {
    const user = await createUser(server, admin, {}, 'first-pass');
    const here = await server.login(user.account, 'first-pass');
    const elsewhere = await server.login(user.account, 'first-pass');

    const res = await changePassword(here, 'first-pass', 'second-pass');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, msg: '修改密码成功' });

    expect((await login(user.account, 'first-pass')).statusCode).toBe(401);
    expect((await login(user.account, 'second-pass')).statusCode).toBe(200);
    // The session that changed the password goes on; the other one is signed out.
    expect((await call(server, 'GET', '/api/profile', { headers: here })).status).toBe(200);
    expect((await call(server, 'GET', '/api/profile', { headers: elsewhere })).status).toBe(401);
  });

  it('refuses a wrong old password on the oldPassword field and keeps the password', async () => {
    const user = await createUser(server, admin, {}, 'keep-me');
    const headers = await server.login(user.account, 'keep-me');
    const res = await changePassword(headers, 'not-it', 'another-one');
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('原密码不正确');
    expect(res.body.data.fields).toEqual([{ field: 'oldPassword', message: '原密码不正确' }]);
    expect((await login(user.account, 'keep-me')).statusCode).toBe(200);
    expect((await login(user.account, 'another-one')).statusCode).toBe(401);
  });

  it('refuses a confirmation that differs, and a new password equal to the old', async () => {
    const user = await createUser(server, admin, {}, 'pass-one');
    const headers = await server.login(user.account, 'pass-one');
    const mismatch = await changePassword(headers, 'pass-one', 'pass-two', 'pass-three');
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.msg).toBe('两次输入的密码不一致');
    expect(mismatch.body.data.fields[0].field).toBe('confirmPassword');
    const same = await changePassword(headers, 'pass-one', 'pass-one');
    expect(same.status).toBe(400);
    expect(same.body.msg).toBe('新密码不能与原密码相同');
    expect((await login(user.account, 'pass-one')).statusCode).toBe(200);
  });

  it('refuses clear-text passwords and missing entries', async () => {
    const headers = await server.login();
    const clear = await call(server, 'PUT', '/api/profile/password', {
      headers,
      payload: { oldPassword: 'admin123', newPassword: md5Hex('x'), confirmPassword: md5Hex('x') },
    });
    expect(clear.status).toBe(400);
    expect(clear.body.msg).toBe('密码须以MD5摘要发送');
    const missing = await call(server, 'PUT', '/api/profile/password', { headers, payload: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.data.fields.map((f: { message: string }) => f.message)).toEqual(['请输入原密码', '请输入新密码', '请再次输入新密码']);
  });

  it('needs a signed-in caller', async () => {
    expect((await call(server, 'GET', '/api/profile')).status).toBe(401);
    expect((await call(server, 'PUT', '/api/profile', { payload: { name: 'x' } })).status).toBe(401);
  });
});
