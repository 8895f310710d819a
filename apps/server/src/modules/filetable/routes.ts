import { z } from 'zod';
import { API, FILE_TABLE_EXTENSIONS, envelopeSchema, fileStructureSchema, fileTableListQuerySchema, fileTableSchema, zhCN } from '@shutu/contracts';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ownerOf } from '../../platform/files/owner.ts';
import { findKeptUpload, keepUpload } from '../../platform/files/kept-upload.ts';
import { installMultipart, receiveForm, receiveUpload, type Upload } from '../../platform/files/upload.ts';
import { AppError, badRequest } from '../../platform/http/errors.ts';
import { ok } from '../../platform/http/envelope.ts';
import { assertMayUpload, createFileTable, detectStructure, fileTablesOf } from './service.ts';

const tags = ['filetable'];

/**
 * File tables (spec 2 §7 "File tables"). Every user who may build on a data source (issue 4:
 * a granted table there) may upload to it; the uploader may use their file tables, others
 * only when an administrator grants them.
 */
export async function registerFileTableRoutes(app: App, ctx: AppContext): Promise<void> {
  await installMultipart(app);

  // Read per request: the limits are the configuration's at the time.
  const uploadOptions = () => ({
    dataDir: ctx.config.dataDir,
    maxBytes: ctx.config.uploadMaxBytes,
    extensions: FILE_TABLE_EXTENSIONS,
    extensionMessage: zhCN.fileFormatInvalid,
    owner: ownerOf(ctx),
  });

  /**
   * The confirm call's file: the one it sends (removed when `work` settles) or, without a file
   * part, the one its `fileToken` names (kept-upload.ts: removed once a table is made of it,
   * left for another try when the call fails).
   */
  async function withConfirmFile<T>(request: FastifyRequest, work: (upload: Upload) => Promise<T>): Promise<T> {
    const form = await receiveForm(request, uploadOptions());
    if (form.file) {
      try {
        return await work({ ...form, file: form.file });
      } finally {
        await form.dispose();
      }
    }
    const token = form.fields.fileToken;
    if (!token) throw badRequest(zhCN.fileRequired);
    const kept = await findKeptUpload(ctx.config.dataDir, token, sessionOf(request).userId);
    if (!kept) throw new AppError(410, zhCN.fileUploadExpired);
    const result = await work({ ...kept, fields: form.fields });
    await kept.dispose();
    return result;
  }

  app.post(
    API.fileTable.structure,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '上传文件并识别表结构（列名、注释、类型与预览行）',
        description: 'multipart 表单：file（xlsx、xls 或 csv，读取第一个工作表）',
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(fileStructureSchema) },
      },
    },
    async (request) => {
      const caller = sessionOf(request);
      await assertMayUpload(ctx, caller);
      const upload = await receiveUpload(request, uploadOptions());
      try {
        const structure = await detectStructure(ctx, upload);
        // Kept for the confirm call, which may name it instead of sending it again.
        return ok({ ...structure, fileToken: await keepUpload(upload, ctx.config.dataDir, ownerOf(ctx), caller.userId) });
      } finally {
        await upload.dispose();
      }
    },
  );
  app.post(
    API.fileTable.tables,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '上传文件创建表并导入全部数据（tableFileUpload）',
        description:
          'multipart 表单：file（xlsx、xls 或 csv）、tableName、tableComment、dsId、tableColumnList（字段配置的 JSON 文本）；不带 file 时以 fileToken 指明识别表结构时上传的文件（一小时内有效，过期为 410）',
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(fileTableSchema) },
      },
    },
    async (request) => ok(await withConfirmFile(request, (upload) => createFileTable(ctx, sessionOf(request), upload, request.log)), zhCN.fileUploaded),
  );
  app.get(
    API.fileTable.tables,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '数据源的文件表列表（tableFileList）',
        querystring: fileTableListQuerySchema,
        response: { 200: envelopeSchema(z.array(fileTableSchema)) },
      },
    },
    async (request) => ok(await fileTablesOf(ctx, sessionOf(request), request.query.dsId)),
  );
}
