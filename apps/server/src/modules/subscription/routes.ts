import { z } from 'zod';
import {
  API,
  envelopeSchema,
  idParamSchema,
  pageSchema,
  subscriptionCheckSchema,
  subscriptionEnabledSchema,
  subscriptionListQuerySchema,
  subscriptionLogQuerySchema,
  subscriptionLogSchema,
  subscriptionMessages,
  subscriptionSaveSchema,
  subscriptionSchema,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { readSubscriptionFile } from './render.ts';
import { onTimeZoneChange } from '../system/index.ts';
import {
  checkNotifyType,
  deleteSubscription,
  getLog,
  listLogs,
  listSubscriptions,
  realignSchedules,
  saveSubscription,
  sendNow,
  setSubscriptionEnabled,
} from './service.ts';

const tags = ['subscription'];

/** Subscriptions and their sending log (spec 1 §2.9, §7; docs/subscriptions.md). */
export function registerSubscriptionRoutes(app: App, ctx: AppContext): void {
  // A new 时区 moves every schedule to the new clock without sending anything because of it.
  onTimeZoneChange(ctx, (zone) => realignSchedules(ctx, zone));
  app.post(
    API.subscription.check,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '订阅方式是否可用（data 0 可用，否则 msg 为原因）',
        body: subscriptionCheckSchema,
        response: { 200: envelopeSchema(z.number()) },
      },
    },
    async (request) => {
      const result = await checkNotifyType(ctx, sessionOf(request), request.body.notifyType);
      return ok(result.data, result.msg);
    },
  );
  app.post(
    API.subscription.subscriptions,
    {
      config: { access: 'user' },
      schema: { tags, summary: '保存订阅（新建或修改）', body: subscriptionSaveSchema, response: { 200: envelopeSchema(subscriptionSchema) } },
    },
    async (request) => {
      const saved = await saveSubscription(ctx, sessionOf(request), request.body);
      return ok(saved, request.body.id ? subscriptionMessages.saved : subscriptionMessages.subscribed);
    },
  );
  app.get(
    API.subscription.subscriptions,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '我的订阅（管理员：全部）',
        querystring: subscriptionListQuerySchema,
        response: { 200: envelopeSchema(pageSchema(subscriptionSchema)) },
      },
    },
    async (request) => ok(await listSubscriptions(ctx, sessionOf(request), request.query)),
  );
  app.put(
    API.subscription.enabled,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '启用或停用订阅',
        params: idParamSchema,
        body: subscriptionEnabledSchema,
        response: { 200: envelopeSchema(subscriptionSchema) },
      },
    },
    async (request) => ok(await setSubscriptionEnabled(ctx, sessionOf(request), request.params.id, request.body.enabled), subscriptionMessages.saved),
  );
  app.delete(
    API.subscription.subscription,
    { config: { access: 'user' }, schema: { tags, summary: '删除订阅', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } } },
    async (request) => {
      await deleteSubscription(ctx, sessionOf(request), request.params.id);
      return ok(null, subscriptionMessages.deleted);
    },
  );
  app.post(
    API.subscription.sendNow,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '立即发送（管理员；与定时发送同一任务与日志）', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await sendNow(ctx, request.params.id);
      return ok(null, subscriptionMessages.sendQueued);
    },
  );
  app.get(
    API.subscription.logs,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '订阅日志（管理员看全部，其他人看自己的）',
        querystring: subscriptionLogQuerySchema,
        response: { 200: envelopeSchema(pageSchema(subscriptionLogSchema)) },
      },
    },
    async (request) => ok(await listLogs(ctx, sessionOf(request), request.query)),
  );
  app.get(
    API.subscription.log,
    { config: { access: 'user' }, schema: { tags, summary: '订阅日志详情', params: idParamSchema, response: { 200: envelopeSchema(subscriptionLogSchema) } } },
    async (request) => ok(await getLog(ctx, sessionOf(request), request.params.id)),
  );
  // Public: robots' platforms fetch these images without our token; names carry 96 random bits.
  app.get(
    API.subscription.image,
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: '订阅发送的图片或 PDF（随机文件名，无需登录）',
        params: z.object({ file: z.string().max(64) }),
        // The body is the file's bytes (a Buffer, not serialised); the schema documents it.
        response: { 200: z.any().meta({ type: 'string', format: 'binary', description: 'image/jpeg 或 application/pdf' }) },
      },
    },
    async (request, reply) => {
      const data = await readSubscriptionFile(ctx, request.params.file);
      return reply
        .header('content-type', request.params.file.endsWith('.pdf') ? 'application/pdf' : 'image/jpeg')
        .header('cache-control', 'public, max-age=604800, immutable')
        .send(data);
    },
  );
}
