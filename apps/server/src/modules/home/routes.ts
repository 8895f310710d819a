import { z } from 'zod';
import { API, envelopeSchema, homeMessages, homeSchema, homeVisitSchema, idParamSchema } from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { getHome, recordVisit, setBoardFavourite } from './service.ts';

const tags = ['home'];

/** 首页 (issue 16; docs/home.md): the signed-in user's sections, visits and board favourites. */
export function registerHomeRoutes(app: App, ctx: AppContext): void {
  app.get(
    API.home.home,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '首页：最近访问、收藏的大屏与幻灯片、共享给我的大屏，以及示例引导（尚未创建内容时）',
        response: { 200: envelopeSchema(homeSchema) },
      },
    },
    async (request) => ok(await getHome(ctx, sessionOf(request))),
  );
  app.post(
    API.home.visits,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '记录一次访问（打开大屏预览或幻灯片）；不可见的大屏或幻灯片 403/404',
        body: homeVisitSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await recordVisit(ctx, sessionOf(request), request.body);
      return ok(null);
    },
  );
  app.put(
    API.home.favouriteBoard,
    {
      config: { access: 'user' },
      schema: { tags, summary: '收藏大屏（须可见）', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await setBoardFavourite(ctx, sessionOf(request), request.params.id, true);
      return ok(null, homeMessages.favourited);
    },
  );
  app.delete(
    API.home.favouriteBoard,
    {
      config: { access: 'user' },
      schema: { tags, summary: '取消收藏大屏', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await setBoardFavourite(ctx, sessionOf(request), request.params.id, false);
      return ok(null, homeMessages.unfavourited);
    },
  );
}
