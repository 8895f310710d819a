import { AI_SQL_MAX_REPAIRS, aiMessages, formatMessage, type AiSqlRequest, type AiSqlResult, type SqlViewPreviewResult } from '@shutu/contracts';
import { ConnectorError } from '@shutu/connectors';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { Caller } from '../perm/index.ts';
import { previewUserSql } from '../read/index.ts';
import { parseAnswer } from './answer.ts';
import { chatComplete, type ChatMessage } from './client.ts';
import { buildGrounding, groundingText } from './grounding.ts';
import { runLogged } from './run.ts';
import { requireEndpoint } from './settings.ts';

/**
 * SQL from a question (the SQL-view editor's AI 生成 SQL). Every answer goes the way a user's
 * own SQL goes (read/user-sql.ts): the SQL-view guard (one read-only statement, tables granted
 * to the caller), the engine's parser where the driver has one, then a run of the first rows on
 * the source with the preview timeout — the engine plans and executes it, so a wrong column or
 * function fails here, not in front of the user. A failure goes back to the model with the
 * product's message; after AI_SQL_MAX_REPAIRS repairs the user gets the last reason and no SQL.
 */

const SYSTEM = [
  '你是数图（ShuTu）BI 平台的 SQL 助手。根据用户的问题，为下面的数据库写一条可以直接执行的只读查询。',
  '只回答一个 JSON 对象，不要其他文字：{"sql": "<一条 SELECT 语句>", "explanation": "<用中文简要说明查询逻辑>"}',
].join('\n');

/** The message with the engine's own text when it adds something (ConnectorError messages often quote it already). */
const withDetail = (message: string, detail: unknown) =>
  typeof detail === 'string' && detail.trim() !== '' && !message.includes(detail.trim().slice(0, 60)) ? `${message}（${detail.slice(0, 500)}）` : message;

/** Why the product refused a statement, as the model should read it. */
function refusalOf(error: unknown): string | null {
  if (error instanceof ConnectorError) return withDetail(error.message, error.detail);
  if (error instanceof AppError && error.status < 500) return withDetail(error.message, (error.data as { detail?: unknown } | null)?.detail);
  return null;
}

/** The preview of an answer, or why the product refused it (other errors are thrown). */
async function tryPreview(ctx: AppContext, caller: Caller, datasourceId: number, sql: string): Promise<{ preview: SqlViewPreviewResult } | { error: string }> {
  try {
    return { preview: await previewUserSql(ctx, caller, datasourceId, sql) };
  } catch (caught) {
    const refusal = refusalOf(caught);
    if (refusal === null) throw caught;
    return { error: refusal };
  }
}

export async function generateSql(ctx: AppContext, caller: Caller, body: AiSqlRequest): Promise<AiSqlResult> {
  const endpoint = await requireEndpoint(ctx);
  return runLogged(ctx, caller, 'sql', body.datasourceId, endpoint.model, async (totals, logId) => {
    const grounding = await buildGrounding(ctx, caller, body.datasourceId, body.question);
    const messages: ChatMessage[] = [
      { role: 'system', content: `${SYSTEM}\n\n${groundingText(grounding)}` },
      { role: 'user', content: body.question },
    ];
    const repairs: AiSqlResult['repairs'] = [];
    for (let attempt = 0; attempt <= AI_SQL_MAX_REPAIRS; attempt++) {
      const answer = await chatComplete(endpoint, messages);
      totals.attempts += 1;
      totals.promptTokens += answer.promptTokens;
      totals.completionTokens += answer.completionTokens;
      const parsed = parseAnswer(answer.content, 'sql');
      const checked = parsed.code === '' ? { error: aiMessages.emptyAnswer } : await tryPreview(ctx, caller, body.datasourceId, parsed.code);
      if ('preview' in checked) {
        return { logId, sql: parsed.code, explanation: parsed.explanation, preview: checked.preview, tables: grounding.tables.map((t) => t.name), repairs };
      }
      const error = checked.error;
      repairs.push({ error });
      messages.push(
        { role: 'assistant', content: answer.content },
        { role: 'user', content: `这条 SQL 不能执行：${error}\n请修正，仍然只回答同样格式的 JSON，只写一条 SELECT 语句。` },
      );
    }
    const last = repairs.at(-1)?.error ?? aiMessages.emptyAnswer;
    // The refused statements are not returned: the user never sees SQL the product would not run.
    throw new AppError(422, formatMessage(aiMessages.sqlFailed, { repairs: AI_SQL_MAX_REPAIRS, detail: last }), {
      failed: true,
      errors: repairs.map((r) => r.error),
    });
  });
}
