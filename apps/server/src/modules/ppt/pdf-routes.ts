import { z } from 'zod';
import { API, envelopeSchema, exportMessages, idParamSchema, pptPdfTaskSchema, pptPrintSchema } from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { attachmentHeader } from '../export/index.ts';
import { createPdfTask, pdfFile, pdfMessages, removePdfTask, requireOwnPdfTask, retryPdfTask, toPdfTask } from './pdf-service.ts';

const tags = ['ppt'];
const taskParamSchema = z.object({ taskId: z.uuid() });

/**
 * PDF export of slideshows (spec 1 §2.10 导出pdf, §3 "Print form", §5; docs/slideshows.md
 * "Viewer and PDF"). Anyone who may see the slideshow exports the dashboards they may see;
 * tasks and files are their owner's only.
 */
export function registerPptPdfRoutes(app: App, ctx: AppContext): void {
  app.post(
    API.ppt.pdf,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '导出幻灯片为 PDF（后台任务：page 1 当前页 / 2 全部 / 3 选择页，shuiyin 水印文字）',
        params: idParamSchema,
        body: pptPrintSchema,
        response: { 200: envelopeSchema(pptPdfTaskSchema) },
      },
    },
    async (request) => ok(await createPdfTask(ctx, sessionOf(request), request.params.id, request.body), pdfMessages.submitted),
  );
  app.get(
    API.ppt.pdfTask,
    {
      config: { access: 'user' },
      schema: { tags, summary: 'PDF 导出任务的进度（仅导出人本人）', params: taskParamSchema, response: { 200: envelopeSchema(pptPdfTaskSchema) } },
    },
    async (request) => ok(toPdfTask(await requireOwnPdfTask(ctx, sessionOf(request), request.params.taskId))),
  );
  app.get(
    API.ppt.pdfFile,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '下载导出的 PDF（仅导出人本人；文件名为幻灯片名称）',
        params: taskParamSchema,
        response: { 200: z.any().meta({ type: 'string', format: 'binary', description: 'application/pdf' }) },
      },
    },
    async (request, reply) => {
      const { body, fileName, size } = await pdfFile(ctx, sessionOf(request), request.params.taskId);
      reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', attachmentHeader(fileName))
        .header('content-length', size)
        .header('cache-control', 'private, no-store');
      return reply.send(body);
    },
  );
  app.post(
    API.ppt.pdfRetry,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '重试失败的 PDF 导出任务（仅导出人本人；同一任务重新排队）',
        params: taskParamSchema,
        response: { 200: envelopeSchema(pptPdfTaskSchema) },
      },
    },
    async (request) => ok(await retryPdfTask(ctx, sessionOf(request), request.params.taskId), exportMessages.resubmitted),
  );
  app.delete(
    API.ppt.pdfTask,
    {
      config: { access: 'user' },
      schema: { tags, summary: '删除 PDF 导出任务及其文件（仅导出人本人）', params: taskParamSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await removePdfTask(ctx, sessionOf(request), request.params.taskId);
      return ok(null, exportMessages.deleted);
    },
  );
}
