import { z } from 'zod';
import {
  API,
  envelopeSchema,
  tagCountQuerySchema,
  tagCountRowSchema,
  tagIdQuerySchema,
  tagRatioQuerySchema,
  tagRatioRowSchema,
  tagAudienceSaveSchema,
  tagAudienceViewSchema,
  tagMessages,
  tagRulesSchema,
  tagSchema,
  tagTreeNodeSchema,
  tagTreeQuerySchema,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { loadTagAudience, previewTagAudience, saveTagAudience } from './audience.ts';
import { findTag, listTags, productTree, tagCount, tagMonths, tagRatio, tagTree } from './service.ts';

const tags = ['tag'];
// Every signed-in user; a non-administrator reads only with grants of the warehouse tables (read module).
const access = 'user' as const;
const P = API.tag;

/** The tag library, tag detail and the tag-driven editor's trees (spec 1 §7 "Tags", spec 3 §7). */
export function registerTagRoutes(app: App, ctx: AppContext): void {
  app.get(
    P.list,
    {
      config: { access },
      schema: {
        tags,
        summary: '标签库（全部标签，可按名称、分类、说明搜索）',
        querystring: z.object({ keyword: z.string().trim().max(50).optional() }),
        response: { 200: envelopeSchema(z.array(tagSchema)) },
      },
    },
    async (request) => ok(await listTags(ctx, sessionOf(request), request.query.keyword || undefined)),
  );
  app.get(
    P.detail,
    { config: { access }, schema: { tags, summary: '标签详情（tagId）', querystring: tagIdQuerySchema, response: { 200: envelopeSchema(tagSchema) } } },
    async (request) => ok(await findTag(ctx, sessionOf(request), request.query.tagId)),
  );
  app.get(
    P.months,
    { config: { access }, schema: { tags, summary: '有标签统计的月份（新到旧）', response: { 200: envelopeSchema(z.array(z.string())) } } },
    async (request) => ok(await tagMonths(ctx, sessionOf(request))),
  );
  app.get(
    P.ratio,
    {
      config: { access },
      schema: {
        tags,
        summary: '标签占比：所在二级分类各标签某月用户数（tagId, dataDate yyyy-MM；无数据为空）',
        querystring: tagRatioQuerySchema,
        response: { 200: envelopeSchema(z.array(tagRatioRowSchema)) },
      },
    },
    async (request) => ok(await tagRatio(ctx, sessionOf(request), request.query.tagId, request.query.dataDate)),
  );
  app.get(
    P.count,
    {
      config: { access },
      schema: {
        tags,
        summary: '标签月度用户数（tagId, startDate, endDate，yyyy-MM）',
        querystring: tagCountQuerySchema,
        response: { 200: envelopeSchema(z.array(tagCountRowSchema)) },
      },
    },
    async (request) => ok(await tagCount(ctx, sessionOf(request), request.query.tagId, request.query.startDate, request.query.endDate)),
  );
  app.get(
    P.tree,
    {
      config: { access },
      schema: {
        tags,
        summary: '标签树（linkup 标签、linkup_area 地区、linkup_channel 渠道）',
        querystring: tagTreeQuerySchema,
        response: { 200: envelopeSchema(z.array(tagTreeNodeSchema)) },
      },
    },
    async (request) => ok(await tagTree(ctx, sessionOf(request), request.query.type)),
  );
  app.get(
    P.treeProduct,
    {
      config: { access },
      schema: { tags, summary: '产品树（四个固定一级分类 → 二级分类 → 产品）', response: { 200: envelopeSchema(z.array(tagTreeNodeSchema)) } },
    },
    async (request) => ok(await productTree(ctx, sessionOf(request))),
  );
  app.get(
    P.audience,
    {
      config: { access },
      schema: {
        tags,
        summary: '标签人群详情（编辑器重新打开；人群不存在 404）',
        querystring: z.object({ id: z.coerce.number().int().positive() }),
        response: { 200: envelopeSchema(tagAudienceViewSchema) },
      },
    },
    async (request) => ok(await loadTagAudience(ctx, sessionOf(request), request.query.id)),
  );
  app.post(
    P.audience,
    {
      config: { access },
      schema: {
        tags,
        summary: '保存标签人群（新增或带 id 更新），并重新计算人群与分析数据',
        body: tagAudienceSaveSchema,
        response: { 200: envelopeSchema(z.object({ id: z.number(), size: z.number() })) },
      },
    },
    async (request) => ok(await saveTagAudience(ctx, sessionOf(request), request.body), tagMessages.saved),
  );
  app.post(
    P.audienceCount,
    {
      config: { access },
      schema: {
        tags,
        summary: '标签人群预估：规则选中的用户数',
        body: z.object({ rules: tagRulesSchema, importId: z.number().int().positive().nullish() }),
        response: { 200: envelopeSchema(z.object({ size: z.number() })) },
      },
    },
    async (request) => ok(await previewTagAudience(ctx, sessionOf(request), request.body.rules, request.body.importId)),
  );
}
