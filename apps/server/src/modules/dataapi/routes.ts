import { z } from 'zod';
import {
  DATA_API_PATHS,
  dataApiAccessKeyCreatedSchema,
  dataApiAccessKeySaveSchema,
  dataApiAccessKeySchema,
  dataApiAccessKeyUpdateSchema,
  dataApiCallLogQuerySchema,
  dataApiCallLogSchema,
  dataApiCategorySaveSchema,
  dataApiCategorySchema,
  dataApiCopySchema,
  dataApiDictCodeParamSchema,
  dataApiDictSaveSchema,
  dataApiDictSchema,
  dataApiKeyParamSchema,
  dataApiListQuerySchema,
  dataApiMessages,
  dataApiOptionsQuerySchema,
  dataApiOptionsSchema,
  dataApiPickSourceSchema,
  dataApiPreviewSchema,
  dataApiRunResultSchema,
  dataApiSaveSchema,
  dataApiSchema,
  dataApiSettingsSaveSchema,
  dataApiSettingsSchema,
  dataApiStatsSchema,
  dataApiStatusSchema,
  envelopeSchema,
  idParamSchema,
  pageSchema,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok, page } from '../../platform/http/envelope.ts';
import { callPublishedApi, previewDataApi } from './call-api.ts';
import { flushCallLog, flushCallLogOnClose } from './call-log-writer.ts';
import { getDict, listDicts, saveDict } from './dicts.ts';
import { changeKey, createKey, keys, removeKey } from './keys.ts';
import { openApiFor } from './openapi.ts';
import { apiOptions } from './options.ts';
import { callStats, listCallLogs } from './runtime-repo.ts';
import { listPickSources } from './repo.ts';
import { dataApiSettings, saveDataApiSettings, scheduleCallLogPruning } from './settings.ts';
import { categories, changeStatus, copyDataApi, getDataApi, listDataApis, removeCategory, removeDataApi, saveCategory, saveDataApi } from './service.ts';

const tags = ['dataapi'];
const nothing = envelopeSchema(z.null());

/** Data APIs (spec 2 §7 "Data APIs"; docs/dataapi.md): records, preview, keys, logs, the published runtime and its OpenAPI. */
export function registerDataApiRoutes(app: App, ctx: AppContext): void {
  registerRecordRoutes(app, ctx);
  registerAdminRoutes(app, ctx);
  registerDictRoutes(app, ctx);
  scheduleCallLogPruning(app, ctx);
  flushCallLogOnClose(app, ctx);
  void app.register(async (open) => registerOpenRoutes(open as App, ctx));
}

function registerRecordRoutes(app: App, ctx: AppContext): void {
  const user = { access: 'user' as const };
  app.get(
    DATA_API_PATHS.categories,
    { config: user, schema: { tags, summary: '数据接口分类', response: { 200: envelopeSchema(z.array(dataApiCategorySchema)) } } },
    async () => ok(await categories(ctx)),
  );
  app.post(
    DATA_API_PATHS.categories,
    { config: user, schema: { tags, summary: '新增分类', body: dataApiCategorySaveSchema, response: { 200: envelopeSchema(dataApiCategorySchema) } } },
    async (request) => ok(await saveCategory(ctx, null, request.body), dataApiMessages.saved),
  );
  app.put(
    DATA_API_PATHS.category,
    {
      config: user,
      schema: { tags, summary: '修改分类', params: idParamSchema, body: dataApiCategorySaveSchema, response: { 200: envelopeSchema(dataApiCategorySchema) } },
    },
    async (request) => ok(await saveCategory(ctx, request.params.id, request.body), dataApiMessages.saved),
  );
  app.delete(
    DATA_API_PATHS.category,
    { config: user, schema: { tags, summary: '删除分类（分类下还有接口时拒绝）', params: idParamSchema, response: { 200: nothing } } },
    async (request) => {
      await removeCategory(ctx, request.params.id);
      return ok(null, dataApiMessages.deleted);
    },
  );
  app.get(
    DATA_API_PATHS.apis,
    {
      config: user,
      schema: {
        tags,
        summary: 'dataapiList：分类、名称、状态、apiFormal、apiTypes 筛选',
        querystring: dataApiListQuerySchema,
        response: { 200: envelopeSchema(pageSchema(dataApiSchema)) },
      },
    },
    async (request) => ok(await listDataApis(ctx, sessionOf(request), request.query)),
  );
  app.get(
    DATA_API_PATHS.api,
    { config: user, schema: { tags, summary: '数据接口详情（dataapiDetail）', params: idParamSchema, response: { 200: envelopeSchema(dataApiSchema) } } },
    async (request) => ok(await getDataApi(ctx, sessionOf(request), { id: request.params.id })),
  );
  app.get(
    DATA_API_PATHS.byKey,
    {
      config: user,
      schema: { tags, summary: '按接口key查看详情（dataapiDetailKey）', params: dataApiKeyParamSchema, response: { 200: envelopeSchema(dataApiSchema) } },
    },
    async (request) => ok(await getDataApi(ctx, sessionOf(request), { apiKey: request.params.apiKey })),
  );
  app.post(
    DATA_API_PATHS.apis,
    {
      config: user,
      schema: { tags, summary: 'dataapiSubmit（带 id 为修改）', body: dataApiSaveSchema, response: { 200: envelopeSchema(dataApiSchema) } },
    },
    async (request) => ok(await saveDataApi(ctx, sessionOf(request), request.body), dataApiMessages.saved),
  );
  app.delete(
    DATA_API_PATHS.api,
    { config: user, schema: { tags, summary: '删除数据接口', params: idParamSchema, response: { 200: nothing } } },
    async (request) => {
      await removeDataApi(ctx, sessionOf(request), request.params.id);
      return ok(null, dataApiMessages.deleted);
    },
  );
  app.post(
    DATA_API_PATHS.copy,
    {
      config: user,
      schema: {
        tags,
        summary: '复制数据接口（副本为下线状态）',
        params: idParamSchema,
        body: dataApiCopySchema,
        response: { 200: envelopeSchema(dataApiSchema) },
      },
    },
    async (request) => ok(await copyDataApi(ctx, sessionOf(request), request.params.id, request.body.apiKey), dataApiMessages.done),
  );
  app.put(
    DATA_API_PATHS.status,
    {
      config: user,
      schema: {
        tags,
        summary: '设置状态：0 下线、1 上线、2 故障',
        params: idParamSchema,
        body: dataApiStatusSchema,
        response: { 200: envelopeSchema(dataApiSchema) },
      },
    },
    async (request) => ok(await changeStatus(ctx, sessionOf(request), request.params.id, request.body.apiStatus), dataApiMessages.done),
  );
  app.get(
    DATA_API_PATHS.options,
    {
      config: user,
      schema: {
        tags,
        summary: '接口结果作为筛选下拉选项（enumSource 2）：首列为值、次列为显示名，q 搜索',
        params: idParamSchema,
        querystring: dataApiOptionsQuerySchema,
        response: { 200: envelopeSchema(dataApiOptionsSchema) },
      },
    },
    async (request) => ok(await apiOptions(ctx, sessionOf(request), request.params.id, request.query.q)),
  );
  app.get(
    DATA_API_PATHS.pickSources,
    {
      config: user,
      schema: {
        tags,
        summary: '可作为筛选下拉来源的接口（在线、正式、数据库或外部接口；仅名称）',
        response: { 200: envelopeSchema(z.array(dataApiPickSourceSchema)) },
      },
    },
    async () => ok(await listPickSources(ctx.db)),
  );
  app.post(
    DATA_API_PATHS.preview,
    {
      config: user,
      schema: {
        tags,
        summary: 'openurl：预览已保存的接口（成功时故障接口恢复上线）',
        body: dataApiPreviewSchema,
        response: { 200: envelopeSchema(dataApiRunResultSchema) },
      },
    },
    async (request) => ok(await previewDataApi(ctx, sessionOf(request), request.body)),
  );
}

/** Enumeration dictionaries saved from a preview (spec 2 §7 "Dictionary save from preview"). */
function registerDictRoutes(app: App, ctx: AppContext): void {
  const user = { access: 'user' as const };
  app.get(
    DATA_API_PATHS.dicts,
    { config: user, schema: { tags, summary: '从接口保存的枚举字典', response: { 200: envelopeSchema(z.array(dataApiDictSchema)) } } },
    async () => ok(await listDicts(ctx)),
  );
  app.get(
    DATA_API_PATHS.dict,
    {
      config: user,
      schema: { tags, summary: '按字典名查看枚举字典', params: dataApiDictCodeParamSchema, response: { 200: envelopeSchema(dataApiDictSchema) } },
    },
    async (request) => ok(await getDict(ctx, request.params.keyCode)),
  );
  app.post(
    DATA_API_PATHS.dicts,
    {
      config: user,
      schema: {
        tags,
        summary: '保存为枚举字典（keyCode 与 content；同名覆盖）',
        body: dataApiDictSaveSchema,
        response: { 200: envelopeSchema(dataApiDictSchema) },
      },
    },
    async (request) => ok(await saveDict(ctx, sessionOf(request).userId, request.body), dataApiMessages.saved),
  );
}

function registerAdminRoutes(app: App, ctx: AppContext): void {
  const admin = { access: 'admin' as const };
  app.get(
    DATA_API_PATHS.keys,
    { config: admin, schema: { tags, summary: '访问密钥列表（不含密钥）', response: { 200: envelopeSchema(z.array(dataApiAccessKeySchema)) } } },
    async () => ok(await keys(ctx)),
  );
  app.post(
    DATA_API_PATHS.keys,
    {
      config: admin,
      schema: {
        tags,
        summary: '新建访问密钥：secret 只在此返回一次',
        body: dataApiAccessKeySaveSchema,
        response: { 200: envelopeSchema(dataApiAccessKeyCreatedSchema) },
      },
    },
    async (request) => ok(await createKey(ctx, sessionOf(request).userId, request.body), dataApiMessages.keyCreated),
  );
  app.put(
    DATA_API_PATHS.key,
    {
      config: admin,
      schema: {
        tags,
        summary: '修改访问密钥：名称、可调用的接口、频率、停用',
        params: idParamSchema,
        body: dataApiAccessKeyUpdateSchema,
        response: { 200: envelopeSchema(dataApiAccessKeySchema) },
      },
    },
    async (request) => ok(await changeKey(ctx, request.params.id, request.body), dataApiMessages.saved),
  );
  app.delete(
    DATA_API_PATHS.key,
    { config: admin, schema: { tags, summary: '删除访问密钥', params: idParamSchema, response: { 200: nothing } } },
    async (request) => {
      await removeKey(ctx, request.params.id);
      return ok(null, dataApiMessages.deleted);
    },
  );
  app.get(
    DATA_API_PATHS.logs,
    {
      config: admin,
      schema: { tags, summary: '调用日志', querystring: dataApiCallLogQuerySchema, response: { 200: envelopeSchema(pageSchema(dataApiCallLogSchema)) } },
    },
    async (request) => {
      await flushCallLog(ctx);
      const { records, total } = await listCallLogs(ctx.db, request.query);
      return ok(page(records, total, request.query.current, request.query.size));
    },
  );
  app.get(
    DATA_API_PATHS.stats,
    {
      config: admin,
      schema: {
        tags,
        summary: '近 24 小时每个接口的调用数、失败数与 p95 耗时',
        querystring: z.object({
          hours: z.coerce
            .number()
            .int()
            .min(1)
            .max(24 * 90)
            .default(24),
        }),
        response: { 200: envelopeSchema(dataApiStatsSchema) },
      },
    },
    async (request) => {
      await flushCallLog(ctx);
      return ok(await callStats(ctx.db, request.query.hours));
    },
  );
  app.get(
    DATA_API_PATHS.settings,
    { config: admin, schema: { tags, summary: '外部接口允许访问的主机、调用日志保留天数', response: { 200: envelopeSchema(dataApiSettingsSchema) } } },
    async () => ok(await dataApiSettings(ctx)),
  );
  app.put(
    DATA_API_PATHS.settings,
    {
      config: admin,
      schema: {
        tags,
        summary: '保存外部接口允许访问的主机与调用日志保留天数（只改给出的项）',
        body: dataApiSettingsSaveSchema,
        response: { 200: envelopeSchema(dataApiSettingsSchema) },
      },
    },
    async (request) => ok(await saveDataApiSettings(ctx, request.body), dataApiMessages.saved),
  );
}

/** The published runtime and its document: outside /api, authenticated by the runtime itself (keys.ts). */
function registerOpenRoutes(open: App, ctx: AppContext): void {
  open.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  const paramsOf = (value: unknown): Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  open.get(DATA_API_PATHS.open, { schema: { hide: true } }, async (request) => {
    const { apiKey } = request.params as { apiKey: string };
    return ok(await callPublishedApi(ctx, request, apiKey, paramsOf(request.query)));
  });
  open.post(DATA_API_PATHS.open, { schema: { hide: true } }, async (request) => {
    const { apiKey } = request.params as { apiKey: string };
    return ok(await callPublishedApi(ctx, request, apiKey, { ...paramsOf(request.query), ...paramsOf(request.body) }));
  });
  open.get(DATA_API_PATHS.openapi, { schema: { hide: true } }, async (request) => openApiFor(ctx, request));
}
