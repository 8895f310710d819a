import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEATMAP_LIMIT, heatmapMessages } from '@shutu/contracts';
import { call } from '../../../test/fixtures.ts';
import { datasetWorld, type DatasetWorld } from '../../../test/dataset-fixtures.ts';
import { storeKinds } from '../../../test/harness.ts';
import { normalisePoint, topAreas } from './areas.ts';
import { nextDay } from './service.ts';

/**
 * The heat map's server side (docs/heatmap.md): coordinates normalised by the page width, the
 * titles, the phone lookup, the user event list checked against hand-written SQL on the demo
 * warehouse, the required date range, and table grants applied to members.
 */

describe('click coordinates', () => {
  it('lands a click made at two widths on the same ratio of the page', () => {
    // The same button, 3/4 across a fluid page, clicked on a 1920 and a 1280 px wide screen.
    const wide = normalisePoint(1440, 500, 1920)!;
    const narrow = normalisePoint(960, 500, 1280)!;
    expect(wide.x).toBe(0.75);
    expect(narrow.x).toBe(wide.x);
    expect(narrow.y).toBe(wide.y);
    expect(normalisePoint(10, 10, 0)).toBeNull();
    expect(normalisePoint(400, 10, 375)!.x).toBe(1);
  });

  it('counts the busiest cells of 5 % width by 100 px, busiest first', () => {
    const points = [
      ...Array.from({ length: 3 }, () => normalisePoint(1440, 520, 1920)!),
      ...Array.from({ length: 3 }, () => normalisePoint(960, 540, 1280)!),
      normalisePoint(10, 10, 1000)!,
    ];
    expect(topAreas(points)).toEqual([
      { x: 0.775, y: 550, count: 6 },
      { x: 0.025, y: 50, count: 1 },
    ]);
  });

  it('counts the end date as a whole day', () => {
    expect(nextDay('2026-02-28')).toBe('2026-03-01');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
  });
});

const kinds = await storeKinds();

describe.each(kinds)('heat map on %s', (kind) => {
  let w: DatasetWorld;
  let busy: { phone: string; distinctId: string; title: string; day: string };

  beforeAll(async () => {
    w = await datasetWorld(kind);
    const [row] = await w.direct(`SELECT phone, distinct_id, page_title, CAST(CAST(max(event_time) AS DATE) AS VARCHAR) AS day, count(*) AS n
      FROM click_events GROUP BY ALL ORDER BY n DESC, phone, page_title LIMIT 1`);
    busy = { phone: String(row!.phone), distinctId: String(row!.distinct_id), title: String(row!.page_title), day: String(row!.day) };
  }, 120_000);
  afterAll(() => w?.close());

  const events = (payload: Record<string, unknown>, headers = w.admin) => call(w.server, 'POST', '/api/heatmap/events', { headers, payload });

  it('lists the website titles with their urls', async () => {
    const res = await call(w.server, 'GET', '/api/heatmap/titles', { headers: w.admin });
    expect(res.status).toBe(200);
    const expected = await w.direct('SELECT page_title, url, platform_type, page_height FROM web_pages ORDER BY page_id');
    expect(res.body.data).toEqual(
      expected.map((r) => ({
        title: r.page_title,
        url: r.url,
        platformType: r.platform_type,
        pageHeight: Number(r.page_height),
        viewUrl: `/demo-site${new URL(String(r.url)).pathname}`,
      })),
    );
  });

  it('serves every demo page at its path, with the tracker, and nothing else', async () => {
    const titles = (await call(w.server, 'GET', '/api/heatmap/titles', { headers: w.admin })).body.data as { title: string; viewUrl: string }[];
    for (const t of titles) {
      const page = await w.server.app.inject({ method: 'GET', url: t.viewUrl });
      expect(page.statusCode, t.viewUrl).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain(`<title>${t.title}</title>`);
      expect(page.body).toContain('src="/tracker/shutu-track.js" data-write-key="demo-site"');
    }
    expect((await w.server.app.inject({ method: 'GET', url: '/demo-site/nope.html' })).statusCode).toBe(404);
    expect((await w.server.app.inject({ method: 'GET', url: '/demo-site/demo.js' })).headers['content-type']).toContain('javascript');
  });

  it('looks a phone up to its shence_id, and says so for an unknown one', async () => {
    const found = await call(w.server, 'GET', '/api/heatmap/phone', { headers: w.admin, query: { phone: busy.phone } });
    expect(found.body.data).toEqual({ tel: busy.phone, shenceId: busy.distinctId });
    const unknown = await call(w.server, 'GET', '/api/heatmap/phone', { headers: w.admin, query: { phone: '10000000000' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.msg).toBe('未找到手机号【10000000000】对应的用户');
    const bad = await call(w.server, 'GET', '/api/heatmap/phone', { headers: w.admin, query: { phone: 'abc' } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe(heatmapMessages.phoneInvalid);
  });

  it('requires a date range', async () => {
    for (const payload of [{ title: busy.title }, { title: busy.title, startTime: '', endTime: '' }, { title: busy.title, startTime: busy.day }]) {
      const res = await events(payload);
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe('请选择日期范围');
    }
    const reversed = await events({ title: busy.title, startTime: busy.day, endTime: '2000-01-01' });
    expect(reversed.status).toBe(400);
    expect(reversed.body.msg).toBe(heatmapMessages.dateRangeOrder);
  });

  it("reads one user's clicks on a page as width ratios, with counts per page and top areas", async () => {
    const from = '2000-01-01';
    const res = await events({ distinctId: busy.distinctId, startTime: from, endTime: busy.day, title: busy.title });
    expect(res.status).toBe(200);
    const rows = await w.direct(
      `SELECT attr1, attr2, attr3 FROM click_events WHERE distinct_id = '${busy.distinctId}' AND page_title = '${busy.title}' AND event = 'clickScreen' ORDER BY event_time`,
    );
    const data = res.body.data;
    expect(data.total).toBe(rows.length);
    expect(data.truncated).toBe(false);
    expect(data.points).toEqual(rows.map((r) => normalisePoint(Number(r.attr1), Number(r.attr2), Number(r.attr3))));
    expect(data.points.every((p: { x: number }) => p.x >= 0 && p.x <= 1)).toBe(true);
    const pages = await w.direct(
      // The same date range as the call: the user's other pages may have clicks after busy.day.
      `SELECT page_title, url, count(*) AS n FROM click_events WHERE distinct_id = '${busy.distinctId}' AND event = 'clickScreen'
        AND event_time >= TIMESTAMP '${from} 00:00:00' AND event_time < TIMESTAMP '${nextDay(busy.day)} 00:00:00' GROUP BY ALL ORDER BY n DESC, page_title`,
    );
    expect(data.pages).toEqual(pages.map((r) => ({ title: r.page_title, url: r.url, count: Number(r.n) })));
    expect(data.topAreas[0].count).toBeGreaterThan(1);
    expect(data.topAreas.reduce((s: number, a: { count: number }) => s + a.count, 0)).toBeLessThanOrEqual(rows.length);
  });

  it('stops at the limit and says the rest was left out', async () => {
    const res = await events({ startTime: '2000-01-01', endTime: busy.day, title: busy.title, limit: 5 });
    expect(res.body.data.total).toBe(5);
    expect(res.body.data.truncated).toBe(true);
    const over = await events({ startTime: '2000-01-01', endTime: busy.day, title: busy.title, limit: HEATMAP_LIMIT + 1 });
    expect(over.status).toBe(400);
  });

  it('reads as the caller: a member needs grants of the tables', async () => {
    const stranger = await w.member();
    const refused = await events({ startTime: '2000-01-01', endTime: busy.day, title: busy.title }, stranger.headers);
    expect(refused.status).toBe(403);
    const analyst = await w.member();
    await w.group([analyst.id], ['click_events', 'web_pages']);
    const allowed = await events({ distinctId: busy.distinctId, startTime: '2000-01-01', endTime: busy.day, title: busy.title }, analyst.headers);
    expect(allowed.status).toBe(200);
    expect(allowed.body.data.total).toBeGreaterThan(0);
    const phone = await call(w.server, 'GET', '/api/heatmap/phone', { headers: analyst.headers, query: { phone: busy.phone } });
    expect(phone.status).toBe(403);
    expect(phone.body.msg).toBe('没有数据表【users】的使用权限，请联系管理员授权');
    await w.group([analyst.id], ['users']);
    const granted = await call(w.server, 'GET', '/api/heatmap/phone', { headers: analyst.headers, query: { phone: busy.phone } });
    expect(granted.body.data).toEqual({ tel: busy.phone, shenceId: busy.distinctId });
  });
});
