import { z } from 'zod';
import {
  API,
  defaultSqlViewName,
  defaultViewNameSchema,
  envelopeSchema,
  idParamSchema,
  sqlViewListQuerySchema,
  sqlViewPreviewResultSchema,
  sqlViewPreviewSchema,
  sqlViewSaveSchema,
  sqlViewSchema,
  zhCN,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { getView, listViews, previewSql, previewView, removeView, saveView } from './service.ts';

const tags = ['sqlview'];

/**
 * SQL views (spec 2 §7 "SQL views"). Administrators only for now, like the data-source
 * routes: per-source grants for other users come with the permission groups (issue 4).
 */
export function registerSqlViewRoutes(app: App, ctx: AppContext): void {
  app.get(
    API.sqlView.views,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '数据源的 SQL 视图列表', querystring: sqlViewListQuerySchema, response: { 200: envelopeSchema(z.array(sqlViewSchema)) } },
    },
    async (request) => ok(await listViews(ctx, request.query.datasourceId)),
  );
  app.get(
    API.sqlView.defaultName,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '新 SQL 视图的默认名称（V_SQL_YYYYMMDDHHmm）', response: { 200: envelopeSchema(defaultViewNameSchema) } },
    },
    async () => ok({ viewName: defaultSqlViewName() }),
  );
  app.get(
    API.sqlView.view,
    {
      config: { access: 'admin' },
      schema: { tags, summary: 'SQL 视图详情', params: idParamSchema, response: { 200: envelopeSchema(sqlViewSchema) } },
    },
    async (request) => ok(await getView(ctx, request.params.id)),
  );
  app.post(
    API.sqlView.views,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '保存 SQL 视图（viewSave；带 id 为修改）', body: sqlViewSaveSchema, response: { 200: envelopeSchema(sqlViewSchema) } },
    },
    async (request) => ok(await saveView(ctx, sessionOf(request).userId, request.body), zhCN.saved),
  );
  app.delete(
    API.sqlView.view,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '删除 SQL 视图', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await removeView(ctx, request.params.id);
      return ok(null, zhCN.deleted);
    },
  );
  app.post(
    API.sqlView.preview,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: '预览 SQL（viewPreview；sqlStatement 为 SQL 的 Base64），返回前 100 行',
        body: sqlViewPreviewSchema,
        response: { 200: envelopeSchema(sqlViewPreviewResultSchema) },
      },
    },
    async (request) => ok(await previewView(ctx, request.body.datasourceId, previewSql(request.body))),
  );
}
