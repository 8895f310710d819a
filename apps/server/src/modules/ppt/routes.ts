import { z } from 'zod';
import {
  API,
  envelopeSchema,
  groupPptAuthSaveSchema,
  idParamSchema,
  pageSchema,
  pptAuthSaveSchema,
  pptAuthSchema,
  pptCategorySaveSchema,
  pptCategorySchema,
  pptDetailSchema,
  pptListQuerySchema,
  pptMessages,
  pptSaveSchema,
  pptSchema,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { getPptAuth, groupPptAuthList, groupPptAuthSave, savePptAuth } from './auth.ts';
import { deletePptCategory, listPptCategories, savePptCategory } from './categories.ts';
import { deletePpt, getPptDetail, listPpts, savePpt } from './service.ts';

const tags = ['ppt'];
const dataPermIdParamSchema = z.object({ dataPermId: z.coerce.number().int().positive() });
const categoryQuerySchema = z.object({ visualType: z.coerce.number().pipe(z.union([z.literal(1), z.literal(2)])) });

/**
 * Slideshows (spec 1 §2.10, §7 "Slideshow"; docs/slideshows.md): list, info, submit, delete,
 * the caller's favourite and archive categories, and authorisation (administrators). The PDF
 * export routes are registered by pdf-routes (engineer P2's files).
 */
export function registerPptRoutes(app: App, ctx: AppContext): void {
  app.get(
    API.ppt.slideshows,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '幻灯片列表（visualType 0 可见的幻灯片；1 我的收藏、2 我的归档，可按分类）',
        querystring: pptListQuerySchema,
        response: { 200: envelopeSchema(pageSchema(pptSchema)) },
      },
    },
    async (request) => ok(await listPpts(ctx, sessionOf(request), request.query)),
  );
  app.post(
    API.ppt.slideshows,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '保存幻灯片（新增或带 id 修改；visualType 1 收藏、2 归档须带 sourceId），返回保存后的记录',
        body: pptSaveSchema,
        response: { 200: envelopeSchema(pptSchema) },
      },
    },
    async (request) => {
      const saved = await savePpt(ctx, sessionOf(request), request.body);
      const message = request.body.id ? pptMessages.saved : [pptMessages.saved, pptMessages.favourited, pptMessages.archived][saved.visualType];
      return ok(saved, message);
    },
  );
  app.get(
    API.ppt.slideshow,
    {
      config: { access: 'user', shareable: true },
      schema: {
        tags,
        summary: '幻灯片信息（detail 与按顺序的 visualList；不可见或已删除的大屏不列出）',
        params: idParamSchema,
        response: { 200: envelopeSchema(pptDetailSchema) },
      },
    },
    async (request) => ok(await getPptDetail(ctx, sessionOf(request), request.params.id)),
  );
  app.delete(
    API.ppt.slideshow,
    {
      config: { access: 'user' },
      schema: { tags, summary: '删除幻灯片、收藏或归档（创建人或管理员）', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await deletePpt(ctx, sessionOf(request), request.params.id);
      return ok(null, pptMessages.deleted);
    },
  );

  app.get(
    API.ppt.categories,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '我的收藏或归档分类（默认分类 id 0 在最前）',
        querystring: categoryQuerySchema,
        response: { 200: envelopeSchema(z.array(pptCategorySchema)) },
      },
    },
    async (request) => ok(await listPptCategories(ctx, sessionOf(request), request.query.visualType)),
  );
  app.post(
    API.ppt.categories,
    {
      config: { access: 'user' },
      schema: { tags, summary: '新增或重命名我的收藏或归档分类', body: pptCategorySaveSchema, response: { 200: envelopeSchema(pptCategorySchema) } },
    },
    async (request) => ok(await savePptCategory(ctx, sessionOf(request), request.body), pptMessages.saved),
  );
  app.delete(
    API.ppt.category,
    {
      config: { access: 'user' },
      schema: { tags, summary: '删除我的分类（其中的记录移到默认分类）', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await deletePptCategory(ctx, sessionOf(request), request.params.id);
      return ok(null, pptMessages.deleted);
    },
  );

  app.get(
    API.ppt.auth,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '幻灯片的授权（是否公开与已授权的权限组）', params: idParamSchema, response: { 200: envelopeSchema(pptAuthSchema) } },
    },
    async (request) => ok(await getPptAuth(ctx, request.params.id)),
  );
  app.put(
    API.ppt.auth,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: '保存幻灯片授权（公开时清除权限组授权；否则授权给所选权限组）',
        params: idParamSchema,
        body: pptAuthSaveSchema,
        response: { 200: envelopeSchema(pptAuthSchema) },
      },
    },
    async (request) => ok(await savePptAuth(ctx, sessionOf(request), request.params.id, request.body), pptMessages.saved),
  );
  app.get(
    API.ppt.groupAuth,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '权限组已授权的幻灯片 id', params: dataPermIdParamSchema, response: { 200: envelopeSchema(z.array(z.number())) } },
    },
    async (request) => ok(await groupPptAuthList(ctx, request.params.dataPermId)),
  );
  app.put(
    API.ppt.groupAuth,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: '保存权限组的幻灯片授权（整体替换）',
        params: dataPermIdParamSchema,
        body: groupPptAuthSaveSchema,
        response: { 200: envelopeSchema(z.array(z.number())) },
      },
    },
    async (request) => ok(await groupPptAuthSave(ctx, request.params.dataPermId, request.body), pptMessages.saved),
  );
}
