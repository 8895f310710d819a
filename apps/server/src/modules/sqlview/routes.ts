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
  sqlViewSavedMessage,
  sqlViewSavedSchema,
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
 * SQL views (spec 2 §7 "SQL views"): every user, on the sources and tables granted to their
 * permission groups (issue 4; the service applies the rules).
 */
export function registerSqlViewRoutes(app: App, ctx: AppContext): void {
  app.get(
    API.sqlView.views,
    {
      config: { access: 'user' },
      schema: { tags, summary: '数据源的 SQL 视图列表', querystring: sqlViewListQuerySchema, response: { 200: envelopeSchema(z.array(sqlViewSchema)) } },
    },
    async (request) => ok(await listViews(ctx, sessionOf(request), request.query.datasourceId)),
  );
  app.get(
    API.sqlView.defaultName,
    {
      config: { access: 'user' },
      schema: { tags, summary: '新 SQL 视图的默认名称（V_SQL_YYYYMMDDHHmm）', response: { 200: envelopeSchema(defaultViewNameSchema) } },
    },
    async () => ok({ viewName: defaultSqlViewName() }),
  );
  app.get(
    API.sqlView.view,
    {
      config: { access: 'user' },
      schema: { tags, summary: 'SQL 视图详情', params: idParamSchema, response: { 200: envelopeSchema(sqlViewSchema) } },
    },
    async (request) => ok(await getView(ctx, sessionOf(request), request.params.id)),
  );
  app.post(
    API.sqlView.views,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '保存 SQL 视图（viewSave；带 id 为修改；usedBy：使用它的数据集及其缺少的列）',
        body: sqlViewSaveSchema,
        response: { 200: envelopeSchema(sqlViewSavedSchema) },
      },
    },
    async (request) => {
      const saved = await saveView(ctx, sessionOf(request), request.body);
      return ok(saved, sqlViewSavedMessage(saved.usedBy));
    },
  );
  app.delete(
    API.sqlView.view,
    {
      config: { access: 'user' },
      schema: { tags, summary: '删除 SQL 视图', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await removeView(ctx, sessionOf(request), request.params.id);
      return ok(null, zhCN.deleted);
    },
  );
  app.post(
    API.sqlView.preview,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '预览 SQL（viewPreview；sqlStatement 为 SQL 的 Base64），返回前 100 行',
        body: sqlViewPreviewSchema,
        response: { 200: envelopeSchema(sqlViewPreviewResultSchema) },
      },
    },
    async (request) => ok(await previewView(ctx, sessionOf(request), request.body.datasourceId, previewSql(request.body))),
  );
}
