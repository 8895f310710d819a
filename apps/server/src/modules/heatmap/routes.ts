import { z } from 'zod';
import {
  envelopeSchema,
  HEATMAP_PATHS,
  heatmapPhoneQuerySchema,
  heatmapPhoneSchema,
  heatmapQuerySchema,
  heatmapResultSchema,
  heatmapTitleSchema,
  heatmapFrameQuerySchema,
  heatmapFrameSchema,
  heatmapScreenshotQuerySchema,
  trackSiteCreateSchema,
  trackSiteIdParamsSchema,
  trackSiteSchema,
  trackSiteUpdateSchema,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { DEMO_SCRIPT, DEMO_SITE_PREFIX, demoPage, demoPageHtml } from './demo-site.ts';
import { heatmapEvents, heatmapTitles, lookupPhone } from './service.ts';
import { flushSiteCounts, flushTrackedClicks, forgetSites, ingestBatch, startIngestion } from './ingest.ts';
import { pageFrame, pageScreenshot } from './screenshot.ts';
import { createSite, deleteSite, listSites, purgeExpiredClicks, updateSite } from './sites.ts';
import { TRACKER_SCRIPT } from './tracker-script.ts';
import { deleteSiteClicks, ensureClickTable, moveStoredClicks, purgeWarehouseClicks } from './warehouse-clicks.ts';

const tags = ['heatmap'];

/** Click heat map (spec 1 §7 "Heat map"; docs/heatmap.md): titles, phone lookup, the user event list. */
export function registerHeatmapRoutes(app: App, ctx: AppContext): void {
  const user = { access: 'user' as const };
  app.get(
    HEATMAP_PATHS.titles,
    { config: user, schema: { tags, summary: '热力图：网站标题', response: { 200: envelopeSchema(z.array(heatmapTitleSchema)) } } },
    async (request) => ok(await heatmapTitles(ctx, sessionOf(request))),
  );
  app.get(
    HEATMAP_PATHS.phone,
    {
      config: user,
      schema: { tags, summary: '热力图：手机号查用户标识', querystring: heatmapPhoneQuerySchema, response: { 200: envelopeSchema(heatmapPhoneSchema) } },
    },
    async (request) => ok(await lookupPhone(ctx, sessionOf(request), request.query.phone)),
  );
  app.post(
    HEATMAP_PATHS.events,
    { config: user, schema: { tags, summary: '热力图：用户点击事件', body: heatmapQuerySchema, response: { 200: envelopeSchema(heatmapResultSchema) } } },
    async (request) => ok(await heatmapEvents(ctx, sessionOf(request), request.body)),
  );
  app.get(
    HEATMAP_PATHS.frame,
    {
      config: user,
      schema: {
        tags,
        summary: '热力图：页面能否嵌入（否则用截图）',
        querystring: heatmapFrameQuerySchema,
        response: { 200: envelopeSchema(heatmapFrameSchema) },
      },
    },
    async (request) => ok(await pageFrame(ctx, sessionOf(request), request.query.title, `${request.protocol}://${request.host}`)),
  );
  app.get(
    HEATMAP_PATHS.screenshot,
    {
      config: user,
      schema: {
        tags,
        summary: '热力图：服务器按宽度截取的页面截图（PNG）',
        querystring: heatmapScreenshotQuerySchema,
        // The body is the image's bytes (a Buffer, not serialised); the schema documents it.
        response: { 200: z.any().meta({ type: 'string', format: 'binary', description: 'image/png' }) },
      },
    },
    async (request, reply) => {
      const png = await pageScreenshot(ctx, sessionOf(request), request.query.title, request.query.width);
      return reply.type('image/png').header('cache-control', 'private, max-age=300').send(png);
    },
  );
  registerSites(app, ctx);
  registerDemoSite(app);
  registerTracking(app, ctx);
}

/** Tracked websites and their write keys: administrators only (docs/heatmap.md "Sites and write keys"). */
function registerSites(app: App, ctx: AppContext): void {
  const admin = { access: 'admin' as const };
  const byId = `${HEATMAP_PATHS.sites}/:id`;
  app.get(
    HEATMAP_PATHS.sites,
    { config: admin, schema: { tags, summary: '热力图：网站与写入密钥', response: { 200: envelopeSchema(z.array(trackSiteSchema)) } } },
    async () => {
      // The counters gathered here so far are written first: the page shows them up to now.
      await flushSiteCounts(ctx);
      return ok(await listSites(ctx.db));
    },
  );
  app.post(
    HEATMAP_PATHS.sites,
    { config: admin, schema: { tags, summary: '热力图：添加网站', body: trackSiteCreateSchema, response: { 200: envelopeSchema(trackSiteSchema) } } },
    async (request) => ok(await createSite(ctx.db, request.body)),
  );
  app.put(
    byId,
    {
      config: admin,
      schema: {
        tags,
        summary: '热力图：修改网站（停用、限流、保留天数）',
        params: trackSiteIdParamsSchema,
        body: trackSiteUpdateSchema,
        response: { 200: envelopeSchema(trackSiteSchema) },
      },
    },
    async (request) => {
      const site = await updateSite(ctx.db, request.params.id, request.body);
      forgetSites(ctx);
      return ok(site);
    },
  );
  app.delete(
    byId,
    { config: admin, schema: { tags, summary: '热力图：删除网站及其点击', params: trackSiteIdParamsSchema, response: { 200: envelopeSchema(z.null()) } } },
    async (request) => {
      await deleteSite(ctx.db, request.params.id);
      forgetSites(ctx);
      // Its clicks still buffered are written first, then all of them leave the warehouse.
      await flushTrackedClicks(ctx);
      await deleteSiteClicks(ctx, request.params.id);
      return ok(null);
    },
  );
}

/**
 * The tracker script and the batches it sends: public (visitors of a website sign in to
 * nothing; the write key names the site). Other sites load the script, so it may be read
 * cross-origin; the batches come as text/plain JSON (sendBeacon), parsed here.
 */
function registerTracking(app: App, ctx: AppContext): void {
  const stopIngestion = startIngestion(ctx);
  // Retention: each site's clicks older than its retention days go, at start and hourly.
  const purge = () =>
    void (async () => {
      await purgeExpiredClicks(ctx.db);
      await purgeWarehouseClicks(ctx, await listSites(ctx.db));
    })().catch((error: unknown) => app.log.warn({ err: error }, 'tracked clicks retention failed'));
  const purgeTimer = setInterval(purge, 60 * 60_000);
  purgeTimer.unref();
  // The warehouse's table exists before the first heat-map read; clicks left in the store (an older version, another process) move in.
  app.addHook('onReady', async () => {
    await ensureClickTable(ctx)
      .then(() => moveStoredClicks(ctx))
      .catch((error: unknown) => app.log.warn({ err: error }, 'tracked clicks: warehouse table not ready'));
    purge();
  });
  // A clean stop writes every acknowledged event before the store closes (server.ts closes the app first).
  app.addHook('onClose', async () => {
    clearInterval(purgeTimer);
    await stopIngestion();
  });
  app.get(HEATMAP_PATHS.tracker, { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('cross-origin-resource-policy', 'cross-origin')
      .send(TRACKER_SCRIPT),
  );
  void app.register(async (scope) => {
    scope.removeContentTypeParser('text/plain');
    scope.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.post(HEATMAP_PATHS.track, { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
      const result = await ingestBatch(ctx, request.body);
      return reply.header('cross-origin-resource-policy', 'cross-origin').send(ok(result));
    });
  });
}

/** The demo website: public pages (a visitor of a shop signs in to nothing), framed by the product's own heat-map page. */
function registerDemoSite(app: App): void {
  app.get(`${DEMO_SITE_PREFIX}/demo.js`, { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(DEMO_SCRIPT),
  );
  app.get(HEATMAP_PATHS.demoSite, { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const path = request.url.slice(DEMO_SITE_PREFIX.length).split('?')[0]!;
    const page = demoPage(path === '/' || path === '' ? '/index.html' : path);
    if (!page) return reply.code(404).type('text/html; charset=utf-8').send('<!doctype html><meta charset="utf-8"><title>页面不存在</title><p>页面不存在</p>');
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(demoPageHtml(page));
  });
}
