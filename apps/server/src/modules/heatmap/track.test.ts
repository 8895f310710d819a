import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call } from '../../../test/fixtures.ts';
import { datasetWorld, type DatasetWorld } from '../../../test/dataset-fixtures.ts';
import { storeKinds } from '../../../test/harness.ts';
import { trackWriterOf } from './ingest.ts';
import { TrackWriter } from './track-writer.ts';

/**
 * The tracker's ingestion (docs/heatmap.md "Tracker and ingestion"): the buffered writer's
 * flushes (size, time, close, a failed write kept), a malformed batch refused whole with a
 * clear message and nothing stored, and every event acknowledged before a clean stop stored
 * after it; tracked clicks then show on the heat map of their visitor, found by phone.
 */

describe('buffered track writer', () => {
  it('writes when enough rows wait, when the oldest waited long enough, and on close', async () => {
    vi.useFakeTimers();
    try {
      const written: number[][] = [];
      const writer = new TrackWriter<number>(async (rows) => void written.push(rows), { maxRows: 3, maxDelayMs: 1000 });
      writer.add([1, 2]);
      expect(written).toEqual([]);
      writer.add([3]);
      await writer.flush();
      expect(written).toEqual([[1, 2, 3]]);
      writer.add([4]);
      await vi.advanceTimersByTimeAsync(1000);
      expect(written).toEqual([[1, 2, 3], [4]]);
      writer.add([5, 6]);
      await writer.close();
      expect(written).toEqual([[1, 2, 3], [4], [5, 6]]);
      expect(writer.add([7])).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the rows of a failed write and writes them with the next flush', async () => {
    let fail = true;
    const written: number[] = [];
    const errors: number[] = [];
    const writer = new TrackWriter<number>(
      async (rows) => {
        if (fail) throw new Error('store down');
        written.push(...rows);
      },
      { maxRows: 100, maxDelayMs: 60_000, onError: (_e, n) => errors.push(n) },
    );
    writer.add([1, 2]);
    await writer.flush();
    expect(errors).toEqual([2]);
    expect(writer.pending).toBe(2);
    fail = false;
    writer.add([3]);
    await writer.close();
    expect(written).toEqual([1, 2, 3]);
  });
});

const kinds = await storeKinds();

describe.each(kinds)('tracked clicks on %s', (kind) => {
  let w: DatasetWorld;
  const visitor = `v-${Date.now().toString(36)}`;
  const click = (x: number, pageWidth: number, extra: Record<string, unknown> = {}) => ({
    event: 'clickScreen',
    x,
    y: 420,
    pageWidth,
    url: 'https://shop.shutu-demo.example/index.html',
    title: '网上营业厅-首页',
    distinctId: visitor,
    phone: '10000000001',
    ...extra,
  });
  const send = (body: unknown, contentType = 'text/plain;charset=UTF-8') =>
    w.server.app.inject({
      method: 'POST',
      url: '/track/batch',
      headers: { 'content-type': contentType },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
  // What the warehouse holds (the tracker's own table beside the demo's click_events).
  const stored = async (distinctId = visitor) =>
    Number((await w.direct(`SELECT count(*) AS n FROM track_click_events WHERE distinct_id = '${distinctId}'`))[0]!.n);

  beforeAll(async () => {
    w = await datasetWorld(kind);
  }, 120_000);
  afterAll(() => w?.close());

  it('serves the tracker script, readable by other sites', async () => {
    const res = await w.server.app.inject({ method: 'GET', url: '/tracker/shutu-track.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.body).toContain('navigator.sendBeacon');
  });

  it("shows tracked clicks made at two widths on one spot of their visitor's heat map, found by the phone they identified with", async () => {
    const res = await send({ writeKey: 'demo-site', events: [click(750, 1000), click(960, 1280)] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ accepted: 2, dropped: 0, error: null });
    await trackWriterOf(w.server.ctx).flush();
    const phone = await call(w.server, 'GET', '/api/heatmap/phone', { headers: w.admin, query: { phone: '10000000001' } });
    expect(phone.body.data).toEqual({ tel: '10000000001', shenceId: visitor });
    const today = new Date().toISOString().slice(0, 10);
    const payload = { distinctId: visitor, startTime: '2000-01-01', endTime: today > '2099-12-31' ? today : '2099-12-31', title: '网上营业厅-首页' };
    const heat = await call(w.server, 'POST', '/api/heatmap/events', { headers: w.admin, payload });
    expect(heat.body.data.points).toEqual([
      { x: 0.75, y: 420, width: 1000 },
      { x: 0.75, y: 420, width: 1280 },
    ]);
    expect(heat.body.data.pages).toEqual([{ title: '网上营业厅-首页', url: 'https://shop.shutu-demo.example/index.html', count: 2 }]);
    // They are in the warehouse, written on the installation's wall clock (Asia/Shanghai, UTC+8).
    const [row] = await w.direct(`SELECT max(event_time) AS t FROM track_click_events WHERE distinct_id = '${visitor}'`);
    const written = Date.parse(`${String(row!.t)}Z`) - 8 * 3_600_000;
    expect(Math.abs(Date.now() - written)).toBeLessThan(10 * 60_000);
    // Read as the caller: a member without click_events sees none of them.
    const stranger = await w.member();
    expect((await call(w.server, 'POST', '/api/heatmap/events', { headers: stranger.headers, payload })).status).toBe(403);
    // A grant of click_events shows the demo's clicks; tracked ones need a grant of their own table, like any table.
    const analyst = await w.member();
    await w.group([analyst.id], ['click_events', 'web_pages']);
    const demoOnly = await call(w.server, 'POST', '/api/heatmap/events', { headers: analyst.headers, payload });
    expect([demoOnly.status, demoOnly.body.data.total]).toEqual([200, 0]);
    await w.group([analyst.id], ['track_click_events']);
    const granted = await call(w.server, 'POST', '/api/heatmap/events', { headers: analyst.headers, payload });
    expect(granted.body.data.points).toEqual(heat.body.data.points);
  });

  it('moves clicks left in the store (an older version, a process without the warehouse) into the warehouse before a read', async () => {
    const left = `left-${visitor}`;
    const site = await w.server.ctx.db.selectFrom('trackSite').select('id').where('writeKey', '=', 'demo-site').executeTakeFirstOrThrow();
    const row = {
      siteId: site.id,
      event: 'clickScreen',
      distinctId: left,
      phone: null,
      pageTitle: '网上营业厅-首页',
      url: 'https://shop.shutu-demo.example/index.html',
    };
    await w.server.ctx.db
      .insertInto('trackEvent')
      .values([
        { ...row, eventTime: new Date(), platformType: 'PC', project: 'production', x: 100, y: 50, pageWidth: 1000 },
        { ...row, eventTime: new Date(), platformType: 'H5', project: 'production', x: 39, y: 60, pageWidth: 390 },
      ])
      .execute();
    const payload = { distinctId: left, startTime: '2000-01-01', endTime: '2099-12-31', title: '网上营业厅-首页' };
    const heat = await call(w.server, 'POST', '/api/heatmap/events', { headers: w.admin, payload });
    expect(heat.body.data.points).toEqual([
      { x: 0.1, y: 50, width: 1000 },
      { x: 0.1, y: 60, width: 390 },
    ]);
    const waiting = await w.server.ctx.db.selectFrom('trackEvent').select('id').where('distinctId', '=', left).execute();
    expect(waiting).toEqual([]);
    expect(await stored(left)).toBe(2);
  });

  it('refuses a malformed batch whole, saying what is wrong, and stores nothing of it', async () => {
    const bad = `bad-${visitor}`;
    const cases: [unknown, number, string][] = [
      ['{"writeKey":', 400, '事件批次不是合法的 JSON'],
      [{ writeKey: 'demo-site', events: [] }, 400, '事件批次格式不正确：events'],
      [{ writeKey: 'demo-site', events: 'click' }, 400, '事件批次格式不正确：events'],
      // Nothing valid in it: refused, with the first event's problem.
      [
        { writeKey: 'demo-site', events: [click(10, 1000, { distinctId: bad, event: 'pageView' }), click(10, 0, { distinctId: bad })] },
        400,
        '事件批次格式不正确：第 1 条事件的 event 不合法',
      ],
      [{ writeKey: 'no-such-site', events: [click(10, 1000, { distinctId: bad })] }, 403, '写入密钥无效'],
    ];
    for (const [body, status, msg] of cases) {
      const res = await send(body);
      expect(res.statusCode, msg).toBe(status);
      expect(res.json().msg).toBe(msg);
    }
    await trackWriterOf(w.server.ctx).flush();
    expect(await stored(bad)).toBe(0);
  });

  it('drops the invalid events of a batch, counting them, and stores its valid ones', async () => {
    const mixed = `mixed-${visitor}`;
    const res = await send({
      writeKey: 'demo-site',
      events: [click(10, 1000, { distinctId: mixed }), click(10, 0, { distinctId: mixed }), click(1200, 1000, { distinctId: mixed })],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ accepted: 1, dropped: 2, error: '事件批次格式不正确：第 2 条事件的 pageWidth 不合法' });
    await w.server.app.close().catch(() => undefined);
    expect(await stored(mixed)).toBe(1);
    expect(await stored(`bad-${visitor}`)).toBe(0);
  });
});

describe.each(kinds)('a clean stop on %s', (kind) => {
  it('stores every event acknowledged before it', async () => {
    const w = await datasetWorld(kind);
    try {
      const visitor = `stop-${Date.now().toString(36)}`;
      let acknowledged = 0;
      for (let batch = 0; batch < 5; batch++) {
        const events = Array.from({ length: 7 }, (_, i) => ({
          event: 'clickScreen',
          x: i * 10,
          y: batch * 100,
          pageWidth: 1280,
          url: 'https://shop.shutu-demo.example/flow.html',
          title: '流量专区',
          distinctId: visitor,
        }));
        const res = await w.server.app.inject({
          method: 'POST',
          url: '/track/batch',
          headers: { 'content-type': 'text/plain' },
          payload: JSON.stringify({ writeKey: 'demo-site', events }),
        });
        expect(res.statusCode).toBe(200);
        acknowledged += res.json().data.accepted as number;
      }
      expect(acknowledged).toBe(35);
      // The writer waits up to a second: nothing forced it yet. Closing the app (what a SIGTERM does) writes the rest.
      await w.server.app.close();
      const [row] = await w.direct(`SELECT count(*) AS n FROM track_click_events WHERE distinct_id = '${visitor}'`);
      expect(Number(row!.n)).toBe(acknowledged);
    } finally {
      await w.close();
    }
  });
});
