import { z } from 'zod';
import {
  WORKFLOW_PATHS,
  businessIdQuerySchema,
  completeTaskSchema,
  envelopeSchema,
  pageQuerySchema,
  pageSchema,
  historyFlowSchema,
  leaveDetailSchema,
  leaveStartResultSchema,
  leaveStartSchema,
  processDefinitionSchema,
  processInstanceQuerySchema,
  transferTaskSchema,
  withdrawSchema,
  workItemSchema,
  workflowMessages,
  workflowUserSchema,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { diagramImage } from './diagram.ts';
import { countTodo, historyFlowList, leaveDetail, listApprovers, startableProcesses, workLists } from './queries.ts';
import { completeTask, startLeave, transferTask, withdraw } from './service.ts';

const tags = ['workflow'];
const user = { access: 'user' as const };
const done = { 200: envelopeSchema(z.null()) };

/** Approval workflow (issue 23; docs/workflow.md): the spec's GET paths exactly, the rest in BladeX's naming. */
export function registerWorkflowRoutes(app: App, ctx: AppContext): void {
  app.get(
    WORKFLOW_PATHS.userList,
    { config: user, schema: { tags, summary: '审批人员选项（账号、id）', response: { 200: envelopeSchema(z.array(workflowUserSchema)) } } },
    async () => ok(await listApprovers(ctx)),
  );
  app.get(
    WORKFLOW_PATHS.startList,
    { config: user, schema: { tags, summary: '可发起的流程（每个流程的最新版本）', response: { 200: envelopeSchema(z.array(processDefinitionSchema)) } } },
    async () => ok(await startableProcesses(ctx)),
  );
  for (const [path, kind, summary] of [
    [WORKFLOW_PATHS.todoList, 'todo', '我的待办'],
    [WORKFLOW_PATHS.doneList, 'done', '我的已办'],
    [WORKFLOW_PATHS.sendList, 'send', '我的申请'],
  ] as const) {
    app.get(
      path,
      { config: user, schema: { tags, summary, querystring: pageQuerySchema, response: { 200: envelopeSchema(pageSchema(workItemSchema)) } } },
      async (request) => ok(await workLists(ctx, sessionOf(request), kind, request.query)),
    );
  }
  app.get(
    WORKFLOW_PATHS.todoCount,
    { config: user, schema: { tags, summary: '待办数量（菜单角标）', response: { 200: envelopeSchema(z.number()) } } },
    async (request) => ok(await countTodo(ctx, sessionOf(request))),
  );
  app.post(
    WORKFLOW_PATHS.leaveStart,
    { config: user, schema: { tags, summary: '发起请假申请', body: leaveStartSchema, response: { 200: envelopeSchema(leaveStartResultSchema) } } },
    async (request) => {
      const result = await startLeave(ctx, sessionOf(request), request.body, (m) => request.log.warn(m));
      return ok(result, result.msg);
    },
  );
  app.get(
    WORKFLOW_PATHS.leaveDetail,
    { config: user, schema: { tags, summary: '请假详情', querystring: businessIdQuerySchema, response: { 200: envelopeSchema(leaveDetailSchema) } } },
    async (request) => ok(await leaveDetail(ctx, sessionOf(request), request.query.businessId)),
  );
  app.get(
    WORKFLOW_PATHS.historyFlowList,
    {
      config: user,
      schema: {
        tags,
        summary: '流程历史（审批时间线）',
        querystring: processInstanceQuerySchema,
        response: { 200: envelopeSchema(z.array(historyFlowSchema)) },
      },
    },
    async (request) => ok(await historyFlowList(ctx, sessionOf(request), request.query.processInstanceId)),
  );
  app.post(
    WORKFLOW_PATHS.completeTask,
    {
      config: user,
      schema: { tags, summary: '同意（flag ok）或驳回；只有当前审批人可以处理，已处理的任务不能再次提交', body: completeTaskSchema, response: done },
    },
    async (request) => {
      await completeTask(ctx, sessionOf(request), request.body);
      return ok(null, workflowMessages.done);
    },
  );
  app.post(
    WORKFLOW_PATHS.transferTask,
    { config: user, schema: { tags, summary: '转交任务给另一位用户', body: transferTaskSchema, response: done } },
    async (request) => {
      await transferTask(ctx, sessionOf(request), request.body, (m) => request.log.warn(m));
      return ok(null, workflowMessages.transferred);
    },
  );
  app.post(
    WORKFLOW_PATHS.withdraw,
    { config: user, schema: { tags, summary: '申请人撤回尚未审批的申请', body: withdrawSchema, response: done } },
    async (request) => {
      await withdraw(ctx, sessionOf(request), request.body.processInstanceId, request.body.comment);
      return ok(null, workflowMessages.withdrawn);
    },
  );
  app.get(
    WORKFLOW_PATHS.diagramView,
    {
      config: user,
      schema: {
        tags,
        summary: '流程图（PNG）：已完成的步骤与当前步骤标出',
        querystring: processInstanceQuerySchema,
        // The body is the image's bytes (sent as a Buffer, not serialised); the schema documents it.
        response: { 200: z.any().meta({ type: 'string', format: 'binary', description: 'image/png' }) },
      },
    },
    async (request, reply) => {
      const { png, etag } = await diagramImage(ctx, sessionOf(request), request.query.processInstanceId);
      return reply.type('image/png').header('cache-control', 'private, no-cache').header('etag', etag).send(png);
    },
  );
}
