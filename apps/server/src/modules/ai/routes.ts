import {
  AI_PATHS,
  aiAcceptSchema,
  aiFormulaRequestSchema,
  aiFormulaResultSchema,
  aiLogSchema,
  aiSettingsSchema,
  aiSqlRequestSchema,
  aiSqlResultSchema,
  aiStatusSchema,
  envelopeSchema,
  zhCN,
} from '@shutu/contracts';
import { z } from 'zod';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { generateFormula } from './formula.ts';
import { acceptCall, latestCalls } from './log.ts';
import { aiStatus, getAiSettings, saveAiSettings } from './settings.ts';
import { generateSql } from './sql.ts';

const tags = ['ai'];

/** AI assistance (issue 25, docs/ai.md): settings for administrators, generation for every signed-in user. */
export function registerAiRoutes(app: App, ctx: AppContext): void {
  app.get(
    AI_PATHS.settings,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '读取 AI 助手设置（API Key 以 ****** 表示）', response: { 200: envelopeSchema(aiSettingsSchema) } },
    },
    async () => ok(await getAiSettings(ctx)),
  );
  app.put(
    AI_PATHS.settings,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: '保存 AI 助手设置（API Key 为 ****** 时保留原值）',
        body: aiSettingsSchema,
        response: { 200: envelopeSchema(aiSettingsSchema) },
      },
    },
    async (request) => ok(await saveAiSettings(ctx, request.body), zhCN.saved),
  );
  app.get(
    AI_PATHS.status,
    { config: { access: 'user' }, schema: { tags, summary: 'AI 助手是否可用，不可用时说明原因', response: { 200: envelopeSchema(aiStatusSchema) } } },
    async () => ok(await aiStatus(ctx)),
  );
  app.post(
    AI_PATHS.sql,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'AI 生成 SQL：根据问题生成一条经过校验、可执行的查询及其预览',
        body: aiSqlRequestSchema,
        response: { 200: envelopeSchema(aiSqlResultSchema) },
      },
    },
    async (request) => ok(await generateSql(ctx, sessionOf(request), request.body)),
  );
  app.post(
    AI_PATHS.formula,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'AI 生成公式：根据描述和数据集字段生成一个通过校验的计算字段公式',
        body: aiFormulaRequestSchema,
        response: { 200: envelopeSchema(aiFormulaResultSchema) },
      },
    },
    async (request) => ok(await generateFormula(ctx, sessionOf(request), request.body)),
  );
  app.post(
    AI_PATHS.accept,
    { config: { access: 'user' }, schema: { tags, summary: '记录用户采用了 AI 的结果', body: aiAcceptSchema, response: { 200: envelopeSchema(z.null()) } } },
    async (request) => {
      await acceptCall(ctx, sessionOf(request).userId, request.body.logId);
      return ok(null);
    },
  );
  app.get(
    AI_PATHS.logs,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '最近的 AI 调用记录（不含提示词和密钥）', response: { 200: envelopeSchema(z.array(aiLogSchema)) } },
    },
    async () => ok(await latestCalls(ctx)),
  );
}
