import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call, createRole, createUser, uniqueAccount } from '../../../test/fixtures.ts';
import { md5Hex } from '../../platform/auth/password.ts';

const kinds = await storeKinds();

describe.each(kinds)('user administration on %s', (kind) => {
  let server: TestServer;
  let admin: Record<string, string>;
  beforeAll(async () => {
    server = await createTestServer(kind);
    admin = await server.login();
  });
  afterAll(() => server?.close());

  const login = (account: string, password: string) =>
    server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { account, password: md5Hex(password) } });
  const list = (query: Record<string, string | number>) => call(server, 'GET', '/api/org/users', { headers: admin, query });
  const createDept = async (deptName: string, parentId = 0) => {
    const res = await call(server, 'POST', '/api/org/departments', { headers: admin, payload: { deptName, parentId } });
    expect(res.status).toBe(200);
    return res.body.data.id as number;
  };
  const adminId = async () => (await call(server, 'GET', '/api/profile', { headers: admin })).body.data.id as number;

  it('creates a user with department and roles, and lists it with the department name', async () => {
    const deptId = await createDept('财务部');
    const roleId = await createRole(server, admin, ['dict_view']);
    const account = uniqueAccount('Li');
    const res = await call(server, 'POST', '/api/org/users', {
      headers: admin,
      payload: { account, password: md5Hex('pw123456'), name: '李四', realName: '李思', phone: '010-1234567', deptId, roleIds: [roleId, roleId] },
    });
    expect(res.status).toBe(200);
    expect(res.body.msg).toBe('保存成功');
    expect(res.body.data).toMatchObject({ account, name: '李四', deptId, deptName: '财务部', roleIds: [roleId], isAdministrator: false, status: 1 });
    expect(new Date(res.body.data.createTime).toISOString()).toBe(res.body.data.createTime);
    expect(res.body.data).not.toHaveProperty('passwordHash');

    const found = await list({ keyword: account });
    expect(found.body.data).toMatchObject({ total: 1, current: 1, size: 10 });
    expect(found.body.data.records[0]).toMatchObject({ id: res.body.data.id, deptName: '财务部', roleIds: [roleId] });
    expect((await login(account, 'pw123456')).statusCode).toBe(200);
  });

  it('refuses a second account differing only in case with 409 账号已存在', async () => {
    const account = uniqueAccount('Dup');
    await createUser(server, admin, { account });
    const res = await call(server, 'POST', '/api/org/users', { headers: admin, payload: { account: account.toUpperCase(), password: md5Hex('x'), name: 'x' } });
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe('账号已存在');
  });

  it('lets only one of several simultaneous creates of one account through', async () => {
    const account = uniqueAccount('Race');
    const results = await Promise.all(
      [account, account.toLowerCase(), account.toUpperCase(), account].map((a) =>
        call(server, 'POST', '/api/org/users', { headers: admin, payload: { account: a, password: md5Hex('x'), name: 'x' } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.msg === '账号已存在')).toBe(true);
    expect((await list({ keyword: account })).body.data.total).toBe(1);
  });

  it('validates the account, name and references, writing nothing on failure', async () => {
    const bad = await call(server, 'POST', '/api/org/users', { headers: admin, payload: { account: '1abc', password: md5Hex('x'), name: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('账号须以字母开头，只含字母、数字或下划线，长度2-32');
    const noName = await call(server, 'POST', '/api/org/users', { headers: admin, payload: { account: 'abc', password: md5Hex('x') } });
    expect(noName.body.msg).toBe('请输入姓名');

    const account = uniqueAccount('ghost');
    const noDept = await call(server, 'POST', '/api/org/users', { headers: admin, payload: { account, password: md5Hex('x'), name: 'x', deptId: 999999 } });
    expect(noDept.status).toBe(400);
    expect(noDept.body).toMatchObject({ msg: '部门不存在', data: { fields: [{ field: 'deptId' }] } });
    const noRole = await call(server, 'POST', '/api/org/users', { headers: admin, payload: { account, password: md5Hex('x'), name: 'x', roleIds: [999999] } });
    expect(noRole.status).toBe(400);
    expect(noRole.body.msg).toBe('角色不存在');
    expect((await list({ keyword: account })).body.data.total).toBe(0);
  });

  it('searches account, name, real name and phone, ignoring case and treating % literally', async () => {
    const tag = uniqueAccount('Srch');
    await createUser(server, admin, { account: `${tag}_a`, name: '王五' });
    await createUser(server, admin, { name: `Name${tag}` });
    await createUser(server, admin, { name: '赵六', realName: `real ${tag.toUpperCase()}` });
    await createUser(server, admin, { name: '钱七', phone: '13912345678' });
    expect((await list({ keyword: tag.toLowerCase() })).body.data.total).toBe(3);
    expect((await list({ keyword: '王五' })).body.data.records.map((u: { name: string }) => u.name)).toEqual(['王五']);
    expect((await list({ keyword: '9123456' })).body.data.total).toBe(1);
    expect((await list({ keyword: '%' })).body.data.total).toBe(0);
  });

  it('filters by a department including all its sub-departments', async () => {
    const top = await createDept('华东区');
    const mid = await createDept('上海分公司', top);
    const leaf = await createDept('浦东营业部', mid);
    const other = await createDept('华北区');
    for (const deptId of [top, mid, leaf, leaf, other]) await createUser(server, admin, { deptId });
    expect((await list({ deptId: top })).body.data.total).toBe(4);
    expect((await list({ deptId: mid })).body.data.total).toBe(3);
    expect((await list({ deptId: leaf })).body.data.total).toBe(2);
    expect((await list({ deptId: other })).body.data.total).toBe(1);
    expect((await list({ deptId: 999999 })).body.data.total).toBe(0);
  });

  it('pages the list in id order', async () => {
    const deptId = await createDept('分页部');
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createUser(server, admin, { deptId })).id);
    const second = await list({ deptId, current: 2, size: 2 });
    expect(second.body.data).toMatchObject({ total: 5, current: 2, size: 2 });
    expect(second.body.data.records.map((u: { id: number }) => u.id)).toEqual(ids.slice(2, 4));
    expect((await list({ deptId, current: 3, size: 2 })).body.data.records).toHaveLength(1);
    expect((await list({ size: 10001 })).status).toBe(400);
  });

  it('edits a user, replacing fields and roles; promotion to administrator takes effect at once', async () => {
    const roleA = await createRole(server, admin, ['dict_view']);
    const roleB = await createRole(server, admin, ['dict_add']);
    const user = await createUser(server, admin, { roleIds: [roleA], phone: '12345678' });
    const headers = await server.login(user.account, user.password);
    expect((await call(server, 'GET', '/api/org/users', { headers })).status).toBe(403);

    const res = await call(server, 'PUT', `/api/org/users/${user.id}`, {
      headers: admin,
      payload: { name: '新名字', roleIds: [roleB], isAdministrator: true, userExtJson: '{"level":2}' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: '新名字', phone: null, roleIds: [roleB], isAdministrator: true, userExtJson: '{"level":2}' });
    expect((await call(server, 'GET', '/api/org/users', { headers })).status).toBe(200);

    const badJson = await call(server, 'PUT', `/api/org/users/${user.id}`, { headers: admin, payload: { name: 'x', userExtJson: '{' } });
    expect(badJson.body.msg).toBe('扩展信息须为合法的JSON');
    const missing = await call(server, 'PUT', '/api/org/users/999999', { headers: admin, payload: { name: 'x' } });
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe('用户不存在');
  });

  it('does not let an administrator remove their own administrator flag', async () => {
    const id = await adminId();
    const res = await call(server, 'PUT', `/api/org/users/${id}`, { headers: admin, payload: { name: '系统管理员', isAdministrator: false } });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('不能取消自己的管理员身份');
    expect((await call(server, 'GET', '/api/org/users', { headers: admin })).status).toBe(200);
  });

  it('disables a user: their sessions end and login says the account is disabled; enabling restores it', async () => {
    const user = await createUser(server, admin);
    const headers = await server.login(user.account, user.password);
    const off = await call(server, 'PUT', `/api/org/users/${user.id}/status`, { headers: admin, payload: { status: 0 } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ msg: '已停用', data: { status: 0 } });
    expect((await call(server, 'GET', '/api/profile', { headers })).status).toBe(401);
    const refused = await login(user.account, user.password);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().msg).toBe('账号已被停用，请联系管理员');

    const on = await call(server, 'PUT', `/api/org/users/${user.id}/status`, { headers: admin, payload: { status: 1 } });
    expect(on.body).toMatchObject({ msg: '已启用', data: { status: 1 } });
    expect((await login(user.account, user.password)).statusCode).toBe(200);
  });

  it('does not let an administrator disable themselves', async () => {
    const res = await call(server, 'PUT', `/api/org/users/${await adminId()}/status`, { headers: admin, payload: { status: 0 } });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('不能停用当前登录的账号');
    expect((await call(server, 'PUT', '/api/org/users/999999/status', { headers: admin, payload: { status: 0 } })).status).toBe(404);
    expect((await call(server, 'PUT', `/api/org/users/${await adminId()}/status`, { headers: admin, payload: { status: 2 } })).status).toBe(400);
  });

  it('resets a password: the user is signed out and only the new password works', async () => {
    const user = await createUser(server, admin, {}, 'before-reset');
    const headers = await server.login(user.account, 'before-reset');
    const res = await call(server, 'PUT', `/api/org/users/${user.id}/password`, { headers: admin, payload: { password: md5Hex('after-reset') } });
    expect(res.status).toBe(200);
    expect(res.body.msg).toBe('密码已重置');
    expect((await call(server, 'GET', '/api/profile', { headers })).status).toBe(401);
    expect((await login(user.account, 'before-reset')).statusCode).toBe(401);
    expect((await login(user.account, 'after-reset')).statusCode).toBe(200);
    const clear = await call(server, 'PUT', `/api/org/users/${user.id}/password`, { headers: admin, payload: { password: 'plain' } });
    expect(clear.body.msg).toBe('密码须以MD5摘要发送');
    expect((await call(server, 'PUT', '/api/org/users/999999/password', { headers: admin, payload: { password: md5Hex('x') } })).status).toBe(404);
  });
});
