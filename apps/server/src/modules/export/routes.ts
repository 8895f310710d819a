import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  API,
  envelopeSchema,
  exportCreateSchema,
  exportMessages,
  exportRecordsQuerySchema,
  exportTaskSchema,
  exportTasksQuerySchema,
  idParamSchema,
  pageSchema,
  taskEntriesQuerySchema,
  taskEntrySchema,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import type { parseRange } from '../../platform/files/range.ts';
import { ok } from '../../platform/http/envelope.ts';
import { createExport, exportFile, listTaskEntries, listTasks, removeTask, retryExport } from './service.ts';

/** Content types of the export formats (CSV as UTF-8: the file starts with a BOM too). */
const CONTENT_TYPES = { xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', csv: 'text/csv; charset=utf-8' } as const;

const tags = ['export'];

/**
 * Content-Disposition for a UTF-8 file name (RFC 6266 / RFC 5987): an ASCII fallback for
 * old clients and the exact name as filename*.
 */
export function attachmentHeader(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** A stored file as a download: whole (200), the asked byte range of a resumed download (206), or 416 past its end. */
export function sendDownload(
  reply: FastifyReply,
  file: { body: unknown; fileName: string; size: number; range: ReturnType<typeof parseRange> },
  contentType: string,
): FastifyReply {
  const { body, fileName, size, range } = file;
  reply
    .header('content-type', contentType)
    .header('content-disposition', attachmentHeader(fileName))
    .header('accept-ranges', 'bytes')
    .header('cache-control', 'private, no-store');
  if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${size}`).send();
  if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`);
  return reply.header('content-length', range ? range.end - range.start + 1 : size).send(body);
}

/**
 * Table export to Excel (spec 1 §2.10, §7 "Export Excel and export records"; docs/exports.md).
 * Every signed-in user exports the tables of the boards they may see and sees, downloads and
 * deletes only their own tasks.
 */
export function registerExportRoutes(app: App, ctx: AppContext): void {
  app.post(
    API.export.tasks,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '导出图表数据为 Excel 或 CSV（后台任务；文件名默认图表标题，带上当前联动与参数，按导出人的行权限；透视表按屏幕上的交叉表）',
        body: exportCreateSchema,
        response: { 200: envelopeSchema(exportTaskSchema) },
      },
    },
    async (request) => ok(await createExport(ctx, sessionOf(request), request.body), exportMessages.submitted),
  );
  app.get(
    API.export.records,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '某图表的我的导出记录（最新在前，默认每页 5 条）',
        querystring: exportRecordsQuerySchema,
        response: { 200: envelopeSchema(pageSchema(exportTaskSchema)) },
      },
    },
    async (request) => {
      const { boardId, chartKey, current, size } = request.query;
      return ok(await listTasks(ctx, { userId: sessionOf(request).userId, boardId, chartKey }, current, size));
    },
  );
  app.get(
    API.export.tasks,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '我的导出任务（任务管理；最新在前，可按状态筛选）',
        querystring: exportTasksQuerySchema,
        response: { 200: envelopeSchema(pageSchema(exportTaskSchema)) },
      },
    },
    async (request) => {
      const { status, current, size } = request.query;
      return ok(await listTasks(ctx, { userId: sessionOf(request).userId, ...(status ? { status } : {}) }, current, size));
    },
  );
  app.get(
    API.export.download,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '下载导出文件（仅导出人本人；其他人 404）',
        params: idParamSchema,
        response: {
          200: z.any().meta({ type: 'string', format: 'binary', description: `${CONTENT_TYPES.xlsx} 或 ${CONTENT_TYPES.csv}` }),
          206: z.any().meta({ type: 'string', format: 'binary', description: '请求头 Range 指定的字节段（续传）' }),
          416: z.any().meta({ description: 'Range 超出文件大小（无内容）' }),
        },
      },
    },
    async (request, reply) => {
      const file = await exportFile(ctx, sessionOf(request), request.params.id, request.headers.range);
      return sendDownload(reply, file, CONTENT_TYPES[file.format]);
    },
  );
  app.get(
    API.export.allTasks,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '任务管理：我的图表导出与幻灯片 PDF 任务（一个列表，kind 区分；最新在前，可按状态、类型筛选）',
        querystring: taskEntriesQuerySchema,
        response: { 200: envelopeSchema(pageSchema(taskEntrySchema)) },
      },
    },
    async (request) => {
      const { status, kind, current, size } = request.query;
      return ok(await listTaskEntries(ctx, { userId: sessionOf(request).userId, status, kind }, current, size));
    },
  );
  app.post(
    API.export.retry,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '重试失败的导出任务（如服务重启中断的任务；仅导出人本人，非失败状态 400）',
        params: idParamSchema,
        response: { 200: envelopeSchema(exportTaskSchema) },
      },
    },
    async (request) => ok(await retryExport(ctx, sessionOf(request), request.params.id), exportMessages.resubmitted),
  );
  app.delete(
    API.export.task,
    {
      config: { access: 'user' },
      schema: { tags, summary: '删除导出任务及其文件（仅导出人本人）', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await removeTask(ctx, sessionOf(request), request.params.id);
      return ok(null, exportMessages.deleted);
    },
  );
}
