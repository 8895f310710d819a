import { z } from 'zod';
import {
  API,
  AUDIENCE_IMPORT_EXTENSIONS,
  AUDIENCE_IMPORT_MAX_MB,
  audienceCategoryBodySchema,
  audienceIdSchema,
  audienceListQuerySchema,
  audienceMessages,
  audiencePreviewSchema,
  audienceSaveSchema,
  envelopeSchema,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ownerOf } from '../../platform/files/owner.ts';
import { installMultipart, receiveUpload } from '../../platform/files/upload.ts';
import { ok } from '../../platform/http/envelope.ts';
import { badRequest } from '../../platform/http/errors.ts';
import { attachmentHeader } from '../export/index.ts';
import { membersCsv } from './csv.ts';
import {
  addCategory,
  exportMembers,
  getAudienceDetail,
  importAudience,
  listAudiences,
  listCategories,
  previewAudience,
  listRefreshes,
  removeAudience,
  requestRefresh,
  saveAudience,
  setOnline,
} from './service.ts';

const P = API.audience;
const tags = ['audience'];
const anyData = { 200: envelopeSchema(z.any()) };
const access = 'user' as const;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

const audienceOnlineSchema = audienceIdSchema.extend({ isOnline: z.union([z.literal(1), z.literal(2)]) });

/** The import form's text fields (spec 3 §7 "Group import"): name, userGroupStatus, the analysis month range. */
const importFormSchema = z
  .object({
    name: z.string({ error: audienceMessages.importNameRequired }).trim().min(1, audienceMessages.importNameRequired).max(100),
    userGroupStatus: z
      .enum(['0', '1'])
      .default('0')
      .transform((v) => (v === '1' ? 1 : 0) as 0 | 1),
    startAnalyseDate: z.string().regex(MONTH).optional(),
    endAnalyseDate: z.string().regex(MONTH).optional(),
    classifyId: z.coerce.number().int().positive().optional(),
  })
  .refine((f) => !f.startAnalyseDate || !f.endAnalyseDate || f.startAnalyseDate <= f.endAnalyseDate, { message: audienceMessages.monthRangeInvalid });

/** Audiences (人群; spec 3 §7 "Audience (dataset-driven)", "Group import"; docs/audiences.md). */
export async function registerAudienceRoutes(app: App, ctx: AppContext): Promise<void> {
  await installMultipart(app);
  app.get(P.categories, { config: { access }, schema: { tags, summary: '人群分类列表', response: anyData } }, async () => ok(await listCategories(ctx)));
  app.post(
    P.categories,
    { config: { access }, schema: { tags, summary: '新增人群分类', body: audienceCategoryBodySchema, response: anyData } },
    async (request) => ok(await addCategory(ctx, request.body.name), audienceMessages.saved),
  );
  app.get(
    P.list,
    { config: { access }, schema: { tags, summary: '人群列表（管理员：全部；其他人：自己创建的）', querystring: audienceListQuerySchema, response: anyData } },
    async (request) => ok(await listAudiences(ctx, sessionOf(request), request.query)),
  );
  app.get(
    P.detail,
    { config: { access }, schema: { tags, summary: '人群详情（groupDetail）', querystring: audienceIdSchema, response: anyData } },
    async (request) => ok(await getAudienceDetail(ctx, sessionOf(request), request.query.id)),
  );
  app.post(
    P.save,
    {
      config: { access },
      schema: { tags, summary: '保存数据集人群（groupSave；Base64 的 JSON，或 JSON）；保存后开始计算', body: audienceSaveSchema, response: anyData },
    },
    async (request) => ok(await saveAudience(ctx, sessionOf(request), request.body), audienceMessages.saved),
  );
  app.post(
    P.preview,
    {
      config: { access },
      schema: { tags, summary: '人群预览（groupPreview：前 100 个成员与人数，按当前用户的数据权限）', body: audiencePreviewSchema, response: anyData },
    },
    async (request) => ok(await previewAudience(ctx, sessionOf(request), request.body.defineRule)),
  );
  app.post(P.refresh, { config: { access }, schema: { tags, summary: '重新计算人群（任务）', body: audienceIdSchema, response: anyData } }, async (request) => {
    await requestRefresh(ctx, sessionOf(request), request.body.id);
    return ok(null, audienceMessages.submitted);
  });
  app.get(
    P.refreshes,
    { config: { access }, schema: { tags, summary: '人群计算记录（最近 50 次，新的在前）', querystring: audienceIdSchema, response: anyData } },
    async (request) => ok(await listRefreshes(ctx, sessionOf(request), request.query.id)),
  );
  app.post(
    P.online,
    { config: { access }, schema: { tags, summary: '启用 / 停用人群（停用后不按周期刷新）', body: audienceOnlineSchema, response: anyData } },
    async (request) => {
      await setOnline(ctx, sessionOf(request), request.body.id, request.body.isOnline);
      return ok(null, audienceMessages.done);
    },
  );
  app.post(
    P.remove,
    { config: { access }, schema: { tags, summary: '删除人群（连同成员表）', body: audienceIdSchema, response: anyData } },
    async (request) => {
      await removeAudience(ctx, sessionOf(request), request.body.id);
      return ok(null, audienceMessages.done);
    },
  );
  app.get(
    P.export,
    {
      config: { access },
      schema: {
        tags,
        summary: '导出人群成员（CSV，UTF-8 带 BOM，流式）',
        querystring: audienceIdSchema,
        response: { 200: z.any().meta({ type: 'string', format: 'binary', description: 'text/csv; charset=utf-8' }) },
      },
    },
    async (request, reply) => {
      const { name, columns, rows } = await exportMembers(ctx, sessionOf(request), request.query.id);
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', attachmentHeader(`${name}.csv`));
      return reply.send(membersCsv(columns, rows));
    },
  );
  app.post(
    P.import,
    {
      config: { access },
      schema: {
        tags,
        summary: '新建导入人群（uploadGroup：xlsx、xls 或 txt，一列手机号）',
        description: 'multipart 表单：file、name、userGroupStatus（0/1）、startAnalyseDate、endAnalyseDate（yyyy-MM）、classifyId',
        consumes: ['multipart/form-data'],
        response: anyData,
      },
    },
    async (request) => {
      const upload = await receiveUpload(request, {
        dataDir: ctx.config.dataDir,
        maxBytes: AUDIENCE_IMPORT_MAX_MB * 1024 * 1024,
        extensions: AUDIENCE_IMPORT_EXTENSIONS,
        extensionMessage: audienceMessages.importFileType,
        owner: ownerOf(ctx),
      });
      try {
        const parsed = importFormSchema.safeParse(upload.fields);
        if (!parsed.success) {
          const fields = parsed.error.issues.map((i) => ({ field: i.path.join('.') || 'name', message: i.message }));
          throw badRequest(fields[0]!.message, fields);
        }
        const f = parsed.data;
        const result = await importAudience(ctx, sessionOf(request), upload.file, {
          name: f.name,
          userGroupStatus: f.userGroupStatus,
          startAnalyseDate: f.startAnalyseDate ?? null,
          endAnalyseDate: f.endAnalyseDate ?? null,
          classifyId: f.classifyId ?? null,
        });
        return ok(result, audienceMessages.imported);
      } finally {
        await upload.dispose();
      }
    },
  );
}
