import { z } from 'zod';
import {
  ALERT_API,
  alertEnabledSchema,
  alertListQuerySchema,
  alertLogQuerySchema,
  alertMessages,
  alertPreviewSchema,
  alertPushSettingsSchema,
  alertSaveSchema,
  alertTimeConfigSchema,
  envelopeSchema,
  idParamSchema,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { serverTimeZoneOffsetMinutes } from '../system/index.ts';
import { ALERT_IMAGE_ROUTE, readAlertImage } from './board-image.ts';
import { registerSmsRoutes } from './sms/routes.ts';
import { loadPushSettings, maskedPush, savePushSettings } from './push.ts';
import { previewAlert, windowOf } from './query.ts';
import { alertRecipients } from './recipients.ts';
import { checkNow, copyAlert, getAlert, getCheckRows, listAlerts, listChecks, removeAlert, saveAlert, setAlertEnabled } from './service.ts';

const tags = ['alert'];
const anyData = { 200: envelopeSchema(z.any()) };

/** Alerts (预警; spec 3 §7 "Alert"; docs/alerts.md). */
export function registerAlertRoutes(app: App, ctx: AppContext): void {
  registerSmsRoutes(app, ctx);
  app.get(
    ALERT_API.alerts,
    { config: { access: 'user' }, schema: { tags, summary: '预警列表（管理员：全部）', querystring: alertListQuerySchema, response: anyData } },
    async (request) => ok(await listAlerts(ctx, sessionOf(request), request.query)),
  );
  app.post(
    ALERT_API.alerts,
    { config: { access: 'user' }, schema: { tags, summary: '保存预警（Base64 的 JSON，或 JSON）', body: alertSaveSchema, response: anyData } },
    async (request) => ok(await saveAlert(ctx, sessionOf(request), request.body), alertMessages.saved),
  );
  app.get(ALERT_API.alert, { config: { access: 'user' }, schema: { tags, summary: '预警详情', params: idParamSchema, response: anyData } }, async (request) =>
    ok(await getAlert(ctx, sessionOf(request), request.params.id)),
  );
  app.delete(
    ALERT_API.alert,
    { config: { access: 'user' }, schema: { tags, summary: '删除预警', params: idParamSchema, response: anyData } },
    async (request) => {
      await removeAlert(ctx, sessionOf(request), request.params.id);
      return ok(null, alertMessages.done);
    },
  );
  app.post(
    ALERT_API.copy,
    { config: { access: 'user' }, schema: { tags, summary: '复制预警（停用的副本）', params: idParamSchema, response: anyData } },
    async (request) => ok(await copyAlert(ctx, sessionOf(request), request.params.id), alertMessages.done),
  );
  app.put(
    ALERT_API.enabled,
    { config: { access: 'user' }, schema: { tags, summary: '启用或停用预警', params: idParamSchema, body: alertEnabledSchema, response: anyData } },
    async (request) => {
      await setAlertEnabled(ctx, sessionOf(request), request.params.id, request.body.enableStatus);
      return ok(null, alertMessages.done);
    },
  );
  app.post(
    ALERT_API.preview,
    {
      config: { access: 'user' },
      schema: { tags, summary: '预警预览（dataList 与 fieldDict，按当前用户的数据权限）', body: alertPreviewSchema, response: anyData },
    },
    async (request) => {
      const body = request.body;
      const alert = {
        cubeDataId: body.cubeDataId,
        columnJson: body.columnList,
        filterJson: body.filterList,
        filterRelationJson: body.filterRelation,
        filterTimeJson: body.filterTimeJson,
      };
      return ok(await previewAlert(ctx, sessionOf(request), alert));
    },
  );
  app.post(
    ALERT_API.window,
    { config: { access: 'user' }, schema: { tags, summary: '时间配置的绝对范围（timeValue）', body: alertTimeConfigSchema, response: anyData } },
    async (request) => {
      const now = new Date();
      const window = windowOf({ timeZoneOffsetMinutes: await serverTimeZoneOffsetMinutes(ctx, now) }, { filterTimeJson: request.body } as never, now);
      return ok([window.start, window.end]);
    },
  );
  app.post(
    ALERT_API.check,
    { config: { access: 'user' }, schema: { tags, summary: '立即检查（与到期检查同一任务、认领与日志）', params: idParamSchema, response: anyData } },
    async (request) => {
      await checkNow(ctx, sessionOf(request), request.params.id);
      return ok(null, alertMessages.checkQueued);
    },
  );
  app.get(
    ALERT_API.logs,
    { config: { access: 'user' }, schema: { tags, summary: '预警检查日志（管理员看全部）', querystring: alertLogQuerySchema, response: anyData } },
    async (request) => ok(await listChecks(ctx, sessionOf(request), request.query)),
  );
  app.get(
    ALERT_API.recipients,
    { config: { access: 'user' }, schema: { tags, summary: '可选的预警人员（在职用户与部门树，不含联系方式）', response: anyData } },
    async () => ok(await alertRecipients(ctx)),
  );
  app.get(
    ALERT_API.logRows,
    { config: { access: 'user' }, schema: { tags, summary: '一次检查保留的数据行（按预警创建人的数据权限读取）', params: idParamSchema, response: anyData } },
    async (request) => ok(await getCheckRows(ctx, sessionOf(request), request.params.id)),
  );
  // Public: robots' platforms fetch the board image without our token; names carry 96 random bits.
  app.get(
    ALERT_IMAGE_ROUTE,
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: '预警消息中的报表图片（随机文件名，无需登录）',
        params: z.object({ file: z.string().max(64) }),
        response: { 200: z.any().meta({ type: 'string', format: 'binary', description: 'image/jpeg' }) },
      },
    },
    async (request, reply) =>
      reply
        .header('content-type', 'image/jpeg')
        .header('cache-control', 'public, max-age=604800, immutable')
        .send(await readAlertImage(ctx, request.params.file)),
  );
  app.get(ALERT_API.push, { config: { access: 'admin' }, schema: { tags, summary: '第三方推送设置（密钥以 ****** 显示）', response: anyData } }, async () =>
    ok(maskedPush(await loadPushSettings(ctx))),
  );
  app.put(
    ALERT_API.push,
    { config: { access: 'admin' }, schema: { tags, summary: '保存第三方推送设置（****** 保留原密钥）', body: alertPushSettingsSchema, response: anyData } },
    async (request) => ok(await savePushSettings(ctx, request.body), alertMessages.saved),
  );
}
