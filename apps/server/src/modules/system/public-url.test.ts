import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../../test/harness.ts';
import { call, createUser } from '../../../test/fixtures.ts';
import { loadConfig } from '../../platform/config.ts';
import { publicBaseUrl } from './index.ts';

/**
 * 系统设置 → 公开访问地址 (docs/decisions.md): validated and normalised, administrators only,
 * cached and replaced on save, and PUBLIC_URL is the default while it is empty. The rules are the
 * server's, not the store's: the embedded store only.
 */
describe('公开访问地址', () => {
  let server: TestServer;
  let admin: Record<string, string>;
  const put = (publicUrl: unknown, headers = admin) => call(server, 'PUT', '/api/system/public-url', { headers, payload: { publicUrl } });
  const get = (headers = admin) => call(server, 'GET', '/api/system/public-url', { headers });

  beforeAll(async () => {
    server = await createTestServer('pglite');
    admin = await server.login();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is empty at first; PUBLIC_URL is the default while it is', async () => {
    expect((await get()).body.data).toEqual({ publicUrl: '', envPublicUrl: '' });
    expect(await publicBaseUrl(server.ctx)).toBeUndefined();
    server.ctx.config.publicUrl = 'https://env.example.com';
    try {
      expect((await get()).body.data).toEqual({ publicUrl: '', envPublicUrl: 'https://env.example.com' });
      expect(await publicBaseUrl(server.ctx)).toBe('https://env.example.com');
      expect((await put('https://bi.example.com')).status).toBe(200);
      expect(await publicBaseUrl(server.ctx)).toBe('https://bi.example.com');
      expect((await put('')).body.data).toEqual({ publicUrl: '', envPublicUrl: 'https://env.example.com' });
      expect(await publicBaseUrl(server.ctx)).toBe('https://env.example.com');
    } finally {
      server.ctx.config.publicUrl = undefined;
    }
  });

  it('accepts an http(s) origin with an optional path prefix, normalised; refuses anything else with 400 and a Chinese message', async () => {
    const saved = await put('  HTTPS://BI.Example.com:443/shutu/  ');
    expect([saved.status, saved.body.msg, saved.body.data]).toEqual([200, '保存成功', { publicUrl: 'https://bi.example.com/shutu', envPublicUrl: '' }]);
    expect((await get()).body.data.publicUrl).toBe('https://bi.example.com/shutu');
    expect((await put('http://10.0.0.8:8080')).body.data.publicUrl).toBe('http://10.0.0.8:8080');
    for (const bad of [
      'bi.example.com',
      'ftp://bi.example.com',
      'https://',
      'https://bi.example.com/?a=1',
      'https://bi.example.com/#x',
      'https://u:p@bi.example.com',
      'https://bi example.com',
      `https://${'a'.repeat(500)}.com`,
    ]) {
      const res = await put(bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.msg, bad).toMatch(/^公开访问地址格式不正确：请填写以 http:\/\/ 或 https:\/\/ 开头的地址/);
    }
    expect((await put(42)).status).toBe(400);
    // A refused value leaves the saved one in place.
    expect(await publicBaseUrl(server.ctx)).toBe('http://10.0.0.8:8080');
  });

  it('is for administrators only', async () => {
    const member = await createUser(server, admin);
    const headers = await server.login(member.account, member.password);
    expect((await get(headers)).status).toBe(403);
    expect((await put('https://evil.example.com', headers)).status).toBe(403);
    expect(await publicBaseUrl(server.ctx)).toBe('http://10.0.0.8:8080');
  });

  it('PUBLIC_URL is normalised at start; an invalid one stops the start with the same message', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://BI.example.com/' }).publicUrl).toBe('https://bi.example.com');
    expect(loadConfig({ PUBLIC_URL: '' }).publicUrl).toBeUndefined();
    expect(() => loadConfig({ PUBLIC_URL: 'bi.example.com' })).toThrow(/^PUBLIC_URL: 公开访问地址格式不正确/);
  });
});
