import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../../test/harness.ts';
import { call, createUser } from '../../../test/fixtures.ts';
import { serverTimeZone, serverTimeZoneOffsetMinutes } from './index.ts';

/**
 * 系统设置 → 时区 (docs/decisions.md "Time zone"): Asia/Shanghai until set, an IANA name checked
 * and spelled properly, administrators only, and the public config tells the web app. The rules
 * are the server's, not the store's: the embedded store only.
 */
describe('时区', () => {
  let server: TestServer;
  let admin: Record<string, string>;
  const put = (timeZone: unknown, headers = admin) => call(server, 'PUT', '/api/system/time-zone', { headers, payload: { timeZone } });
  const get = (headers = admin) => call(server, 'GET', '/api/system/time-zone', { headers });

  beforeAll(async () => {
    server = await createTestServer('pglite');
    admin = await server.login();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is Asia/Shanghai at first, and the public config says so to everyone', async () => {
    expect((await get()).body.data).toEqual({ timeZone: 'Asia/Shanghai' });
    expect((await call(server, 'GET', '/api/system/config')).body.data).toEqual({ systemName: '数图', timeZone: 'Asia/Shanghai' });
    expect(await serverTimeZoneOffsetMinutes(server.ctx, new Date())).toBe(480);
  });

  it('saves an IANA name in its proper spelling; the offset follows daylight saving', async () => {
    const saved = await put('  america/new_york ');
    expect([saved.status, saved.body.msg, saved.body.data]).toEqual([200, '保存成功', { timeZone: 'America/New_York' }]);
    expect((await call(server, 'GET', '/api/system/config')).body.data.timeZone).toBe('America/New_York');
    expect(await serverTimeZoneOffsetMinutes(server.ctx, new Date('2026-01-15T12:00:00Z'))).toBe(-300);
    expect(await serverTimeZoneOffsetMinutes(server.ctx, new Date('2026-07-15T12:00:00Z'))).toBe(-240);
    expect((await put('Asia/Tokyo')).body.data).toEqual({ timeZone: 'Asia/Tokyo' });
  });

  it('refuses what is not a zone with 400 and a Chinese message, keeping the saved one', async () => {
    for (const bad of ['Mars/Olympus_Mons', '+08:00', 'GMT+8', 'Asia/Shanghai; drop table sys_config', 'x'.repeat(80)]) {
      const res = await put(bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.msg, bad).toMatch(/^时区名称不正确：.*（请填写 IANA 时区名称，如 Asia\/Shanghai、Asia\/Tokyo、America\/New_York）$/);
    }
    const empty = await put('  ');
    expect([empty.status, empty.body.msg]).toEqual([400, '请选择时区']);
    expect((await put(8)).status).toBe(400);
    expect(await serverTimeZone(server.ctx)).toBe('Asia/Tokyo');
  });

  it('is for administrators only', async () => {
    const member = await createUser(server, admin);
    const headers = await server.login(member.account, member.password);
    expect((await get(headers)).status).toBe(403);
    expect((await put('UTC', headers)).status).toBe(403);
    expect(await serverTimeZone(server.ctx)).toBe('Asia/Tokyo');
  });
});
