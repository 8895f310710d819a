import { z } from 'zod';
import {
  API,
  JOIN_CALLBACK_ROUTE,
  authUrlInputSchema,
  cdpMessages,
  dataTaskSchema,
  envelopeSchema,
  fanEditSchema,
  fanPageQuerySchema,
  fanSchema,
  idParamSchema,
  joinAppSchema,
  joinCallbackSchema,
  joinPageQuerySchema,
  logListQuerySchema,
  officialAccountSchema,
  pageSchema,
  platformTypeInputSchema,
  platformTypeSchema,
  pullLogSchema,
  taskDataQuerySchema,
  taskDataSchema,
  taskListQuerySchema,
  taskRefreshSchema,
  taskUpdateSchema,
} from '@shutu/contracts';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { linkBaseUrl } from '../system/index.ts';
import { deletePlatform, getPlatform, listPlatforms, receiveTicket, savePlatform } from './platforms.ts';
import {
  authUrl,
  fanPage,
  joinCallback,
  joinInfo,
  joinPage,
  logList,
  officialAccounts,
  saveFan,
  taskData,
  taskList,
  taskRefresh,
  taskUpdate,
} from './service.ts';

const tags = ['cdp'];
/** Connected platforms are an administrator's business (docs/platforms.md "Who may"). */
const access = 'admin' as const;
const P = API.cdp;
const done = envelopeSchema(z.null());

/** Connected platforms (spec 3 §7 "Connected platforms", "Fans"; spec 1 §7 "Join callback"). */
export function registerCdpRoutes(app: App, ctx: AppContext): void {
  app.get(
    P.platforms,
    {
      config: { access },
      schema: { tags, summary: '平台类型列表（含接口；密钥只给出是否已设置）', response: { 200: envelopeSchema(z.array(platformTypeSchema)) } },
    },
    async () => ok(await listPlatforms(ctx)),
  );
  app.get(
    P.platformInfo,
    {
      config: { access },
      schema: { tags, summary: '平台类型详情（joinTypeInfo）', querystring: idParamSchema, response: { 200: envelopeSchema(platformTypeSchema) } },
    },
    async (request) => ok(await getPlatform(ctx, request.query.id)),
  );
  app.post(
    P.platform,
    {
      config: { access },
      schema: { tags, summary: '保存平台类型及其接口', body: platformTypeInputSchema, response: { 200: envelopeSchema(platformTypeSchema) } },
    },
    async (request) => ok(await savePlatform(ctx, request.body), cdpMessages.saved),
  );
  app.delete(
    P.platformDelete,
    { config: { access }, schema: { tags, summary: '删除平台类型（无接入应用时）', params: idParamSchema, response: { 200: done } } },
    async (request) => {
      await deletePlatform(ctx, request.params.id);
      return ok(null, cdpMessages.deleted);
    },
  );
  app.post(
    P.ticket,
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: '平台推送授权事件：component_verify_ticket、取消授权（签名校验）',
        params: z.object({ platformId: z.coerce.number().int().positive() }),
        querystring: z.object({ timestamp: z.string().regex(/^\d{1,12}$/), nonce: z.string().min(1).max(64), signature: z.string().regex(/^[0-9a-f]{40}$/) }),
        body: z.object({
          AppId: z.string().max(64).optional(),
          InfoType: z.string().max(50).optional(),
          ComponentVerifyTicket: z.string().max(512).optional(),
          AuthorizerAppid: z.string().max(64).optional(),
        }),
        response: { 200: z.string() },
      },
    },
    async (request, reply) => {
      await receiveTicket(ctx, request.params.platformId, request.query, request.body);
      return reply.type('text/plain').send('success');
    },
  );
  app.post(
    P.authUrl,
    {
      config: { access },
      schema: { tags, summary: '授权链接（平台类型的接入地址）', body: authUrlInputSchema, response: { 200: envelopeSchema(z.string()) } },
    },
    async (request) => ok(await authUrl(ctx, request.body.platformDictId, `${await linkBase(ctx, request)}${JOIN_CALLBACK_ROUTE}`)),
  );
  app.post(
    P.joinCallback,
    {
      config: { access },
      schema: { tags, summary: '授权回调：以 auth_code 完成接入', body: joinCallbackSchema, response: { 200: envelopeSchema(z.object({ id: z.number() })) } },
    },
    async (request) => ok(await joinCallback(ctx, sessionOf(request), request.body)),
  );
  app.get(
    P.joinPage,
    {
      config: { access },
      schema: { tags, summary: '接入应用分页（joinPage）', querystring: joinPageQuerySchema, response: { 200: envelopeSchema(pageSchema(joinAppSchema)) } },
    },
    async (request) => ok(await joinPage(ctx, request.query)),
  );
  app.get(
    P.joinInfo,
    { config: { access }, schema: { tags, summary: '接入应用详情（joinInfo）', querystring: idParamSchema, response: { 200: envelopeSchema(joinAppSchema) } } },
    async (request) => ok(await joinInfo(ctx, request.query.id)),
  );
  app.get(
    P.accounts,
    { config: { access }, schema: { tags, summary: '已授权公众号卡片', response: { 200: envelopeSchema(z.array(officialAccountSchema)) } } },
    async () => ok(await officialAccounts(ctx)),
  );
  app.get(
    P.taskList,
    {
      config: { access },
      schema: { tags, summary: '数据任务（每个接口一个）', querystring: taskListQuerySchema, response: { 200: envelopeSchema(pageSchema(dataTaskSchema)) } },
    },
    async (request) => ok(await taskList(ctx, request.query)),
  );
  app.get(
    P.taskData,
    {
      config: { access },
      schema: { tags, summary: '数据预览（数仓表，经读取模块）', querystring: taskDataQuerySchema, response: { 200: envelopeSchema(taskDataSchema) } },
    },
    async (request) => ok(await taskData(ctx, sessionOf(request), request.query)),
  );
  app.post(
    P.taskUpdate,
    { config: { access }, schema: { tags, summary: '设置请求周期', body: taskUpdateSchema, response: { 200: envelopeSchema(dataTaskSchema) } } },
    async (request) => ok(await taskUpdate(ctx, request.body), cdpMessages.saved),
  );
  app.post(
    P.taskRefresh,
    { config: { access }, schema: { tags, summary: '手动拉取（taskRefresh）', body: taskRefreshSchema, response: { 200: done } } },
    async (request) => {
      await taskRefresh(ctx, request.body.jobId);
      return ok(null, cdpMessages.pullQueued);
    },
  );
  app.get(
    P.logList,
    {
      config: { access },
      schema: { tags, summary: '拉取日志', querystring: logListQuerySchema, response: { 200: envelopeSchema(pageSchema(pullLogSchema)) } },
    },
    async (request) => ok(await logList(ctx, request.query)),
  );
  app.get(
    P.fans,
    {
      config: { access },
      schema: { tags, summary: '粉丝列表（userPage）', querystring: fanPageQuerySchema, response: { 200: envelopeSchema(pageSchema(fanSchema)) } },
    },
    async (request) => ok(await fanPage(ctx, request.query)),
  );
  app.put(
    P.fan,
    { config: { access }, schema: { tags, summary: '保存粉丝行（本地修改，平台值保留）', body: fanEditSchema, response: { 200: envelopeSchema(fanSchema) } } },
    async (request) => ok(await saveFan(ctx, request.body), cdpMessages.saved),
  );
}

const linkBase = async (ctx: AppContext, request: FastifyRequest) => (await linkBaseUrl(ctx, `${request.protocol}://${request.host}`))!;
