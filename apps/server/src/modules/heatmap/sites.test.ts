import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/fixtures.ts';
import { datasetWorld, type DatasetWorld } from '../../../test/dataset-fixtures.ts';
import { openTestStore, storeKinds } from '../../../test/harness.ts';
import { loadConfig } from '../../platform/config.ts';
import type { MetadataStore } from '../../platform/db/store.ts';
import { closeRenderer, isRendererAvailable } from '../../platform/render/renderer.ts';
import { imageSize } from '../../platform/render/test-pages.ts';
import { frameDecision, refusingHeader } from './frame.ts';
import { flushSiteCounts, trackWriterOf } from './ingest.ts';
import { SiteGuard } from './site-guard.ts';
import { copyLine } from './track-copy.ts';
import { moveStoredClicks, purgeWarehouseClicks } from './warehouse-clicks.ts';
import { purgeExpiredClicks } from './sites.ts';

/**
 * Sites and write keys, per-site limits and counters, retention, and the screenshot fallback
 * for pages that refuse framing (docs/heatmap.md).
 */

describe('rate limit per write key', () => {
  let store: MetadataStore;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ store, cleanup } = await openTestStore('pglite'));
  });
  afterAll(() => cleanup?.());

  it('lets two seconds of events through in a two-second window, refuses more, and allows them again in the next', async () => {
    let now = 0;
    const guard = new SiteGuard(store.db, () => now);
    expect(await guard.take(1, 10, 20)).toBe(true);
    expect(await guard.take(1, 10, 1)).toBe(false);
    // Another site has its own window.
    expect(await guard.take(2, 10, 15)).toBe(true);
    now += 1500;
    expect(await guard.take(1, 10, 1)).toBe(false);
    expect(await guard.take(2, 10, 5)).toBe(true);
    now += 500;
    expect(await guard.take(1, 10, 20)).toBe(true);
    expect(await guard.take(1, 10, 1)).toBe(false);
  });
});

describe('COPY text of a tracked click', () => {
  it('escapes what would break a line or a column, and writes a missing phone as null', () => {
    const line = copyLine({
      siteId: 3,
      event: 'clickScreen',
      eventTime: new Date('2026-01-02T03:04:05Z'),
      distinctId: 'v\\1',
      phone: null,
      pageTitle: '标题\t含制表符\n换行',
      url: 'https://a.example/x\ry',
      platformType: 'PC',
      project: 'production',
      x: 1,
      y: 2,
      pageWidth: 1280,
    });
    expect(line).toBe('3\tclickScreen\t2026-01-02T03:04:05.000Z\tv\\\\1\t\\N\t标题\\t含制表符\\n换行\thttps://a.example/x\\ry\tPC\tproduction\t1\t2\t1280\n');
  });
});

describe('framing rules of a site', () => {
  const product = 'http://bi.example.com:8080';
  const site = 'https://shop.example.com/index.html';
  const refused = (headers: Record<string, string>) => refusingHeader(new Headers(headers), site, product);

  it('reads X-Frame-Options and CSP frame-ancestors as a browser would', () => {
    expect(refused({})).toBeNull();
    expect(refused({ 'x-frame-options': 'DENY' })).toBe('X-Frame-Options: DENY');
    expect(refused({ 'x-frame-options': 'sameorigin' })).toBe('X-Frame-Options: SAMEORIGIN');
    expect(refused({ 'content-security-policy': "default-src 'self'; frame-ancestors 'none'" })).toBe('Content-Security-Policy: frame-ancestors');
    expect(refused({ 'content-security-policy': "frame-ancestors 'self'" })).toBe('Content-Security-Policy: frame-ancestors');
    // frame-ancestors wins over X-Frame-Options when it lets the product in.
    expect(refused({ 'content-security-policy': 'frame-ancestors http://bi.example.com:8080', 'x-frame-options': 'DENY' })).toBeNull();
    expect(refused({ 'content-security-policy': 'frame-ancestors *.example.com:8080' })).toBeNull();
    expect(refused({ 'content-security-policy': 'frame-ancestors https://bi.example.com' })).toBe('Content-Security-Policy: frame-ancestors');
    expect(refused({ 'content-security-policy': "frame-ancestors *, frame-ancestors 'none'" })).toBe('Content-Security-Policy: frame-ancestors');
  });
});

/** A local website: /deny sends X-Frame-Options: DENY, /open sends nothing. */
async function startSite(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith('/deny')) res.setHeader('x-frame-options', 'DENY');
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end('<!doctype html><html><body style="margin:0"><div style="height:1500px;background:#e6f4ff">不许嵌入的页面</div></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('frame or screenshot', () => {
  it('frames the product’s own pages and shows other sites as screenshots, saying why', async () => {
    const site = await startSite();
    try {
      expect(await frameDecision('/demo-site/index.html', 'http://127.0.0.1:1')).toEqual({ mode: 'frame', reason: null });
      const denied = await frameDecision(`${site.url}/deny`, 'http://127.0.0.1:1');
      expect(denied).toEqual({ mode: 'screenshot', reason: '该网站禁止被其他网站嵌入（X-Frame-Options: DENY），下面是服务器按所选宽度截取的页面截图' });
      expect((await frameDecision(`${site.url}/open`, 'http://127.0.0.1:1')).reason).toBe('本系统只嵌入本站的页面，下面是服务器按所选宽度截取的页面截图');
    } finally {
      await site.close();
    }
  });
});

const kinds = await storeKinds();

describe.each(kinds)('sites and write keys on %s', (kind) => {
  let w: DatasetWorld;
  const click = (distinctId: string, url = 'https://shop.example.com/a.html', title = '站点测试页') => ({
    event: 'clickScreen',
    x: 10,
    y: 20,
    pageWidth: 1000,
    url,
    title,
    distinctId,
  });
  const send = (body: unknown) =>
    w.server.app.inject({ method: 'POST', url: '/track/batch', headers: { 'content-type': 'text/plain' }, payload: JSON.stringify(body) });
  const sites = async () => (await call(w.server, 'GET', '/api/heatmap/sites', { headers: w.admin })).body.data as Record<string, unknown>[];

  beforeAll(async () => {
    w = await datasetWorld(kind);
  }, 120_000);
  afterAll(async () => {
    if (w) await closeRenderer(w.server.ctx);
    await w?.close();
  });

  it('adds a site with a key of its own, counts what it sends, disables and deletes it', async () => {
    const empty = await call(w.server, 'POST', '/api/heatmap/sites', { headers: w.admin, payload: { siteName: ' ' } });
    expect([empty.status, empty.body.msg]).toEqual([400, '请输入网站名称']);
    const created = await call(w.server, 'POST', '/api/heatmap/sites', { headers: w.admin, payload: { siteName: '官网', rateLimit: 5 } });
    expect(created.status).toBe(200);
    const site = created.body.data as { id: number; writeKey: string; enabled: boolean; rateLimit: number; retentionDays: number };
    expect(site).toMatchObject({ enabled: true, rateLimit: 5, retentionDays: 365 });
    expect(site.writeKey).toMatch(/^[\w-]{32}$/);
    const again = await call(w.server, 'POST', '/api/heatmap/sites', { headers: w.admin, payload: { siteName: '官网' } });
    expect([again.status, again.body.msg]).toEqual([409, '网站名称【官网】已存在']);
    const member = await w.member();
    expect((await call(w.server, 'GET', '/api/heatmap/sites', { headers: member.headers })).status).toBe(403);

    expect((await send({ writeKey: site.writeKey, events: [click('s1'), click('s1')] })).statusCode).toBe(200);
    // A bad event is dropped and counted; the good ones beside it are stored.
    const mixed = await send({ writeKey: site.writeKey, events: [click('s1'), click('s1'), { ...click('s1'), x: -1 }] });
    expect(mixed.json().data).toMatchObject({ accepted: 2, dropped: 1 });
    // A batch with nothing valid is refused and counts as an invalid batch of the site.
    const bad = await send({ writeKey: site.writeKey, events: [{ ...click('s1'), x: -1 }] });
    expect(bad.statusCode).toBe(400);
    // The bucket holds two seconds at 5 events/s: 10, four are taken, nine more are too many.
    const limited = await send({ writeKey: site.writeKey, events: Array.from({ length: 9 }, () => click('s1')) });
    expect([limited.statusCode, limited.json().msg]).toEqual([429, '写入过于频繁（每秒最多 5 条事件），请稍后重试']);
    const listed = (await sites()).find((s) => s.id === site.id)!;
    expect(listed).toMatchObject({ acceptedEvents: 4, invalidBatches: 1, invalidEvents: 2, limitedBatches: 1 });
    expect(listed.lastEventTime).toBeTruthy();

    const off = await call(w.server, 'PUT', `/api/heatmap/sites/${site.id}`, { headers: w.admin, payload: { enabled: false } });
    expect(off.body.data.enabled).toBe(false);
    const refused = await send({ writeKey: site.writeKey, events: [click('s1')] });
    expect([refused.statusCode, refused.json().msg]).toEqual([403, '该网站已停用，不再接收点击事件']);
    const wrong = await call(w.server, 'PUT', `/api/heatmap/sites/${site.id}`, { headers: w.admin, payload: { retentionDays: 0 } });
    expect([wrong.status, wrong.body.msg]).toEqual([400, '保留天数须为 1 到 3650 的整数']);

    await trackWriterOf(w.server.ctx).flush();
    const count = async () => Number((await w.direct(`SELECT count(*) AS n FROM track_click_events WHERE site_id = ${site.id}`))[0]!.n);
    expect(await count()).toBe(4);
    expect((await call(w.server, 'DELETE', `/api/heatmap/sites/${site.id}`, { headers: w.admin })).status).toBe(200);
    expect(await count()).toBe(0);
    expect((await sites()).some((s) => s.id === site.id)).toBe(false);
    expect((await call(w.server, 'DELETE', `/api/heatmap/sites/${site.id}`, { headers: w.admin })).body.msg).toBe('网站不存在');
  });

  it('refuses the first batch after 停用 has answered, even when batches raced the change', async () => {
    const created = await call(w.server, 'POST', '/api/heatmap/sites', { headers: w.admin, payload: { siteName: '停用竞争', rateLimit: 1000 } });
    const site = created.body.data as { id: number; writeKey: string };
    // Each round: batches in flight while the site is switched off; the next batch must be refused,
    // not accepted from what a racing batch read before the change (CI saw one accepted).
    for (let round = 0; round < 20; round++) {
      const enabled = await call(w.server, 'PUT', `/api/heatmap/sites/${site.id}`, { headers: w.admin, payload: { enabled: true } });
      expect(enabled.status).toBe(200);
      const racing = [send({ writeKey: site.writeKey, events: [click('race')] }), send({ writeKey: site.writeKey, events: [click('race')] })];
      const off = await call(w.server, 'PUT', `/api/heatmap/sites/${site.id}`, { headers: w.admin, payload: { enabled: false } });
      expect(off.body.data.enabled).toBe(false);
      await Promise.all(racing);
      const after = await send({ writeKey: site.writeKey, events: [click('race')] });
      expect([round, after.statusCode]).toEqual([round, 403]);
    }
    expect((await call(w.server, 'DELETE', `/api/heatmap/sites/${site.id}`, { headers: w.admin })).status).toBe(200);
  });

  it("deletes each site's clicks older than its retention days", async () => {
    const created = await call(w.server, 'POST', '/api/heatmap/sites', { headers: w.admin, payload: { siteName: '保留测试', retentionDays: 30 } });
    const id = created.body.data.id as number;
    const row = (days: number) => ({
      ...click('r1'),
      siteId: id,
      eventTime: new Date(Date.now() - days * 86_400_000),
      phone: null,
      pageTitle: '站点测试页',
      platformType: 'PC',
      project: 'production',
    });
    const { title: _t, ...old } = row(31);
    const { title: _u, ...recent } = row(29);
    // In the store (clicks waiting to be moved) …
    await w.server.ctx.db.insertInto('trackEvent').values([old, recent]).execute();
    expect(await purgeExpiredClicks(w.server.ctx.db)).toBeGreaterThanOrEqual(1);
    const left = await w.server.ctx.db.selectFrom('trackEvent').select('eventTime').where('siteId', '=', id).execute();
    expect(left).toHaveLength(1);
    // … and in the warehouse.
    await w.server.ctx.db.insertInto('trackEvent').values([old]).execute();
    expect(await moveStoredClicks(w.server.ctx)).toBe(2);
    expect(await purgeWarehouseClicks(w.server.ctx, [{ id, retentionDays: 30 }])).toBe(1);
    expect(await w.direct(`SELECT count(*) AS n FROM track_click_events WHERE site_id = ${id}`)).toEqual([{ n: 1 }]);
    await flushSiteCounts(w.server.ctx);
  });

  it.runIf(isRendererAvailable(loadConfig({}).chromiumPath) || process.env.CI === 'true')(
    'shows a page that refuses framing as a screenshot taken at the chosen width',
    async () => {
      const site = await startSite();
      try {
        const title = '不许嵌入的页面';
        expect((await send({ writeKey: 'demo-site', events: [click('shot', `${site.url}/deny`, title)] })).statusCode).toBe(200);
        await trackWriterOf(w.server.ctx).flush();
        const frame = await call(w.server, 'GET', '/api/heatmap/frame', { headers: w.admin, query: { title } });
        expect(frame.body.data.mode).toBe('screenshot');
        expect(frame.body.data.reason).toContain('X-Frame-Options: DENY');
        const shot = await w.server.app.inject({
          method: 'GET',
          url: `/api/heatmap/screenshot?title=${encodeURIComponent(title)}&width=800`,
          headers: w.admin,
        });
        expect(shot.statusCode).toBe(200);
        expect(shot.headers['content-type']).toBe('image/png');
        expect(imageSize(shot.rawPayload)).toMatchObject({ format: 'png', width: 800, height: 1500 });
        const narrow = await call(w.server, 'GET', '/api/heatmap/screenshot', { headers: w.admin, query: { title, width: '100' } });
        expect([narrow.status, narrow.body.msg]).toEqual([400, '截图宽度须为 320 到 3840 的整数']);
        const unknown = await call(w.server, 'GET', '/api/heatmap/frame', { headers: w.admin, query: { title: '没有这个页面' } });
        expect([unknown.status, unknown.body.msg]).toEqual([404, '没有找到网站【没有这个页面】']);
      } finally {
        await site.close();
      }
    },
    120_000,
  );
});
