import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, storeKinds, type TestServer } from '../../../test/harness.ts';
import { md5Hex } from '../../platform/auth/password.ts';

const kinds = await storeKinds();

describe.each(kinds)('auth on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer(kind);
  });
  afterAll(() => server?.close());

  const login = (account: string, password: string) =>
    server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { account, password: md5Hex(password) } });

  it('logs the seeded admin in and reports who they are', async () => {
    const headers = await server.login();
    const info = await server.app.inject({ method: 'GET', url: '/api/auth/info', headers });
    expect(info.statusCode).toBe(200);
    const body = info.json();
    expect(body).toMatchObject({ code: 200, success: true, data: { account: 'admin', isAdministrator: true } });
    expect(body.data.permissions).toEqual(expect.arrayContaining(['dict_add', 'dict_view', 'dict_edit', 'dict_delete', 'cube_filter_row']));
  });

  it('refuses a wrong password with 401 and a Chinese message', async () => {
    const res = await login('admin', 'wrong-password');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 401, success: false, msg: '账号或密码错误' });
  });

  it('locks an account after five failures within a minute, even for the right password', async () => {
    for (let i = 0; i < 5; i++) expect((await login('locked_probe', 'nope')).statusCode).toBe(401);
    const sixth = await login('locked_probe', 'nope');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().msg).toBe('登录失败次数过多，请1分钟后再试');
  });

  it('names the missing fields with a 400', async () => {
    const res = await server.app.inject({ method: 'POST', url: '/api/auth/login', payload: {} });
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .data.fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(['account', 'password']);
    expect(res.json().msg).toBe('请输入账号');
  });

  it('refuses a clear-text password: the browser must send the MD5 digest', async () => {
    const res = await server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { account: 'admin', password: 'admin123' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('密码须以MD5摘要发送');
  });

  it('revokes the token on logout', async () => {
    const headers = await server.login();
    expect((await server.app.inject({ method: 'POST', url: '/api/auth/logout', headers })).statusCode).toBe(200);
    const after = await server.app.inject({ method: 'GET', url: '/api/auth/info', headers });
    expect(after.statusCode).toBe(401);
  });

  it('rejects expired tokens', async () => {
    const headers = await server.login();
    await server.store.db
      .updateTable('authToken')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .execute();
    expect((await server.app.inject({ method: 'GET', url: '/api/auth/info', headers })).statusCode).toBe(401);
  });

  it('answers unknown API paths with a 404 envelope', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, msg: '接口不存在' });
  });
});
