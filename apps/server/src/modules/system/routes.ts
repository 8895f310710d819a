import { API, envelopeSchema, systemConfigSchema, zhCN } from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { ok } from '../../platform/http/envelope.ts';
import { getSystemConfig, saveSystemConfig } from './service.ts';

export function registerSystemRoutes(app: App, { db }: AppContext): void {
  // Public: the login page shows the system name before anyone signs in.
  app.get(
    API.system.config,
    { config: { access: 'public' }, schema: { tags: ['system'], summary: '读取系统设置', response: { 200: envelopeSchema(systemConfigSchema) } } },
    async () => ok(await getSystemConfig(db)),
  );
  app.put(
    API.system.config,
    { config: { access: 'admin' }, schema: { tags: ['system'], summary: '保存系统设置', body: systemConfigSchema, response: { 200: envelopeSchema(systemConfigSchema) } } },
    async (request) => ok(await saveSystemConfig(db, request.body), zhCN.saved),
  );
}
