import {
  AI_FORMULA_ATTEMPTS,
  aiFormulaRequestSchema,
  aiMessages,
  formatMessage,
  formulaCheckMessages,
  type AiFormulaResult,
  type CubeModelInput,
} from '@shutu/contracts';
import { QueryError, checkFormula, formulaParamRefs, functionsFor, getDialect, type Dialect } from '@shutu/query';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../platform/http/errors.ts';
import { paramKeysExisting } from '../dataset/index.ts';
import { assertSourceUsable } from '../datasource/index.ts';
import type { Caller } from '../perm/index.ts';
import { parseAnswer } from './answer.ts';
import { chatComplete, type ChatMessage } from './client.ts';
import { runLogged } from './run.ts';
import { requireEndpoint } from './settings.ts';

/**
 * A computed field's formula from a description (the computed-field dialog's AI 生成公式): the
 * prompt holds the dataset's fields and the formula functions this source's engine has; the
 * answer is checked by the formula checker the dataset editor uses (@shutu/query checkFormula
 * against the fields and the dialect, global parameters must exist). Invalid twice: 422 with
 * the checker's reason.
 */
type Body = z.output<typeof aiFormulaRequestSchema>;

const STAND_IN_TABLE = '_t';

/** The fields on one stand-in table, as the formula check does: tables and joins do not change a formula's validity. */
function standInModel(fields: Body['fields']): CubeModelInput {
  return {
    tables: [{ tableName: STAND_IN_TABLE, tableAliasName: STAND_IN_TABLE }],
    fields: fields.map((f) => (f.columnAttr === 'NORMAL' ? { ...f, tableAliasName: STAND_IN_TABLE } : f)),
  };
}

const TYPE_NAMES = { STRING: '文本', NUMBER: '数字', DATETIME: '日期时间' } as const;

function systemPrompt(fields: Body['fields'], dialect: Dialect): string {
  const functions = functionsFor(dialect).map((f) => `- ${f.name}：${f.description}，例：${f.example}`);
  const fieldLines = fields.map((f) => {
    const kind = f.dimensionType === 'ZHIBIAO' ? '指标' : '维度';
    const formula = f.columnAttr === 'VIRTUAL' && f.columnFormula ? `，计算字段：${f.columnFormula}` : '';
    return `- [${f.columnTitle}] ${TYPE_NAMES[f.viewDataType as keyof typeof TYPE_NAMES] ?? f.viewDataType}，${kind}${formula}`;
  });
  return [
    '你是数图（ShuTu）BI 平台的计算字段助手。根据描述，用数图的公式语言写一个表达式。',
    '公式语言：用 [字段标题] 引用字段；字符串用单引号；运算符 + - * / = != <> < <= > >=；条件用 CASE WHEN … THEN … ELSE … END；不能有分号和注释；只能用下面的函数。',
    '只回答一个 JSON 对象，不要其他文字：{"formula": "<公式>", "explanation": "<用中文简要说明>"}',
    '',
    '可以使用的字段：',
    ...fieldLines,
    '',
    '可以使用的函数：',
    ...functions,
  ].join('\n');
}

async function checkAnswer(ctx: AppContext, formula: string, model: CubeModelInput, dialect: Dialect): Promise<{ aggregate: boolean } | { error: string }> {
  try {
    const refs = formulaParamRefs(formula);
    if (refs.length > 0) {
      const existing = await paramKeysExisting(ctx.db, [...new Set(refs.map((r) => r.key))]);
      const unknown = refs.find((r) => !existing.has(r.key));
      if (unknown) return { error: formatMessage(formulaCheckMessages.paramUnknown, { key: unknown.key }) };
    }
    return { aggregate: checkFormula(formula, model, dialect).aggregate };
  } catch (error) {
    if (error instanceof QueryError) return { error: error.message };
    throw error;
  }
}

export async function generateFormula(ctx: AppContext, caller: Caller, body: Body): Promise<AiFormulaResult> {
  const source = await assertSourceUsable(ctx, caller, body.datasourceId);
  const endpoint = await requireEndpoint(ctx);
  const dialect = getDialect(source.type);
  const model = standInModel(body.fields);
  return runLogged(ctx, caller, 'formula', body.datasourceId, endpoint.model, async (totals, logId) => {
    const messages: ChatMessage[] = [
      { role: 'system', content: systemPrompt(body.fields, dialect) },
      { role: 'user', content: body.description },
    ];
    const repairs: AiFormulaResult['repairs'] = [];
    for (let attempt = 1; attempt <= AI_FORMULA_ATTEMPTS; attempt++) {
      const answer = await chatComplete(endpoint, messages);
      totals.attempts += 1;
      totals.promptTokens += answer.promptTokens;
      totals.completionTokens += answer.completionTokens;
      const parsed = parseAnswer(answer.content, 'formula');
      const checked = parsed.code === '' ? { error: aiMessages.emptyFormula } : await checkAnswer(ctx, parsed.code, model, dialect);
      if ('aggregate' in checked) return { logId, formula: parsed.code, explanation: parsed.explanation, hasAggregation: checked.aggregate, repairs };
      repairs.push({ error: checked.error });
      messages.push(
        { role: 'assistant', content: answer.content },
        { role: 'user', content: `这个公式没有通过校验：${checked.error}\n请修正，仍然只回答同样格式的 JSON。` },
      );
    }
    throw new AppError(422, formatMessage(aiMessages.formulaFailed, { detail: repairs.at(-1)?.error ?? aiMessages.emptyFormula }), { failed: true });
  });
}
