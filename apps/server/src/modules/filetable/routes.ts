import { z } from 'zod';
import { API, FILE_TABLE_EXTENSIONS, envelopeSchema, fileStructureSchema, fileTableListQuerySchema, fileTableSchema, zhCN } from '@shutu/contracts';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ownerOf } from '../../platform/files/owner.ts';
import { installMultipart, receiveUpload, type Upload } from '../../platform/files/upload.ts';
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

  /** Streams the request's file to a temp file; it is removed when `work` settles. */
  async function withUpload<T>(request: FastifyRequest, work: (upload: Upload) => Promise<T>): Promise<T> {
    const upload = await receiveUpload(request, {
      dataDir: ctx.config.dataDir,
      maxBytes: ctx.config.uploadMaxBytes,
      extensions: FILE_TABLE_EXTENSIONS,
      extensionMessage: zhCN.fileFormatInvalid,
      owner: ownerOf(ctx),
    });
    try {
      return await work(upload);
    } finally {
      await upload.dispose();
    }
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
      await assertMayUpload(ctx, sessionOf(request));
      return ok(await withUpload(request, (upload) => detectStructure(ctx, upload)));
    },
  );
  app.post(
    API.fileTable.tables,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '上传文件创建表并导入全部数据（tableFileUpload）',
        description: 'multipart 表单：file（xlsx、xls 或 csv）、tableName、tableComment、dsId、tableColumnList（字段配置的 JSON 文本）',
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(fileTableSchema) },
      },
    },
    async (request) => ok(await withUpload(request, (upload) => createFileTable(ctx, sessionOf(request), upload, request.log)), zhCN.fileUploaded),
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
