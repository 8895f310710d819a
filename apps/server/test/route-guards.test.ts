import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION_CODES } from '@shutu/contracts';
import type { Access } from '../src/platform/auth/access.ts';
import { createTestServer, storeKinds, type TestServer } from './harness.ts';
import { call, createRole, createUser } from './fixtures.ts';
import { issueScopedToken } from '../src/platform/auth/tokens.ts';

/**
 * Walks every /api route the app registers, so a route added later is covered without
 * touching this file: it must declare access, refuse anonymous callers with 401 and
 * callers without the right with 403. A new public route must be added here on purpose.
 */
// Board thumbnails: <img> tags send no bearer token; their file names are unguessable (board/thumbnail.ts).
// Opening a share link: login-free links are opened by anyone holding them (share/open.ts).
const PUBLIC_ROUTES = new Set([
  'GET /api/health',
  'GET /api/docs',
  'POST /api/auth/login',
  'GET /api/system/config',
  'GET /api/board/thumbnails/:file',
  // Images and PDFs subscriptions link to (robots fetch them without a token); unguessable names.
  'GET /api/subscription/images/:file',
  // The board image an alert's robots fetch (alert/board-image.ts): unguessable names, kept 7 days.
  'GET /api/alert/images/:file',
  'POST /api/share/open/:code',
  // The open platform pushes component_verify_ticket without a token; checked by its signature (cdp/platforms.ts).
  'POST /api/cdp/ticket/:platformId',
]);

interface ApiRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  access: Access | undefined;
  shareable: boolean;
  hidden: boolean;
  tags: unknown;
  summary: unknown;
  hasResponse: boolean;
}

const kinds = await storeKinds();

/** `:id` and friends filled with a plausible value; the guard answers before params are read. */
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '1').replace(/\*/g, 'x');
const label = (r: ApiRoute) => `${r.method} ${r.url}`;

describe.each(kinds)('route guards on %s', (kind) => {
  let server: TestServer;
  const routes: ApiRoute[] = [];
  /** Signed-in non-administrators: one with no roles, one holding every permission code. */
  let nobody: Record<string, string>;
  let everyPermission: Record<string, string>;
  /** A token handed out by a share link, scoped to a board that does not exist. */
  let scoped: Record<string, string>;
  /** Per permission code, a non-administrator holding every code except that one. */
  const allBut = new Map<string, Record<string, string>>();

  beforeAll(async () => {
    const collect = (route: RouteOptions) => {
      if (!route.url.startsWith('/api/')) return;
      const schema = (route.schema ?? {}) as { hide?: boolean; tags?: unknown; summary?: unknown; response?: Record<string, unknown> };
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue;
        routes.push({
          method: method as ApiRoute['method'],
          url: route.url,
          access: route.config?.access,
          shareable: route.config?.shareable === true,
          hidden: schema.hide === true,
          tags: schema.tags,
          summary: schema.summary,
          hasResponse: Boolean(schema.response?.[200]),
        });
      }
    };
    server = await createTestServer(kind, { onRoute: collect });
    const admin = await server.login();
    const plain = await createUser(server, admin);
    nobody = await server.login(plain.account, plain.password);
    const all = await createUser(server, admin, { roleIds: [await createRole(server, admin, [...PERMISSION_CODES])] });
    everyPermission = await server.login(all.account, all.password);
    const share = await issueScopedToken(server.ctx.db, all.id, { share: 0, boards: [999_999], ppt: null }, new Date(Date.now() + 600_000));
    scoped = { authorization: `Bearer ${share.token}` };
    for (const code of PERMISSION_CODES) {
      const role = await createRole(
        server,
        admin,
        PERMISSION_CODES.filter((c) => c !== code),
      );
      const user = await createUser(server, admin, { roleIds: [role] });
      allBut.set(code, await server.login(user.account, user.password));
    }
  });
  afterAll(() => server?.close());

  it('found the routes of every module', () => {
    const urls = new Set(routes.map((r) => r.url));
    for (const url of [
      '/api/auth/login',
      '/api/profile',
      '/api/org/users',
      '/api/org/roles/:id',
      '/api/dict/parents',
      '/api/dict/remove',
      '/api/datasource',
      '/api/sqlview/views',
      '/api/query/preview',
      '/api/dataset/cubes',
      '/api/dataset/perm-filters',
      '/api/global-param/params',
    ]) {
      expect(urls, url).toContain(url);
    }
  });

  it('every /api route declares who may call it, and only the known ones are public', () => {
    for (const route of routes) {
      expect(route.access, label(route)).toBeDefined();
      if (route.access === 'public') expect(PUBLIC_ROUTES, `${label(route)} is public`).toContain(label(route));
    }
  });

  it('every documented route has tags, a Chinese summary and a response schema', () => {
    for (const route of routes.filter((r) => !r.hidden)) {
      expect(Array.isArray(route.tags) && route.tags.length > 0, `${label(route)} tags`).toBe(true);
      expect(route.summary, `${label(route)} summary`).toMatch(/[\u4e00-\u9fff]/);
      expect(route.hasResponse, `${label(route)} response`).toBe(true);
    }
  });

  it('lists every documented route in the OpenAPI document', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/docs' });
    const doc = res.json<{ paths: Record<string, Record<string, unknown>>; components?: { schemas?: Record<string, unknown> } }>();
    for (const route of routes.filter((r) => !r.hidden)) {
      const path = route.url.replace(/:([A-Za-z]+)/g, '{$1}');
      expect(doc.paths[path]?.[route.method.toLowerCase()], label(route)).toBeDefined();
    }
    // Every $ref (the recursive trees use them) points at a schema the document defines.
    const refs = [...res.body.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    for (const ref of new Set(refs)) expect(doc.components?.schemas, ref).toHaveProperty([ref]);
  });

  it('refuses every non-public route without a token with 401', async () => {
    for (const route of routes.filter((r) => r.access !== 'public')) {
      const res = await call(server, route.method, concrete(route.url), { payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {} });
      expect(res.status, label(route)).toBe(401);
      expect(res.body.msg, label(route)).toBe('登录已失效，请重新登录');
    }
  });

  it('refuses a made-up token with 401', async () => {
    for (const route of routes.filter((r) => r.access !== 'public')) {
      const res = await call(server, route.method, concrete(route.url), { headers: { authorization: 'Bearer not-a-token' } });
      expect(res.status, label(route)).toBe(401);
    }
  });

  it("refuses a share link's scoped token on every route not marked shareable, and outside its scope on those that are", async () => {
    const payloadOf = (r: ApiRoute) => (r.method === 'GET' || r.method === 'DELETE' ? undefined : {});
    for (const route of routes.filter((r) => r.access !== 'public' && !r.shareable)) {
      const res = await call(server, route.method, concrete(route.url), { headers: scoped, payload: payloadOf(route) });
      expect(res.status, label(route)).toBe(403);
      expect(res.body.msg, label(route)).toBe('分享链接只能查看分享的内容');
    }
    const shareable = routes.filter((r) => r.shareable);
    expect(shareable.map(label)).toEqual(
      expect.arrayContaining(['GET /api/board/boards/:id', 'GET /api/board/boards/:id/charts', 'POST /api/board/chart-data']),
    );
    for (const url of ['/api/board/boards/1', '/api/board/boards/1/charts']) {
      const res = await call(server, 'GET', url, { headers: scoped });
      expect(res.status, url).toBe(403);
    }
    const data = await call(server, 'POST', '/api/board/chart-data', { headers: scoped, payload: { boardId: 1, chartKey: 'c1' } });
    expect(data.status).toBe(403);
  });

  it('refuses administrator routes to non-administrators, even holding every permission, with 403', async () => {
    const adminRoutes = routes.filter((r) => r.access === 'admin');
    expect(adminRoutes.length).toBeGreaterThan(0);
    for (const route of adminRoutes) {
      for (const headers of [nobody, everyPermission]) {
        const res = await call(server, route.method, concrete(route.url), {
          headers,
          payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
        });
        expect(res.status, label(route)).toBe(403);
        expect(res.body.msg, label(route)).toBe('没有权限执行此操作');
      }
    }
  });

  it('refuses permission routes to users whose roles lack exactly that permission, with 403', async () => {
    const guarded = routes.filter((r) => typeof r.access === 'object');
    expect(guarded.length).toBeGreaterThan(0);
    for (const route of guarded) {
      const code = (route.access as { permission: string }).permission;
      expect(PERMISSION_CODES, label(route)).toContain(code);
      for (const headers of [nobody, allBut.get(code)!]) {
        const res = await call(server, route.method, concrete(route.url), {
          headers,
          payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
        });
        expect(res.status, label(route)).toBe(403);
      }
    }
  });
});
