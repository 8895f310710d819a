import { z } from 'zod';
import {
  API,
  envelopeSchema,
  orderExportMessages,
  orderExportPageQuerySchema,
  orderExportResultQuerySchema,
  orderExportResultSchema,
  orderExportSettingsSchema,
  orderExportTaskSchema,
  orderExportUpdateNameSchema,
  orderChannelOptionsSchema,
  orderOptionTreeSchema,
  orderQuerySchema,
  pageSchema,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ownerOf } from '../../platform/files/owner.ts';
import { installMultipart, receiveUpload } from '../../platform/files/upload.ts';
import { badRequest } from '../../platform/http/errors.ts';
import { ok } from '../../platform/http/envelope.ts';
import { sendDownload } from '../export/index.ts';
import { areaTree, channelOptions, productTree } from './options.ts';
import { addTask, addTxtTask, downloadFile, getSettings, listTasks, renameTask, resultPage, saveSettings, taskDetails } from './service.ts';

const tags = ['orderexport'];
const access = { permission: 'order_export' } as const;
const P = API.orderExport;
const taskIdQuery = z.object({ taskId: z.coerce.number().int().positive() });

/**
 * Order-data export (spec 3 §7 "Order-data export"; docs/order-export.md). Every call needs the
 * permission code order_export (administrators hold it; others through a role); each user sees
 * only their own tasks.
 */
export async function registerOrderExportRoutes(app: App, ctx: AppContext): Promise<void> {
  await installMultipart(app);

  app.get(
    P.maxrows,
    { config: { access }, schema: { tags, summary: '批量导入号码的最大行数（默认 100 万）', response: { 200: envelopeSchema(z.number()) } } },
    async () => ok((await getSettings(ctx)).maxRows),
  );
  app.get(
    P.channels,
    { config: { access }, schema: { tags, summary: '订购/退订渠道与渠道归属', response: { 200: envelopeSchema(orderChannelOptionsSchema) } } },
    async (request) => ok(await channelOptions(ctx, sessionOf(request))),
  );
  app.get(
    P.areaTree,
    { config: { access }, schema: { tags, summary: '省份与地市树', response: { 200: envelopeSchema(orderOptionTreeSchema) } } },
    async (request) => ok(await areaTree(ctx, sessionOf(request))),
  );
  app.get(
    P.areapRoductTree,
    { config: { access }, schema: { tags, summary: '产品类型与产品树（一级、二级类型与产品）', response: { 200: envelopeSchema(orderOptionTreeSchema) } } },
    async (request) => ok(await productTree(ctx, sessionOf(request))),
  );
  app.get(
    P.settings,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '订购数据导出设置（最大行数、文件保留天数）', response: { 200: envelopeSchema(orderExportSettingsSchema) } },
    },
    async () => ok(await getSettings(ctx)),
  );
  app.put(
    P.settings,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '保存订购数据导出设置', body: orderExportSettingsSchema, response: { 200: envelopeSchema(orderExportSettingsSchema) } },
    },
    async (request) => ok(await saveSettings(ctx, request.body), orderExportMessages.saved),
  );
  app.get(
    P.page,
    {
      config: { access },
      schema: {
        tags,
        summary: '我的订购数据导出任务（按任务名称与创建日期搜索，最新在前）',
        querystring: orderExportPageQuerySchema,
        response: { 200: envelopeSchema(pageSchema(orderExportTaskSchema)) },
      },
    },
    async (request) => {
      const { current, size, mcomment, startTime, endTime } = request.query;
      return ok(await listTasks(ctx, { userId: sessionOf(request).userId, name: mcomment, from: startTime, to: endTime }, current, size));
    },
  );
  app.post(
    P.add,
    {
      config: { access },
      schema: { tags, summary: '提交订购数据查询（单个号码或全部用户；返回任务编号）', body: orderQuerySchema, response: { 200: envelopeSchema(z.number()) } },
    },
    async (request) => ok(await addTask(ctx, sessionOf(request).userId, request.body), orderExportMessages.submitted),
  );
  app.post(
    P.addtxt,
    {
      config: { access },
      schema: {
        tags,
        summary: '按批量号码文件提交订购数据查询（txt，每行一个号码）',
        description: 'multipart 表单：file（txt）、form（查询表单的 JSON 文本）',
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(z.number()) },
      },
    },
    async (request) => {
      const upload = await receiveUpload(request, {
        dataDir: ctx.config.dataDir,
        maxBytes: ctx.config.uploadMaxBytes,
        extensions: ['txt'],
        extensionMessage: orderExportMessages.txtOnly,
        owner: ownerOf(ctx),
      });
      try {
        let raw: unknown;
        try {
          raw = JSON.parse(upload.fields.form ?? '{}');
        } catch {
          throw badRequest(orderExportMessages.required);
        }
        const parsed = orderQuerySchema.safeParse({ ...(raw as object), utype: 2 });
        if (!parsed.success) {
          const fields = parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
          throw badRequest(fields[0]!.message, fields);
        }
        return ok(await addTxtTask(ctx, sessionOf(request).userId, parsed.data, upload), orderExportMessages.submitted);
      } finally {
        await upload.dispose();
      }
    },
  );
  app.post(
    P.updatename,
    {
      config: { access },
      schema: { tags, summary: '为任务命名（数据计算提醒弹窗）', body: orderExportUpdateNameSchema, response: { 200: envelopeSchema(orderExportTaskSchema) } },
    },
    async (request) => ok(await renameTask(ctx, sessionOf(request).userId, request.body), orderExportMessages.saved),
  );
  app.get(
    P.details,
    {
      config: { access },
      schema: { tags, summary: '任务详情（状态、进度与每次状态变化）', querystring: taskIdQuery, response: { 200: envelopeSchema(orderExportTaskSchema) } },
    },
    async (request) => ok(await taskDetails(ctx, sessionOf(request).userId, request.query.taskId)),
  );
  app.get(
    P.pageresult,
    {
      config: { access },
      schema: {
        tags,
        summary: '任务结果分页（每页 10/20/100 条）',
        querystring: orderExportResultQuerySchema,
        response: { 200: envelopeSchema(orderExportResultSchema) },
      },
    },
    async (request) => ok(await resultPage(ctx, sessionOf(request).userId, request.query)),
  );
  app.get(
    P.download,
    {
      config: { access },
      schema: {
        tags,
        summary: '下载结果 CSV（仅状态 9；否则 409 文件还未生成）',
        querystring: taskIdQuery,
        response: {
          200: z.any().meta({ type: 'string', format: 'binary', description: 'text/csv; charset=utf-8' }),
          206: z.any().meta({ type: 'string', format: 'binary', description: '请求头 Range 指定的字节段（续传）' }),
          416: z.any().meta({ description: 'Range 超出文件大小（无内容）' }),
        },
      },
    },
    async (request, reply) => {
      const file = await downloadFile(ctx, sessionOf(request).userId, request.query.taskId, request.headers.range);
      return sendDownload(reply, file, 'text/csv; charset=utf-8');
    },
  );
}
