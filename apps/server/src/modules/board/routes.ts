import { Readable } from 'node:stream';
import { z } from 'zod';
import {
  API,
  boardAuthSaveSchema,
  boardAuthSchema,
  boardCategorySaveSchema,
  boardCategorySchema,
  boardInfoSaveSchema,
  boardKindQuerySchema,
  boardListItemSchema,
  boardListQuerySchema,
  boardMessages,
  boardSaveSchema,
  boardSchema,
  boardSortSchema,
  boardViewTokenSchema,
  CHART_DATA_BATCH_STREAM_TYPE,
  chartDataBatchRequestSchema,
  chartDataBatchResultSchema,
  chartDataBodySchema,
  chartDataResultSchema,
  chartSchema,
  envelopeSchema,
  groupBoardAuthQuerySchema,
  groupBoardAuthSaveSchema,
  idParamSchema,
  pageSchema,
  zhCN,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { answerStamp, keepAnswer, keptAnswerKey, serveKeptAnswer } from './answer-cache.ts';
import { getBoardAuth, groupBoardAuthList, groupBoardAuthSave, saveBoardAuth } from './auth.ts';
import { deleteCategory, listCategories, saveCategory } from './categories.ts';
import { chartDataBatchLines, openChartBatch } from './chart-batch.ts';
import { chartData } from './chart-data.ts';
import { copyBoard } from './copy-board.ts';
import { saveBoard } from './save-board.ts';
import { deleteBoard, getBoard, listBoardCharts, listBoards, saveBoardInfo, sortBoards } from './service.ts';
import { readThumbnail } from './thumbnail.ts';
import { createViewToken } from './view-token.ts';

const tags = ['board'];
const dataPermIdParamSchema = z.object({ dataPermId: z.coerce.number().int().positive() });
const thumbnailParamSchema = z.object({ file: z.string().max(100) });

/**
 * Boards: big-screen dashboards (kind visual) and self-service reports (kind report)
 * (spec 1 §2.1, §7 "Reports", "Report authorisation"; docs/boards.md). Every signed-in user
 * works on the boards they may see (access.ts); changes by the creator and administrators;
 * authorisation by administrators only.
 */
export function registerBoardRoutes(app: App, ctx: AppContext): void {
  app.get(
    API.board.categories,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '报表分类列表（按类型；两级，parentId 为 0 的是顶级）',
        querystring: boardKindQuerySchema,
        response: { 200: envelopeSchema(z.array(boardCategorySchema)) },
      },
    },
    async (request) => ok(await listCategories(ctx, request.query.kind)),
  );
  app.post(
    API.board.categories,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '新增或修改报表分类（带 id 为修改；上级为 0 或同类型的顶级分类）',
        body: boardCategorySaveSchema,
        response: { 200: envelopeSchema(boardCategorySchema) },
      },
    },
    async (request) => ok(await saveCategory(ctx, sessionOf(request), request.body), zhCN.saved),
  );
  app.delete(
    API.board.category,
    {
      config: { access: 'user' },
      schema: { tags, summary: '删除报表分类（无子分类且无报表时）', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await deleteCategory(ctx, sessionOf(request), request.params.id);
      return ok(null, zhCN.deleted);
    },
  );

  app.get(
    API.board.boards,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '报表列表（按类型、分类含子分类、标题搜索，每页 50；只列出可见的报表）',
        querystring: boardListQuerySchema,
        response: { 200: envelopeSchema(pageSchema(boardListItemSchema)) },
      },
    },
    async (request) => ok(await listBoards(ctx, sessionOf(request), request.query)),
  );
  app.post(
    API.board.boards,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '保存报表（编辑器；新增或带 id 修改，图表整体替换），返回报表 id',
        body: boardSaveSchema,
        response: { 200: envelopeSchema(z.number()) },
      },
    },
    async (request) => ok(await saveBoard(ctx, sessionOf(request), request.body), boardMessages.saveSuccess),
  );
  app.get(
    API.board.board,
    {
      config: { access: 'user', shareable: true },
      schema: { tags, summary: '报表详情（含图表；无权限时 没有此大屏权限）', params: idParamSchema, response: { 200: envelopeSchema(boardSchema) } },
    },
    async (request) => ok(await getBoard(ctx, sessionOf(request), request.params.id)),
  );
  app.get(
    API.board.charts,
    {
      config: { access: 'user', shareable: true },
      schema: { tags, summary: '报表的图表列表（componentList）', params: idParamSchema, response: { 200: envelopeSchema(z.array(chartSchema)) } },
    },
    async (request) => ok(await listBoardCharts(ctx, sessionOf(request), request.params.id)),
  );
  app.put(
    API.board.info,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '修改报表信息（标题、分类、缩略图）',
        params: idParamSchema,
        body: boardInfoSaveSchema,
        response: { 200: envelopeSchema(boardListItemSchema) },
      },
    },
    async (request) => ok(await saveBoardInfo(ctx, sessionOf(request), request.params.id, request.body), boardMessages.saveSuccess),
  );
  app.delete(
    API.board.board,
    {
      config: { access: 'user' },
      schema: { tags, summary: '删除报表（连同图表与授权；创建人或管理员）', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await deleteBoard(ctx, sessionOf(request), request.params.id);
      return ok(null, boardMessages.deleteSuccess);
    },
  );
  app.post(
    API.board.copy,
    {
      config: { access: 'user' },
      schema: { tags, summary: '复制报表（标题加 -副本，归复制人所有），返回新报表 id', params: idParamSchema, response: { 200: envelopeSchema(z.number()) } },
    },
    async (request) => ok(await copyBoard(ctx, sessionOf(request), request.params.id), boardMessages.copySuccess),
  );
  app.put(
    API.board.sort,
    {
      config: { access: 'user' },
      schema: { tags, summary: '报表排序（按给出的 id 顺序编号 1..n）', body: boardSortSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await sortBoards(ctx, sessionOf(request), request.body.kind, request.body.ids);
      return ok(null, boardMessages.saveSuccess);
    },
  );

  app.get(
    API.board.auth,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '报表的授权（是否公开与已授权的权限组）', params: idParamSchema, response: { 200: envelopeSchema(boardAuthSchema) } },
    },
    async (request) => ok(await getBoardAuth(ctx, request.params.id)),
  );
  app.put(
    API.board.auth,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: '保存报表授权（公开时清除权限组授权；否则授权给所选权限组）',
        params: idParamSchema,
        body: boardAuthSaveSchema,
        response: { 200: envelopeSchema(boardAuthSchema) },
      },
    },
    async (request) => ok(await saveBoardAuth(ctx, sessionOf(request), request.params.id, request.body), boardMessages.saveSuccess),
  );
  app.get(
    API.board.groupAuth,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: '权限组在某分类（含子分类）下已授权的报表 id',
        params: dataPermIdParamSchema,
        querystring: groupBoardAuthQuerySchema,
        response: { 200: envelopeSchema(z.array(z.number())) },
      },
    },
    async (request) => ok(await groupBoardAuthList(ctx, request.params.dataPermId, request.query.kind, request.query.reportCategoryId)),
  );
  app.put(
    API.board.groupAuth,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: '保存权限组在某分类下的报表授权（替换该分类内的授权）',
        params: dataPermIdParamSchema,
        body: groupBoardAuthSaveSchema,
        response: { 200: envelopeSchema(z.array(z.number())) },
      },
    },
    async (request) => ok(await groupBoardAuthSave(ctx, request.params.dataPermId, request.body), boardMessages.saveSuccess),
  );

  app.post(
    API.board.viewToken,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '大屏查看令牌（/openview/{id}?token= 用，10 分钟有效；须能查看该大屏）',
        params: idParamSchema,
        response: { 200: envelopeSchema(boardViewTokenSchema) },
      },
    },
    async (request) => ok(await createViewToken(ctx, sessionOf(request), request.params.id)),
  );
  app.get(
    API.board.thumbnail,
    {
      // Public: an <img> cannot send the bearer token; names carry 96 random bits (thumbnail.ts).
      config: { access: 'public' },
      schema: {
        tags,
        summary: '报表缩略图（JPEG；文件名不可猜测，无需登录）',
        params: thumbnailParamSchema,
        // The body is the image's bytes (sent as a Buffer, not serialised); the schema documents it.
        response: { 200: z.any().meta({ type: 'string', format: 'binary', description: 'image/jpeg' }) },
      },
    },
    async (request, reply) => {
      const image = await readThumbnail(ctx, request.params.file);
      // A re-render gets a new file name, so a file never changes: cache it for good.
      return reply.type('image/jpeg').header('cache-control', 'public, max-age=31536000, immutable').send(image);
    },
  );

  app.post(
    API.board.chartData,
    {
      config: { access: 'user', shareable: true },
      schema: {
        tags,
        summary: '图表数据（已保存的图表按 boardId + chartKey，编辑中的图表按 dataconfig；应用当前用户的权限过滤）',
        body: chartDataBodySchema,
        response: { 200: envelopeSchema(chartDataResultSchema) },
      },
      // A kept answer is sent before the body's validation (answer-cache.ts).
      preValidation: serveKeptAnswer(ctx),
    },
    async (request) => {
      const caller = sessionOf(request);
      const key = keptAnswerKey(request);
      const stamp = answerStamp(ctx);
      const result = await chartData(ctx, caller, request.body);
      if (key !== null) keepAnswer(ctx, key, stamp, result);
      return ok(result);
    },
  );
  app.post(
    API.board.chartDataBatch,
    {
      config: { access: 'user', shareable: true },
      schema: {
        tags,
        summary:
          '一个看板的多个图表数据（一次请求；共用数据集与过滤条件的图表合并为一条查询；每个图表各自的结果或错误；Accept: application/x-ndjson 时每个图表一行，先完成先返回）',
        body: chartDataBatchRequestSchema,
        response: { 200: envelopeSchema(chartDataBatchResultSchema) },
      },
    },
    async (request, reply) => {
      const answers = await openChartBatch(ctx, sessionOf(request), request.body);
      if (!request.headers.accept?.includes(CHART_DATA_BATCH_STREAM_TYPE)) return ok(await Promise.all(answers));
      // Each chart's line as soon as its read is done, so the page draws it while the others run.
      // A stream is piped as it is (Fastify serialises objects only): the schema above is the JSON form's.
      return reply.type(CHART_DATA_BATCH_STREAM_TYPE).send(Readable.from(chartDataBatchLines(answers)) as never);
    },
  );
}
