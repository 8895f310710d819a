import {
  API,
  embedSettingsResponseSchema,
  embedSettingsSchema,
  envelopeSchema,
  fileTableSourceSchema,
  notifySettingsSchema,
  publicUrlSettingsResponseSchema,
  publicUrlSettingsSchema,
  systemConfigResponseSchema,
  systemConfigSchema,
  timeZoneSettingsSchema,
  zhCN,
} from '@shutu/contracts';
import { z } from 'zod';
import type { App, AppContext } from '../../context.ts';
import { ok } from '../../platform/http/envelope.ts';
import { getSystemConfig, saveSystemConfig } from './service.ts';
import { getNotifySettings, saveNotifySettings } from './notify-settings.ts';
import { getEmbedSettings, saveEmbedSettings } from './embed-settings.ts';
import { getPublicUrlSettings, savePublicUrlSettings } from './public-url.ts';
import { getTimeZoneSettings, saveTimeZoneSettings, serverTimeZone } from './time-zone.ts';
import { getFileTableSource, saveFileTableSource } from './file-table-source.ts';

export function registerSystemRoutes(app: App, ctx: AppContext): void {
  const { db } = ctx;
  // Public: the login page shows the system name before anyone signs in; the web app learns the
  // zone it shows every time in from here too.
  app.get(
    API.system.config,
    { config: { access: 'public' }, schema: { tags: ['system'], summary: '读取系统设置', response: { 200: envelopeSchema(systemConfigResponseSchema) } } },
    async () => ok({ ...(await getSystemConfig(db)), timeZone: await serverTimeZone(ctx) }),
  );
  app.put(
    API.system.config,
    {
      config: { access: 'admin' },
      schema: { tags: ['system'], summary: '保存系统设置', body: systemConfigSchema, response: { 200: envelopeSchema(systemConfigResponseSchema) } },
    },
    async (request) => ok({ ...(await saveSystemConfig(db, request.body)), timeZone: await serverTimeZone(ctx) }, zhCN.saved),
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
  // 时区: the wall clock of subscription schedules, relative date filters and every time shown.
  app.get(
    API.system.timeZone,
    { config: { access: 'admin' }, schema: { tags: ['system'], summary: '读取时区', response: { 200: envelopeSchema(z.object({ timeZone: z.string() })) } } },
    async () => ok(await getTimeZoneSettings(ctx)),
  );
  app.put(
    API.system.timeZone,
    {
      config: { access: 'admin' },
      schema: {
        tags: ['system'],
        summary: '保存时区（IANA 时区名称，如 Asia/Shanghai；订阅按新时区的钟点发送）',
        body: timeZoneSettingsSchema,
        response: { 200: envelopeSchema(z.object({ timeZone: z.string() })) },
      },
    },
    async (request) => ok(await saveTimeZoneSettings(ctx, request.body), zhCN.saved),
  );
  // 文件表目标数据源 (issue 27): read by every uploader (the upload picker preselects it), set by administrators.
  app.get(
    API.system.fileTableSource,
    {
      config: { access: 'user' },
      schema: { tags: ['system'], summary: '读取上传文件表的目标数据源（null：内置数仓）', response: { 200: envelopeSchema(fileTableSourceSchema) } },
    },
    async () => ok(await getFileTableSource(ctx)),
  );
  app.put(
    API.system.fileTableSource,
    {
      config: { access: 'admin' },
      schema: {
        tags: ['system'],
        summary: '保存上传文件表的目标数据源（datasourceId 为 null 时使用内置数仓）',
        body: fileTableSourceSchema,
        response: { 200: envelopeSchema(fileTableSourceSchema) },
      },
    },
    async (request) => ok(await saveFileTableSource(ctx, request.body), zhCN.saved),
  );
}
