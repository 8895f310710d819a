import {
  CUBE_PREVIEW_DEFAULT_ROWS,
  CUBE_PREVIEW_MAX_ROWS,
  CUBE_PREVIEW_TIMEOUT_MS,
  cubeMessages,
  formatMessage,
  formulaCheckMessages,
  type CubeModelInput,
  type CubePreviewParsed,
  type CubePreviewResult,
  type DataSourceType,
  type FieldId,
  type FilterGroup,
  type FormulaCheckParsed,
  type FunctionList,
} from '@shutu/contracts';
import type { Driver, ParamValue, Row } from '@shutu/connectors';
import {
  FUNCTION_CATEGORIES,
  QueryError,
  checkFormula,
  compileCubeQuery,
  formulaHasAggregation,
  formulaParamRefs,
  functionSpec,
  functionsFor,
  getDialect,
  parseFormula,
  supportsFunction,
  type CompiledQuery,
  type Dialect,
  type FormulaNode,
} from '@shutu/query';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../platform/http/errors.ts';
import { paramKeysExisting } from '../dataset/filter-repo.ts';
import { getDataSource, getDataSourceDriver } from '../datasource/registry.ts';

/**
 * The dataset editor's query calls (spec 2 §7 "Dataset editor"). SQL comes only from
 * @shutu/query (every value bound, or escaped where the engine has no parameters); it runs
 * only through the data source's driver: one read-only statement, with a statement timeout.
 */

/**
 * What the caller may see of a data source's rows: row filters ANDed into every request (a
 * request's own OR cannot escape them: global filters), row filters of which any one
 * suffices (the permission filters of the caller's groups on a dataset: their union), and
 * the ids of columns it may not read (a request touching one, even through a computed
 * field, is refused: 403).
 *
 * These come from the server side only, never from a request body: the dataset module
 * (modules/dataset/access.ts) works them out for a caller and a saved dataset.
 * Administrators are unrestricted.
 */
export interface QueryPermissions {
  readonly rowFilters: readonly FilterGroup[];
  /** One set per subject read for (the viewer, an owner): any filter of a set suffices, every set must hold. */
  readonly rowFilterSets?: readonly (readonly FilterGroup[])[];
  readonly excludedColumnIds: readonly FieldId[];
}

export const UNRESTRICTED: QueryPermissions = Object.freeze({ rowFilters: [], rowFilterSets: [], excludedColumnIds: [] });

/**
 * A refusal of the query engine as the response: its status (400; 403 for an excluded
 * column), its Chinese message, and for formulas where it points: `position` (0-based offset
 * in the formula) and `field` (the computed field it points into, when not the edited one).
 */
export function queryFailure(error: QueryError): AppError {
  return new AppError(error.status, error.message, { kind: error.kind, position: error.position, field: error.field });
}

function refusing<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof QueryError) throw queryFailure(error);
    throw error;
  }
}

/** Rows a preview returns: the request's limit, default 100, at most 10 000. */
export function previewLimit(limit: number | null | undefined): number {
  return Math.min(limit ?? CUBE_PREVIEW_DEFAULT_ROWS, CUBE_PREVIEW_MAX_ROWS);
}

/**
 * Preview cube: compiles the request for the driver's dialect (with this server's
 * capabilities; formulas' `${key}` references read `body.params`, bound), runs it — and the
 * count query when `withTotal` — side by side, and returns the first rows with the field
 * dictionary. Engine failures are the driver's ConnectorErrors (status, Chinese message,
 * engine text in data.detail), answered by the error handler.
 */
export async function previewCube(ctx: AppContext, body: CubePreviewParsed, permissions: QueryPermissions, now: Date = new Date()): Promise<CubePreviewResult> {
  const driver = await getDataSourceDriver(ctx, body.datasourceId);
  const compiled = compilePreview(await driver.dialect(), body, permissions, now);
  return runPreview(driver, compiled);
}

/** A preview compiled for one dialect: the engine's query and the row limit it is read with. */
export type CompiledPreview = CompiledQuery & { limit: number };

/** The preview's query for `dialect`, with the caller's permissions and the request's parameters. */
export function compilePreview(
  dialect: Dialect,
  body: Pick<CubePreviewParsed, 'model' | 'request' | 'params'>,
  permissions: QueryPermissions,
  now: Date,
): CompiledPreview {
  const limit = previewLimit(body.request.limit);
  return { ...compileWithPermissions(dialect, body.model, { ...body.request, limit }, permissions, body.params, now), limit };
}

/**
 * Compiles a request with the reader's permission filters and the formulas' parameters, as
 * every read of data does (previews, charts, exports); a refusal of the compiler becomes its
 * Chinese message (400).
 */
export function compileWithPermissions(
  dialect: Dialect,
  model: CubePreviewParsed['model'],
  request: CubePreviewParsed['request'],
  permissions: QueryPermissions,
  params: CubePreviewParsed['params'],
  now: Date,
): CompiledQuery {
  return refusing(() =>
    compileCubeQuery(model, request, {
      dialect,
      now,
      rowFilters: permissions.rowFilters,
      rowFilterSets: permissions.rowFilterSets,
      excludedColumnIds: permissions.excludedColumnIds,
      params,
    }),
  );
}

/** Runs a compiled preview: its rows and, beside them, its count query. */
export async function runPreview(driver: Driver, compiled: CompiledPreview): Promise<CubePreviewResult> {
  const started = performance.now();
  // One failing query cancels the other instead of leaving it to run until its timeout.
  const abort = new AbortController();
  try {
    const [dataList, total] = await Promise.all([
      readRows(driver, compiled.sql, compiled.params, compiled.limit, abort.signal),
      compiled.count ? readTotal(driver, compiled.count.sql, compiled.count.params, abort.signal) : null,
    ]);
    return { dataList, fieldDict: compiled.fields, total, elapsedMs: Math.round(performance.now() - started) };
  } catch (error) {
    abort.abort();
    throw error;
  }
}

async function readRows(driver: Driver, sql: string, params: readonly ParamValue[], max: number, signal: AbortSignal): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const row of driver.query(sql, params, { timeoutMs: CUBE_PREVIEW_TIMEOUT_MS, signal })) {
    if (rows.length >= max) break; // leaving the loop cancels the rest of the query
    rows.push(row);
  }
  return rows;
}

async function readTotal(driver: Driver, sql: string, params: readonly ParamValue[], signal: AbortSignal): Promise<number> {
  for await (const row of driver.query(sql, params, { timeoutMs: CUBE_PREVIEW_TIMEOUT_MS, signal })) {
    // Beyond 2^53 the connector gives decimal text; a preview's total is fine as a number.
    return Number(Object.values(row)[0] ?? 0);
  }
  return 0;
}

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
