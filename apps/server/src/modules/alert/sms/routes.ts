import { z } from 'zod';
import { ALERT_API, alertMessages, envelopeSchema, idParamSchema, smsProviderSchema, smsTemplateSchema } from '@shutu/contracts';
import type { App, AppContext } from '../../../context.ts';
import { ok } from '../../../platform/http/envelope.ts';
import { listSmsProviders, saveSmsProvider } from './settings.ts';
import { deleteSmsTemplate, listSmsTemplates, saveSmsTemplate } from './templates.ts';

const tags = ['alert'];
const anyData = { 200: envelopeSchema(z.any()) };

/** SMS templates and the providers' configuration (docs/alerts.md "SMS"). */
export function registerSmsRoutes(app: App, ctx: AppContext): void {
  app.get(ALERT_API.smsTemplates, { config: { access: 'user' }, schema: { tags, summary: '短信模板列表', response: anyData } }, async () =>
    ok(await listSmsTemplates(ctx)),
  );
  app.post(
    ALERT_API.smsTemplates,
    { config: { access: 'admin' }, schema: { tags, summary: '保存短信模板（参数取自内容中的 ${变量}）', body: smsTemplateSchema, response: anyData } },
    async (request) => ok(await saveSmsTemplate(ctx, request.body), alertMessages.saved),
  );
  app.delete(
    ALERT_API.smsTemplate,
    { config: { access: 'admin' }, schema: { tags, summary: '删除短信模板', params: idParamSchema, response: anyData } },
    async (request) => {
      await deleteSmsTemplate(ctx, request.params.id);
      return ok(null, alertMessages.done);
    },
  );
  app.get(
    ALERT_API.smsProviders,
    { config: { access: 'admin' }, schema: { tags, summary: '短信服务商配置（密钥以 ****** 显示）', response: anyData } },
    async () => ok(await listSmsProviders(ctx)),
  );
  app.put(
    ALERT_API.smsProviders,
    { config: { access: 'admin' }, schema: { tags, summary: '保存一个短信服务商的配置（****** 保留原密钥）', body: smsProviderSchema, response: anyData } },
    async (request) => ok(await saveSmsProvider(ctx, request.body), alertMessages.saved),
  );
}
