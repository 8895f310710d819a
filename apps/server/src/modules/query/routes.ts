import {
  API,
  cubePreviewResultSchema,
  cubePreviewSchema,
  envelopeSchema,
  formulaCheckResultSchema,
  formulaCheckSchema,
  functionListQuerySchema,
  functionListSchema,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { rowsSerializerCompiler } from '../../platform/http/rows-serializer.ts';
import { assertSourceUsable, assertTablesUsable } from '../datasource/index.ts';
import { editorPreviewPermissions } from '../dataset/index.ts';
import { UNRESTRICTED } from '@shutu/query';
import { previewModel } from '../read/index.ts';
import { formulaAggregates, functionList } from './service.ts';

const tags = ['query'];

/**
 * The dataset editor's query calls (spec 2 §7 "Dataset editor"), open to every user on the
 * tables granted to their permission groups (issue 4). The preview of a model in the editor
 * reads whole tables the caller may use; with the cubeDataId of a saved dataset (editing),
 * a non-administrator reads through that dataset's permission filters for their groups
 * (issue 5, modules/dataset/access.ts) — never filters taken from the request body.
 */
export function registerQueryRoutes(app: App, ctx: AppContext): void {
  app.post(
    API.query.preview,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '预览数据集（数据集模型 + 查询请求；可用 payload 传 JSON 的 Base64），返回 dataList 与 fieldDict',
        body: cubePreviewSchema,
        response: { 200: envelopeSchema(cubePreviewResultSchema) },
      },
      serializerCompiler: rowsSerializerCompiler,
    },
    async (request) => {
      const { datasourceId, model, cubeDataId } = request.body;
      const caller = sessionOf(request);
      const tables = model.tables.map((t) => ({ schema: t.schema ?? null, name: t.tableName, quoted: true }));
      await assertTablesUsable(ctx, caller, datasourceId, tables);
      const permissions = cubeDataId
        ? await editorPreviewPermissions(
            ctx,
            caller,
            cubeDataId,
            model.fields.map((f) => f.id),
          )
        : UNRESTRICTED;
      return ok(await previewModel(ctx, request.body, permissions));
    },
  );
  app.post(
    API.query.formulaCheck,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '检查公式是否包含聚合（公式有误时返回 400 与出错位置）',
        body: formulaCheckSchema,
        response: { 200: envelopeSchema(formulaCheckResultSchema) },
      },
    },
    async (request) => {
      await assertSourceUsable(ctx, sessionOf(request), request.body.datasourceId);
      return ok({ hasAggregation: await formulaAggregates(ctx, request.body) });
    },
  );
  app.get(
    API.query.functions,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '按数据源类型列出公式可用的函数及其分类',
        querystring: functionListQuerySchema,
        response: { 200: envelopeSchema(functionListSchema) },
      },
    },
    async (request) => ok(functionList(request.query.dsType)),
  );
}
