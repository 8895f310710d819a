import {
  API,
  embedSettingsResponseSchema,
  embedSettingsSchema,
  envelopeSchema,
  notifySettingsSchema,
  publicUrlSettingsResponseSchema,
  publicUrlSettingsSchema,
  systemConfigSchema,
  zhCN,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { ok } from '../../platform/http/envelope.ts';
import { getSystemConfig, saveSystemConfig } from './service.ts';
import { getNotifySettings, saveNotifySettings } from './notify-settings.ts';
import { getEmbedSettings, saveEmbedSettings } from './embed-settings.ts';
import { getPublicUrlSettings, savePublicUrlSettings } from './public-url.ts';

export function registerSystemRoutes(app: App, ctx: AppContext): void {
  const { db } = ctx;
  // Public: the login page shows the system name before anyone signs in.
  app.get(
    API.system.config,
    { config: { access: 'public' }, schema: { tags: ['system'], summary: '读取系统设置', response: { 200: envelopeSchema(systemConfigSchema) } } },
    async () => ok(await getSystemConfig(db)),
  );
  app.put(
    API.system.config,
    {
      config: { access: 'admin' },
      schema: { tags: ['system'], summary: '保存系统设置', body: systemConfigSchema, response: { 200: envelopeSchema(systemConfigSchema) } },
    },
    async (request) => ok(await saveSystemConfig(db, request.body), zhCN.saved),
  );
  // 通知设置 (subscriptions): administrators only; secrets come back masked.
  app.get(
    API.system.notify,
    { config: { access: 'admin' }, schema: { tags: ['system'], summary: '读取通知设置', response: { 200: envelopeSchema(notifySettingsSchema) } } },
    async () => ok(await getNotifySettings(ctx)),
  );
  app.put(
    API.system.notify,
    {
      config: { access: 'admin' },
      schema: { tags: ['system'], summary: '保存通知设置', body: notifySettingsSchema, response: { 200: envelopeSchema(notifySettingsSchema) } },
    },
    async (request) => ok(await saveNotifySettings(ctx, request.body), zhCN.saved),
  );
  // 嵌入设置: who may frame /openview and share links (Content-Security-Policy frame-ancestors).
  app.get(
    API.system.embed,
    { config: { access: 'admin' }, schema: { tags: ['system'], summary: '读取嵌入设置', response: { 200: envelopeSchema(embedSettingsResponseSchema) } } },
    async () => ok(await getEmbedSettings(ctx)),
  );
  app.put(
    API.system.embed,
    {
      config: { access: 'admin' },
      schema: { tags: ['system'], summary: '保存嵌入设置', body: embedSettingsSchema, response: { 200: envelopeSchema(embedSettingsResponseSchema) } },
    },
    async (request) => ok(await saveEmbedSettings(ctx, request.body), zhCN.saved),
  );
  // 公开访问地址: the base of links sent out (subscriptions, share links); PUBLIC_URL when empty.
  app.get(
    API.system.publicUrl,
    {
      config: { access: 'admin' },
      schema: { tags: ['system'], summary: '读取公开访问地址', response: { 200: envelopeSchema(publicUrlSettingsResponseSchema) } },
    },
    async () => ok(await getPublicUrlSettings(ctx)),
  );
  app.put(
    API.system.publicUrl,
    {
      config: { access: 'admin' },
      schema: {
        tags: ['system'],
        summary: '保存公开访问地址（http(s) 地址，可带路径前缀；空 = 使用 PUBLIC_URL 或访问地址）',
        body: publicUrlSettingsSchema,
        response: { 200: envelopeSchema(publicUrlSettingsResponseSchema) },
      },
    },
    async (request) => ok(await savePublicUrlSettings(ctx, request.body), zhCN.saved),
  );
}
