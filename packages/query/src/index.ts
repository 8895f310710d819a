/**
 * @shutu/query — cube / chart / audience requests compiled to SQL for one dialect, with
 * permissions applied. Pure: no I/O. See README.md for the design.
 *
 *   model      buildModel: tables, joins (tree order), fields by id and title
 *   formula/   lexer + recursive-descent parser of one expression, function catalogue,
 *              lowering into the query tree (types, aggregation, references)
 *   fields     computed fields resolved through their formulas, measures
 *   filters    filter trees (where / having), absolute and relative time (time.ts)
 *   joins      FROM / JOIN with the join-key type check
 *   compiler   request → query tree → { sql, params, fields, count }
 *   setops     audience intersection / union / difference of one key column
 *   dialects/  one small object per engine over a shared base; render.ts is the one renderer
 *   sql/       user SQL (SQL views): the lexer, the read-only guard, the tables a statement
 *              reads, and what an engine's own parser reports (inspection)
 */
import type { CubeModelInput } from '@shutu/contracts';
import { getDialect } from './dialects/index.ts';
import type { Dialect, QueryDialect } from './dialects/types.ts';
import { FieldResolver } from './fields.ts';
import { checkJoins as checkJoinTree } from './joins.ts';
import { buildModel, type CubeModel } from './model.ts';

export * from './dialects/index.ts';
export { QueryError, type QueryErrorKind } from './errors.ts';
export { buildModel, type CubeModel, type ModelField, type ModelJoin, type ModelTable } from './model.ts';
export { UNRESTRICTED, type QueryPermissions } from './permissions.ts';
export { compileCubeQuery, planCubeQuery, countQuery, type CompileOptions, type CompiledQuery, type CubePlan } from './compiler.ts';
export { groupPlans, isGroupable, rowsKey, type GroupedStatement, type PlanGroups } from './grouped.ts';
export { compileSetOperation, planSetOperation, SET_KEY_ALIAS, type SetOperand, type CompiledSetOperation } from './setops.ts';
export { compileMembers, planMembers, MEMBER_KEY_COLUMN, MEMBER_TOTAL_COLUMN, type MemberOperand, type CompiledMembers } from './set-ops.ts';
export { renderQuery, renderExpr, type RenderedSql, type ParamValue } from './render.ts';
export { formulaHasAggregation, checkFormula } from './fields.ts';
export { parseFormula, type FormulaNode } from './formula/parser.ts';
export { formulaParamRefs, paramValue, type FormulaParamRef, type FormulaParamValue, type FormulaParams } from './formula/compile.ts';
export { tokenize, type Token } from './formula/lexer.ts';
export { FUNCTION_CATALOGUE, FUNCTION_CATEGORIES, functionSpec, type FunctionSpec, type FunctionCategory } from './formula/functions.ts';
export { absolutePeriod, bucketPeriod, granularityForSpan, relativePeriod, AUTO_GRANULARITY_SPANS, type Period } from './time.ts';
export type * from './ast.ts';
export { ALLOWED_TABLE_FUNCTIONS, checkInspection, checkSelectSql, guardSelectSql, SqlGuardError } from './sql/guard.ts';
export type { SqlInspection, SqlNameRef } from './sql/inspection.ts';
export { LexError as SqlLexError, tokenize as tokenizeSql, type GuardDialect, type Token as SqlToken } from './sql/lexer.ts';
export { referencedTables, type SqlTableRef } from './sql/tables.ts';

/**
 * The dataset editor's join check (at join confirm and at save): throws a QueryError with
 * the spec's warning when a key pair's data types differ, or a key is missing or unknown.
 */
export function checkJoins(model: CubeModel | CubeModelInput, dialect: Dialect | QueryDialect | null = null): void {
  checkJoinTree(new FieldResolver(buildModel(model), dialect === null ? null : getDialect(dialect)));
}
