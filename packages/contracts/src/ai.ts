import { z } from 'zod';
import { cubeFieldSchema } from './cube.ts';
import { sqlViewPreviewResultSchema } from './sqlview.ts';

/**
 * AI assistance (issue 25, docs/ai.md): SQL from a question in the SQL-view editor and a
 * formula from a description in the computed-field dialog, through any OpenAI-compatible
 * chat-completions endpoint an administrator configures (系统设置 → AI 助手). The API key is
 * stored encrypted and never returned: a set key reads as SECRET_MASK (system.ts), and saving
 * SECRET_MASK keeps it.
 */
export const AI_PATHS = {
  /** GET/PUT (administrators): endpoint, model, key (masked), temperature, max tokens, on/off. */
  settings: '/api/ai/settings',
  /** GET (every user): whether the AI buttons work, and what to configure when they do not. */
  status: '/api/ai/status',
  /** POST: SQL from a question over one data source. */
  sql: '/api/ai/sql',
  /** POST: a computed-field formula from a description and the dataset's fields. */
  formula: '/api/ai/formula',
  /** POST: the user kept what the AI produced (使用此SQL / 使用此公式); recorded in the call log. */
  accept: '/api/ai/accept',
  /** GET (administrators): the latest calls (user, purpose, tokens, duration, accepted). */
  logs: '/api/ai/logs',
} as const;

/** Defaults of the settings (spec 3 §7 "Text completion": temperature 0.1, at most 2048 tokens). */
export const AI_DEFAULTS = { temperature: 0.1, maxTokens: 2048, timeoutSeconds: 60 } as const;
/** Calls one user may make in a minute. */
export const AI_RATE_PER_MINUTE = 20;
/** Repairs after the first answer: the model sees the error and tries again at most this often. */
export const AI_SQL_MAX_REPAIRS = 2;
/** Formula answers tried before giving up ("invalid twice"). */
export const AI_FORMULA_ATTEMPTS = 2;
export const AI_QUESTION_MAX_LENGTH = 1000;

export const aiMessages = {
  notConfigured: 'AI 助手尚未配置：请管理员在【系统设置 → AI 助手】中填写接口地址、模型和 API Key，并打开“启用”',
  disabled: 'AI 助手已停用：请管理员在【系统设置 → AI 助手】中打开“启用”',
  ready: 'AI 助手已启用',
  rateLimited: 'AI 调用过于频繁：每人每分钟最多 {limit} 次，请稍后再试',
  timeout: 'AI 服务在 {seconds} 秒内没有响应，请稍后重试或请管理员调大超时时间',
  upstream: 'AI 服务调用失败：{detail}',
  unreachable: '无法连接 AI 服务（{url}）：{detail}',
  emptyAnswer: 'AI 的回答中没有 SQL',
  emptyFormula: 'AI 的回答中没有公式',
  sqlFailed: 'AI 生成的 SQL 经 {repairs} 次修正仍无法执行：{detail}',
  formulaFailed: 'AI 两次生成的公式都未通过校验：{detail}',
  noTables: '当前数据源上没有您可以查询的表',
  questionRequired: '请输入要查询的问题',
  descriptionRequired: '请描述要计算的字段',
  fieldsRequired: '数据集中还没有字段，无法生成公式',
  baseUrlInvalid: '请输入以 http:// 或 https:// 开头的接口地址',
  logNotFound: '调用记录不存在',
  apiKeyInvalid: 'API Key 只能包含英文字母、数字和符号，不能有空格或中文',
} as const;

const baseUrl = z
  .string()
  .trim()
  .max(500)
  .refine((v) => v === '' || /^https?:\/\/[^\s/]+(\/\S*)?$/i.test(v), aiMessages.baseUrlInvalid)
  .default('');

export const aiSettingsSchema = z.object({
  enabled: z.boolean().default(false),
  /** The OpenAI-compatible base, e.g. https://api.openai.com/v1 (…/chat/completions is appended). */
  baseUrl,
  model: z.string().trim().max(100).default(''),
  /** Write-only: SECRET_MASK when set. */
  apiKey: z
    .string()
    .trim()
    .max(500)
    .refine((v) => /^[\x21-\x7e]*$/.test(v), aiMessages.apiKeyInvalid)
    .default(''),
  temperature: z.number().min(0).max(2).default(AI_DEFAULTS.temperature),
  maxTokens: z.number().int().min(64).max(32768).default(AI_DEFAULTS.maxTokens),
  timeoutSeconds: z.number().int().min(5).max(600).default(AI_DEFAULTS.timeoutSeconds),
});
export type AiSettings = z.infer<typeof aiSettingsSchema>;
export type AiSettingsInput = z.input<typeof aiSettingsSchema>;

export const aiStatusSchema = z.object({ enabled: z.boolean(), message: z.string() });
export type AiStatus = z.infer<typeof aiStatusSchema>;

const datasourceId = z.number().int().positive();

export const aiSqlRequestSchema = z.object({
  datasourceId,
  question: z.string({ error: aiMessages.questionRequired }).trim().min(1, aiMessages.questionRequired).max(AI_QUESTION_MAX_LENGTH),
});
export type AiSqlRequest = z.infer<typeof aiSqlRequestSchema>;

/** Why an earlier answer was refused (the model was told; its SQL is not shown: it would not run). */
export const aiRepairSchema = z.object({ error: z.string() });

export const aiSqlResultSchema = z.object({
  logId: z.number().int(),
  sql: z.string(),
  explanation: z.string(),
  preview: sqlViewPreviewResultSchema,
  /** The tables the prompt described (those the user may read, most relevant first). */
  tables: z.array(z.string()),
  repairs: z.array(aiRepairSchema),
});
export type AiSqlResult = z.infer<typeof aiSqlResultSchema>;

export const aiFormulaRequestSchema = z.object({
  datasourceId,
  description: z.string({ error: aiMessages.descriptionRequired }).trim().min(1, aiMessages.descriptionRequired).max(AI_QUESTION_MAX_LENGTH),
  fields: z.array(cubeFieldSchema).min(1, aiMessages.fieldsRequired).max(2000),
});
export type AiFormulaRequest = z.input<typeof aiFormulaRequestSchema>;

export const aiFormulaResultSchema = z.object({
  logId: z.number().int(),
  formula: z.string(),
  explanation: z.string(),
  hasAggregation: z.boolean(),
  repairs: z.array(aiRepairSchema),
});
export type AiFormulaResult = z.infer<typeof aiFormulaResultSchema>;

export const aiAcceptSchema = z.object({ logId: z.number().int().positive() });

export const AI_PURPOSES = ['sql', 'formula'] as const;
export const aiLogSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  userName: z.string().nullable(),
  purpose: z.enum(AI_PURPOSES),
  model: z.string(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  attempts: z.number().int(),
  durationMs: z.number().int(),
  /** ok: something valid was offered; failed: nothing valid after the retries; error: the endpoint failed. */
  outcome: z.enum(['running', 'ok', 'failed', 'error']),
  accepted: z.boolean(),
  error: z.string().nullable(),
  createTime: z.string(),
});
export type AiLog = z.infer<typeof aiLogSchema>;
