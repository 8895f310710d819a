import {
  cubeMessages,
  formatMessage,
  formulaCheckMessages,
  type CubeModelInput,
  type DataSourceType,
  type FormulaCheckParsed,
  type FunctionList,
} from '@shutu/contracts';
import {
  FUNCTION_CATEGORIES,
  QueryError,
  checkFormula,
  formulaHasAggregation,
  formulaParamRefs,
  functionSpec,
  functionsFor,
  getDialect,
  parseFormula,
  supportsFunction,
  type Dialect,
  type FormulaNode,
} from '@shutu/query';
import type { AppContext } from '../../context.ts';
import { queryFailure } from '../../platform/http/errors.ts';
import { paramKeysExisting } from '../dataset/index.ts';
import { getDataSource } from '../datasource/index.ts';
import { refusing } from '../read/index.ts';

/**
 * The dataset editor's formula calls (spec 2 §7 "Dataset editor"): the formula check and the
 * function list. Its preview of a model reads through the read module (read/preview.ts).
 */

/**
 * Check whether a formula has aggregation. The functions allowed are those of the data
 * source's engine (its dialect by type: no connection is needed). With the dataset's fields,
 * the formula is compiled against them (references, types, aggregation rules); physical
 * fields are put on one stand-in table, since tables and joins do not change the answer.
 * Global parameters count as constants; each `${key}` must name an existing global
 * parameter (else 400 公式使用的全局参数【key】不存在, with the reference's position).
 */
export async function formulaAggregates(ctx: AppContext, body: FormulaCheckParsed): Promise<boolean> {
  const source = await getDataSource(ctx, body.datasourceId);
  const dialect = getDialect(source.type);
  const refs = refusing(() => formulaParamRefs(body.columnFormula));
  if (refs.length > 0) {
    const existing = await paramKeysExisting(ctx.db, [...new Set(refs.map((r) => r.key))]);
    const unknown = refs.find((r) => !existing.has(r.key));
    if (unknown) throw queryFailure(new QueryError('formula', formatMessage(formulaCheckMessages.paramUnknown, { key: unknown.key }), unknown.pos));
  }
  return refusing(() => {
    if (body.fields && body.fields.length > 0) return checkFormula(body.columnFormula, standInModel(body.fields), dialect).aggregate;
    checkFunctions(parseFormula(body.columnFormula), dialect);
    return formulaHasAggregation(body.columnFormula);
  });
}

const STAND_IN_TABLE = '_t';

function standInModel(fields: NonNullable<FormulaCheckParsed['fields']>): CubeModelInput {
  return {
    tables: [{ tableName: STAND_IN_TABLE, tableAliasName: STAND_IN_TABLE }],
    fields: fields.map((f) => (f.columnAttr === 'NORMAL' ? { ...f, tableAliasName: STAND_IN_TABLE } : f)),
  };
}

type CallNode = Extract<FormulaNode, { t: 'call' }>;

/** Refuses, with the position, a call of an unknown function or of one this engine lacks. */
function checkFunctions(node: FormulaNode, dialect: Dialect): void {
  const refuse = (pos: number, detail: string) => new QueryError('formula', formatMessage(cubeMessages.formulaSyntax, { position: pos + 1, detail }), pos);
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    if ((value as { t?: unknown }).t === 'call') {
      const call = value as CallNode;
      const spec = functionSpec(call.name);
      if (!spec) throw refuse(call.pos, `未知的函数 ${call.name}`);
      if (!supportsFunction(dialect, spec.name)) throw refuse(call.pos, `当前数据源不支持函数 ${spec.name}`);
    }
    Object.values(value).forEach(visit);
  };
  visit(node);
}

/** Functions by data source type: the formula functions of that engine and the picker's categories. */
export function functionList(dsType: DataSourceType): FunctionList {
  return {
    dsType,
    categories: FUNCTION_CATEGORIES.map((c) => ({ value: c.value, label: c.label })),
    functions: functionsFor(dsType).map((f) => ({
      name: f.name,
      category: f.category,
      description: f.description,
      example: f.example,
      aggregate: f.aggregate === true,
      minArgs: f.minArgs,
      maxArgs: f.maxArgs,
    })),
  };
}
