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
import { ok } from '../../platform/http/envelope.ts';
import { formulaAggregates, functionList, previewCube, UNRESTRICTED } from './service.ts';

const tags = ['query'];

/**
 * The dataset editor's query calls (spec 2 §7 "Dataset editor"). Administrators only for
 * now, like the data-source routes: datasets granted to permission groups (issue 4) open
 * the preview to other users, and the caller's row filters and excluded columns (issue 5)
 * then replace UNRESTRICTED below. They are never read from the request body.
 */
export function registerQueryRoutes(app: App, ctx: AppContext): void {
  app.post(
    API.query.preview,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: '预览数据集（数据集模型 + 查询请求；可用 payload 传 JSON 的 Base64），返回 dataList 与 fieldDict',
        body: cubePreviewSchema,
        response: { 200: envelopeSchema(cubePreviewResultSchema) },
      },
    },
    // Administrators see every row and column.
    async (request) => ok(await previewCube(ctx, request.body, UNRESTRICTED)),
  );
  app.post(
    API.query.formulaCheck,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: '检查公式是否包含聚合（公式有误时返回 400 与出错位置）',
        body: formulaCheckSchema,
        response: { 200: envelopeSchema(formulaCheckResultSchema) },
      },
    },
    async (request) => ok({ hasAggregation: await formulaAggregates(ctx, request.body) }),
  );
  app.get(
    API.query.functions,
    {
      config: { access: 'admin' },
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
