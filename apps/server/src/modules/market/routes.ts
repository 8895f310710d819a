import { z } from 'zod';
import {
  API,
  envelopeSchema,
  marketChartQuerySchema,
  marketDailyQuerySchema,
  marketDailyRowSchema,
  marketFunnelRowSchema,
  marketKeepQuerySchema,
  marketKeepRowSchema,
  marketTaskListQuerySchema,
  marketTaskSchema,
  pageSchema,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { dailyRows, findMarketTask, funnelRows, keepRows, listTasks } from './service.ts';

const tags = ['market'];
const access = { permission: 'market_view' } as const;
const P = API.market;

/** Marketing task statistics (spec 3 §7): holders of the permission code market_view. */
export function registerMarketRoutes(app: App, ctx: AppContext): void {
  app.get(
    P.tasks,
    {
      config: { access },
      schema: {
        tags,
        summary: '营销任务列表（名称、类型、推送时间、渠道、目标人群数）',
        querystring: marketTaskListQuerySchema,
        response: { 200: envelopeSchema(pageSchema(marketTaskSchema)) },
      },
    },
    async (request) => ok(await listTasks(ctx, sessionOf(request), request.query)),
  );
  app.get(
    P.task,
    {
      config: { access },
      schema: {
        tags,
        summary: '营销任务详情（统计面板表头）',
        querystring: z.object({ taskId: z.string().min(1).max(50) }),
        response: { 200: envelopeSchema(marketTaskSchema) },
      },
    },
    async (request) => ok(await findMarketTask(ctx, sessionOf(request), request.query.taskId)),
  );
  app.get(
    P.activate,
    {
      config: { access },
      schema: {
        tags,
        summary: '激活任务每日统计（Member-activate-task）',
        querystring: marketDailyQuerySchema,
        response: { 200: envelopeSchema(z.array(marketDailyRowSchema)) },
      },
    },
    async (request) => ok(await dailyRows(ctx, sessionOf(request), 'activate', request.query)),
  );
  app.get(
    P.receive,
    {
      config: { access },
      schema: {
        tags,
        summary: '领取任务每日统计（Member-receive-task）',
        querystring: marketDailyQuerySchema,
        response: { 200: envelopeSchema(z.array(marketDailyRowSchema)) },
      },
    },
    async (request) => ok(await dailyRows(ctx, sessionOf(request), 'receive', request.query)),
  );
  app.get(
    P.chart,
    {
      config: { access },
      schema: {
        tags,
        summary: '营销漏斗每日统计（marketing-task-chart）',
        querystring: marketChartQuerySchema,
        response: { 200: envelopeSchema(z.array(marketFunnelRowSchema)) },
      },
    },
    async (request) => ok(await funnelRows(ctx, sessionOf(request), request.query)),
  );
  app.get(
    P.keep,
    {
      config: { access },
      schema: {
        tags,
        summary: '营销漏斗月度留存（marketing-task-keep，24个月）',
        querystring: marketKeepQuerySchema,
        response: { 200: envelopeSchema(z.array(marketKeepRowSchema)) },
      },
    },
    async (request) => ok(await keepRows(ctx, sessionOf(request), request.query)),
  );
}
