import { z } from 'zod';
import {
  envelopeSchema,
  HEATMAP_PATHS,
  heatmapPhoneQuerySchema,
  heatmapPhoneSchema,
  heatmapQuerySchema,
  heatmapResultSchema,
  heatmapTitleSchema,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { heatmapEvents, heatmapTitles, lookupPhone } from './service.ts';

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
}
