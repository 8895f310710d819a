import type { RouteOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, reopenableTestStore, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call } from '../../../test/fixtures.ts';
import { md5Hex } from '../../platform/auth/password.ts';
import { issueScopedToken } from '../../platform/auth/tokens.ts';
import { migrateToLatest } from '../../platform/db/store.ts';
import { seed } from '../../platform/db/seed.ts';
import { loadConfig } from '../../platform/config.ts';
import { up as flagDefaultAdmin } from '../../platform/db/migrations/0012_must_change_password.ts';

const kinds = await storeKinds();

/** The routes a user with the initial password may still call: everything else is 403 请先修改初始密码. */
const OPEN_BEFORE_CHANGE = new Set(['POST /api/auth/logout', 'GET /api/auth/info', 'GET /api/profile', 'PUT /api/profile/password']);

describe.each(kinds)('initial administrator password on %s', (kind) => {
  // A fresh install without SHUTU_ADMIN_PASSWORD: admin / admin123, to be changed at first login.
  let server: TestServer;
  const routes: { method: string; url: string }[] = [];
  beforeAll(async () => {
    const collect = (route: RouteOptions) => {
      if (!route.url.startsWith('/api/')) return;
      const access = route.config?.access;
      if (!access || access === 'public') return;
      for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url });
    };
    server = await createTestServer(kind, { onRoute: collect }, { initialAdminPassword: true });
  });
  afterAll(() => server?.close());

  const login = (password: string) => server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { account: 'admin', password: md5Hex(password) } });
  const changePassword = (headers: Record<string, string>, oldPassword: string, newPassword: string) =>
    call(server, 'PUT', '/api/profile/password', {
      headers,
      payload: { oldPassword: md5Hex(oldPassword), newPassword: md5Hex(newPassword), confirmPassword: md5Hex(newPassword) },
    });

  it('signs admin / admin123 in flagged, refuses every other route with 403 请先修改初始密码 until the password changes', async () => {
    const res = await login('admin123');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.mustChangePassword).toBe(true);
    const headers = { authorization: `Bearer ${res.json().data.token}` };

    const info = await call(server, 'GET', '/api/auth/info', { headers });
    expect(info.status).toBe(200);
    expect(info.body.data).toMatchObject({ account: 'admin', mustChangePassword: true });

    const users = await call(server, 'GET', '/api/org/users', { headers });
    expect(users.status).toBe(403);
    expect(users.body).toMatchObject({ code: 403, success: false, msg: '请先修改初始密码' });

    // Every signed-in route, whatever its right, but the four the change page needs.
    expect(routes.length).toBeGreaterThan(50);
    const open: string[] = [];
    for (const route of routes) {
      // Would end the session the walk uses: tried last.
      if (route.url === '/api/auth/logout') continue;
      const url = route.url.replace(/:[A-Za-z]+/g, '1').replace(/\*/g, 'x');
      const r = await server.app.inject({ method: route.method as 'GET', url, headers });
      if (r.statusCode === 403 && r.json().msg === '请先修改初始密码') continue;
      open.push(`${route.method} ${route.url}`);
    }
    expect(open.sort()).toEqual([...OPEN_BEFORE_CHANGE].filter((r) => !r.endsWith('logout')).sort());

    // The new password may not be the initial one.
    const same = await changePassword(headers, 'admin123', 'admin123');
    expect(same.status).toBe(400);
    expect(same.body.data.fields).toEqual([{ field: 'newPassword', message: '新密码不能与原密码相同' }]);

    const changed = await changePassword(headers, 'admin123', 'my-own-pass');
    expect(changed.status).toBe(200);
    expect(changed.body.msg).toBe('修改密码成功');
    // The same session goes on, unflagged.
    expect((await call(server, 'GET', '/api/org/users', { headers })).status).toBe(200);
    expect((await call(server, 'GET', '/api/auth/info', { headers })).body.data.mustChangePassword).toBe(false);

    expect((await login('admin123')).statusCode).toBe(401);
    const fresh = await login('my-own-pass');
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().data.mustChangePassword).toBe(false);
  });

  it('lets a user with the initial password sign out', async () => {
    await server.ctx.db.updateTable('sysUser').set({ mustChangePassword: true }).where('account', '=', 'admin').execute();
    const headers = { authorization: `Bearer ${(await login('my-own-pass')).json().data.token}` };
    expect((await call(server, 'GET', '/api/dict/parents', { headers })).status).toBe(403);
    expect((await call(server, 'POST', '/api/auth/logout', { headers })).status).toBe(200);
    expect((await call(server, 'GET', '/api/auth/info', { headers })).status).toBe(401);
    await server.ctx.db.updateTable('sysUser').set({ mustChangePassword: false }).where('account', '=', 'admin').execute();
  });

  it('lets a share link token read while the creator still has the initial password', async () => {
    const admin = await server.ctx.db.selectFrom('sysUser').select('id').where('account', '=', 'admin').executeTakeFirstOrThrow();
    await server.ctx.db.updateTable('sysUser').set({ mustChangePassword: true }).where('id', '=', admin.id).execute();
    const share = await issueScopedToken(server.ctx.db, admin.id, { share: 0, boards: [999_999], ppt: null }, new Date(Date.now() + 600_000));
    // A shareable route answers for itself (the board does not exist), not with the password refusal.
    const res = await call(server, 'GET', '/api/board/boards/999999', { headers: { authorization: `Bearer ${share.token}` } });
    expect(res.status).not.toBe(401);
    expect(res.body.msg).not.toBe('请先修改初始密码');
    await server.ctx.db.updateTable('sysUser').set({ mustChangePassword: false }).where('id', '=', admin.id).execute();
  });
});

describe.each(kinds)('seeding the first administrator on %s', (kind) => {
  it('uses an operator-chosen SHUTU_ADMIN_PASSWORD without forcing a change, and refuses one shorter than 6', async () => {
    expect(loadConfig({ SHUTU_ADMIN_PASSWORD: 'chosen-by-ops' }).adminPassword).toBe('chosen-by-ops');
    expect(loadConfig({ SHUTU_ADMIN_PASSWORD: '' }).adminPassword).toBeUndefined();
    const data = await reopenableTestStore(kind);
    try {
      const store = await data.open();
      try {
        await migrateToLatest(store.db);
        await expect(seed(store.db, { adminPassword: 'short' })).rejects.toThrow(/at least 6/);
        expect(await seed(store.db, { adminPassword: 'chosen-by-ops' })).toEqual({ createdAdmin: true, mustChangePassword: false });
        const admin = await store.db.selectFrom('sysUser').select(['account', 'mustChangePassword']).executeTakeFirstOrThrow();
        expect(admin).toEqual({ account: 'admin', mustChangePassword: false });
        // Seeding again changes nothing.
        expect(await seed(store.db)).toEqual({ createdAdmin: false });
      } finally {
        await store.close();
      }
    } finally {
      await data.cleanup();
    }
  });

  it('flags an upgraded store whose admin still signs in with admin123 (migration 0012), and only then', async () => {
    const data = await reopenableTestStore(kind);
    try {
      const store = await data.open();
      try {
        await migrateToLatest(store.db);
        await seed(store.db, { adminPassword: 'admin123' });
        // As before 0012: drop the column, then run its migration again.
        const { sql } = await import('kysely');
        await sql`alter table sys_user drop column must_change_password`.execute(store.db);
        await flagDefaultAdmin(store.db as unknown as Kysely<unknown>);
        expect((await store.db.selectFrom('sysUser').select('mustChangePassword').executeTakeFirstOrThrow()).mustChangePassword).toBe(true);

        const { hashPassword } = await import('../../platform/auth/password.ts');
        await store.db
          .updateTable('sysUser')
          .set({ passwordHash: await hashPassword(md5Hex('changed-long-ago')) })
          .execute();
        await sql`alter table sys_user drop column must_change_password`.execute(store.db);
        await flagDefaultAdmin(store.db as unknown as Kysely<unknown>);
        expect((await store.db.selectFrom('sysUser').select('mustChangePassword').executeTakeFirstOrThrow()).mustChangePassword).toBe(false);
      } finally {
        await store.close();
      }
    } finally {
      await data.cleanup();
    }
  });
});
