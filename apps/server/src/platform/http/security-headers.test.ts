import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import type { App, AppContext } from '../../context.ts';
import { createTestServer, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call, createUser } from '../../../test/fixtures.ts';
import { md5Hex } from '../auth/password.ts';

const kinds = await storeKinds();

const csp = (res: { headers: Record<string, unknown> }) => String(res.headers['content-security-policy'] ?? '');
const directive = (res: { headers: Record<string, unknown> }, name: string) =>
  csp(res)
    .split(';')
    .map((d) => d.trim())
    .find((d) => d === name || d.startsWith(`${name} `));

describe.each(kinds)('security headers on %s', (kind) => {
  let server: TestServer;
  /** The same store, served with a web build (a one-file index.html) as `npm start` does. */
  let app: App;
  let ctx: AppContext;
  let admin: Record<string, string>;
  let webDist: string;

  beforeAll(async () => {
    server = await createTestServer(kind);
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-web-'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><html lang="zh-CN"><body><div id="root"></div></body></html>');
    ctx = { ...server.ctx, config: { ...server.ctx.config, webDist } };
    app = await buildApp(ctx);
    await app.ready();
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { account: 'admin', password: md5Hex('admin123') } });
    admin = { authorization: `Bearer ${res.json().data.token}` };
  });
  afterAll(async () => {
    await app?.close();
    await server?.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
  const saveOrigins = (embedOrigins: string[], headers = admin) => app.inject({ method: 'PUT', url: '/api/system/embed', headers, payload: { embedOrigins } });

  it('sends the policy, nosniff, SAMEORIGIN and a referrer policy on the index page, API answers and refusals', async () => {
    const index = await get('/login');
    expect(index.statusCode).toBe(200);
    expect(index.body).toContain('<div id="root">');
    const refused = await get('/api/org/users');
    expect(refused.statusCode).toBe(401);
    for (const res of [index, await get('/'), await get('/api/health'), refused, await get('/api/nope')]) {
      expect(directive(res, 'default-src')).toBe("default-src 'self'");
      expect(directive(res, 'script-src')).toBe("script-src 'self'");
      expect(directive(res, 'style-src')).toBe("style-src 'self' 'unsafe-inline'");
      expect(directive(res, 'img-src')).toBe("img-src 'self' data: blob: https: http:");
      expect(directive(res, 'object-src')).toBe("object-src 'none'");
      expect(directive(res, 'frame-ancestors')).toBe("frame-ancestors 'self'");
      expect(directive(res, 'upgrade-insecure-requests')).toBeUndefined();
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('lets only the origins an administrator allows frame /openview and share links, with no X-Frame-Options there', async () => {
    // Nothing allowed yet: this server only.
    const before = await get('/openview/5?token=abc');
    expect(before.statusCode).toBe(200);
    expect(directive(before, 'frame-ancestors')).toBe("frame-ancestors 'self'");
    expect(before.headers['x-frame-options']).toBeUndefined();
    expect(before.headers['referrer-policy']).toBe('no-referrer');

    const saved = await saveOrigins([' HTTPS://Portal.Example.com/ ', 'https://*.intra.example.org:8443', 'https://portal.example.com']);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ msg: '保存成功', data: { embedOrigins: ['https://portal.example.com', 'https://*.intra.example.org:8443'] } });
    expect((await call(server, 'GET', '/api/system/embed', { headers: admin })).body.data.embedOrigins).toEqual([
      'https://portal.example.com',
      'https://*.intra.example.org:8443',
    ]);

    const allowed = "frame-ancestors 'self' https://portal.example.com https://*.intra.example.org:8443";
    for (const url of ['/openview/5?token=abc', '/share/Ab3dEf9h', '/share/Ab3dEf9h?watermark=1']) {
      const res = await get(url);
      expect(directive(res, 'frame-ancestors')).toBe(allowed);
      expect(directive(res, 'default-src')).toBe("default-src 'self'");
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    // Every other page, and the API (the share API too), stays this server's own.
    for (const url of ['/login', '/newbi/preview/5', '/fullpowerpoint/1', '/api/share/links', '/openview', '/sharex/1']) {
      const res = await get(url);
      expect(directive(res, 'frame-ancestors')).toBe("frame-ancestors 'self'");
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  });

  it('refuses an origin that is not scheme://host[:port], and non-administrators', async () => {
    for (const bad of [
      '*',
      'portal.example.com',
      'https://portal.example.com/path',
      "'self'",
      'https://a.com; script-src *',
      'javascript:alert(1)',
      'https://a.com https://b.com',
    ]) {
      const res = await saveOrigins([bad]);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().msg).toContain('来源格式不正确');
      expect(res.json().data.fields[0].field).toBe('embedOrigins');
    }
    const user = await createUser(server, admin);
    const headers = await server.login(user.account, user.password);
    expect((await saveOrigins(['https://evil.example.com'], headers)).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/system/embed', headers })).statusCode).toBe(403);
  });

  it('reads the allowed origins from a cache the save replaces, not from the store on every page', async () => {
    expect((await saveOrigins(['https://one.example.com'])).statusCode).toBe(200);
    expect(directive(await get('/share/x1'), 'frame-ancestors')).toBe("frame-ancestors 'self' https://one.example.com");
    // Written behind the server's back: the cache still answers.
    await ctx.db
      .updateTable('sysConfig')
      .set({ value: JSON.stringify({ embedOrigins: ['https://sneaky.example.com'] }) })
      .where('key', '=', 'embedSettings')
      .execute();
    expect(directive(await get('/share/x1'), 'frame-ancestors')).toBe("frame-ancestors 'self' https://one.example.com");
    // Saving through the API takes effect at once.
    expect((await saveOrigins([])).statusCode).toBe(200);
    expect(directive(await get('/share/x1'), 'frame-ancestors')).toBe("frame-ancestors 'self'");
  });
});
