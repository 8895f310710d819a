import {
  cubeQueryRequestSchema,
  filterGroupSchema,
  type CubeModelInput,
  type CubeQueryRequest,
  type FieldId,
  type FilterGroup,
  type ResultField,
  type ViewDataType,
} from '@shutu/contracts';
import { alias, allOf, anyOf, select, type Expr, type SelectQuery, type SqlType } from './ast.ts';
import { getDialect } from './dialects/index.ts';
import type { Dialect, QueryDialect } from './dialects/types.ts';
import { queryError } from './errors.ts';
import { FieldResolver, lowerField, measureExpr } from './fields.ts';
import type { FormulaParams } from './formula/compile.ts';
import { compileFilterTree, type FilterContext } from './filters.ts';
import { cubeFrom } from './joins.ts';
import { buildModel, fieldKey, fromZod, type CubeModel, type ModelField } from './model.ts';
import { renderQuery, type RenderedSql } from './render.ts';
import { rollUpDays } from './day-rollup.ts';
import { sketchDistinct } from './sketch.ts';

export interface CompileOptions {
  dialect: Dialect | QueryDialect;
  /** The instant relative time conditions count from. */
  now: Date;
  /** Offset of the users' wall clock from UTC, in minutes (default 480, China). */
  timeZoneOffsetMinutes?: number;
  /** Permission row filters and global filters: each is ANDed into the WHERE clause. */
  rowFilters?: readonly FilterGroup[];
  /**
   * Sets of row filters, one set per subject whose restriction applies (the viewer, and the
   * owner of the board or link that shows the data). Within a set any one filter suffices:
   * `(f1) OR (f2) …` (a user in several permission groups sees the union of their groups'
   * rows); every set is ANDed with the rest (nobody sees more than each subject may). An empty
   * filter in a set lets every row through for that set; an empty set adds nothing.
   */
  rowFilterSets?: readonly (readonly FilterGroup[])[];
  /** Columns the user may not read: a request touching one, even through a formula, is refused. */
  excludedColumnIds?: readonly FieldId[];
  /**
   * Global parameter values by paramKey, read by formulas' `${key}` / `'${key}'` references
   * (bound values; a key without a value reads NULL). See formula/compile.ts.
   */
  params?: FormulaParams;
  /**
   * Saved SQL views of the source by table name: a model table with one of these names is
   * read as the derived table `(statement) AS alias`. The server fills it from its stored,
   * guarded views only (modules/sqlview); names are compared ignoring case, as view names are unique.
   */
  derivedTables?: ReadonlyMap<string, string>;
}

/** A compiled request before rendering: set operations combine several of these. */
export interface CubePlan {
  dialect: Dialect;
  query: SelectQuery;
  count: SelectQuery | null;
  fields: ResultField[];
}

export interface CompiledQuery extends RenderedSql {
  /** The field dictionary: one entry per result column, in column order. */
  fields: ResultField[];
  /** The total-count query, when the request asked for it. */
  count: RenderedSql | null;
}

const dataType = (t: SqlType, fallback: ViewDataType): ViewDataType => (t === 'STRING' || t === 'NUMBER' || t === 'DATETIME' ? t : fallback);

export function planCubeQuery(modelInput: CubeModel | CubeModelInput, requestInput: CubeQueryRequest, options: CompileOptions): CubePlan {
  const dialect = getDialect(options.dialect);
  const model = buildModel(modelInput);
  const parsed = cubeQueryRequestSchema.safeParse(requestInput);
  if (!parsed.success) throw fromZod('request', parsed.error);
  const request = parsed.data;
  const parseFilter = (f: FilterGroup) => {
    const r = filterGroupSchema.safeParse(f);
    if (!r.success) throw fromZod('request', r.error);
    return r.data;
  };
  const rowFilters = (options.rowFilters ?? []).map(parseFilter);
  const rowFilterSets = (options.rowFilterSets ?? []).map((set) => set.map(parseFilter));
  if (Number.isNaN(options.now.getTime())) throw new Error('compile: options.now is not a valid date');

  const excluded = new Set((options.excludedColumnIds ?? []).map(fieldKey));
  const read = (field: ModelField, deps: ReadonlySet<string>) => {
    for (const key of deps) if (excluded.has(key)) throw queryError('permission', 'fieldForbidden', { name: field.title });
  };

  const resolver = new FieldResolver(model, dialect, options.params ?? {});
  const { from, joins } = cubeFrom(resolver, options.derivedTables);
  const columns: SelectQuery['columns'] = [];
  const fields: ResultField[] = [];

  if (request.detail && (request.measures.length > 0 || request.having)) throw queryError('request', 'detailWithMeasures');
  if (request.dimensions.length === 0 && request.measures.length === 0) throw queryError('request', 'requestEmpty');

  request.dimensions.forEach((d, i) => {
    const { field, lowered } = lowerField(resolver, d.fieldId);
    read(field, lowered.deps);
    if (lowered.aggregate) throw queryError('request', 'aggregateInDimension', { name: field.title });
    const type = dataType(field.attr === 'VIRTUAL' ? field.viewDataType : lowered.type, field.viewDataType);
    let expr: Expr = lowered.expr;
    if (d.granularity) {
      if (type !== 'DATETIME') throw queryError('request', 'granularityNeedsDate', { name: field.title });
      expr = { k: 'dateTrunc', unit: d.granularity, arg: expr };
    }
    columns.push({ expr, alias: `d${i}` });
    fields.push({
      alias: `d${i}`,
      fieldId: field.id,
      title: field.title,
      viewDataType: type,
      kind: 'dimension',
      aggregation: null,
      granularity: d.granularity ?? null,
    });
  });

  request.measures.forEach((m, i) => {
    const { field, lowered } = lowerField(resolver, m.fieldId);
    read(field, lowered.deps);
    const measure = measureExpr(field, lowered, m.aggregation ?? null);
    columns.push({ expr: measure.expr, alias: `m${i}` });
    fields.push({
      alias: `m${i}`,
      fieldId: field.id,
      title: field.title,
      viewDataType: dataType(measure.type, 'NUMBER'),
      kind: 'measure',
      aggregation: measure.aggregation,
      granularity: null,
    });
  });

  const filterContext = (mode: FilterContext['mode'], onRead: FilterContext['onRead']): FilterContext => ({
    resolver,
    mode,
    now: options.now,
    timeZoneOffsetMinutes: options.timeZoneOffsetMinutes ?? 480,
    onRead,
  });
  // Row filters are the administrator's: they may read columns the user may not.
  const alternativeSets = rowFilterSets.map((set) => set.map((f) => compileFilterTree(f, filterContext('where', null))));
  const where = allOf([
    compileFilterTree(request.where, filterContext('where', read)),
    ...rowFilters.map((f) => compileFilterTree(f, filterContext('where', null))),
    // One empty alternative admits every row of its set; the others are still validated above.
    ...alternativeSets.map((alternatives) => (alternatives.includes(null) ? null : anyOf(alternatives))),
  ]);
  const having = compileFilterTree(request.having, filterContext('having', read));

  const orderBy = request.sort.map((s) => {
    const key = fieldKey(s.fieldId);
    const pick = (f: ResultField) => fieldKey(f.fieldId) === key;
    const target =
      fields.find((f) => f.kind === 'measure' && pick(f) && (!s.aggregation || f.aggregation === s.aggregation)) ??
      fields.find((f) => f.kind === 'dimension' && pick(f));
    if (!target) throw queryError('request', 'sortUnknown', { name: model.byKey.get(key)?.title ?? key.slice(0, 64) });
    const source = columns[fields.indexOf(target)]!.expr;
    return { expr: alias(target.alias), desc: s.direction === 'DESC', nullsKey: target.kind === 'measure' ? source : undefined };
  });

  const grouped = !request.detail && request.dimensions.length > 0;
  const query = select({
    columns,
    from,
    joins,
    where,
    groupBy: grouped ? request.dimensions.map((_, i) => i + 1) : [],
    having,
    orderBy,
    limit: request.limit ?? null,
    offset: request.offset ? request.offset : null,
  });
  const count = request.withTotal ? countQuery(query) : null;
  return { dialect, query, count, fields };
}

/** `SELECT COUNT(*) FROM (the query without order and paging)`. */
export function countQuery(query: SelectQuery): SelectQuery {
  return select({
    columns: [{ expr: { k: 'agg', fn: 'COUNT', arg: null }, alias: 'total' }],
    from: { k: 'subquery', query: { ...query, orderBy: [], limit: null, offset: null }, alias: 'q' },
  });
}

/** Compiles a cube request to SQL and parameters for one dialect, with permissions applied. */
export function compileCubeQuery(model: CubeModel | CubeModelInput, request: CubeQueryRequest, options: CompileOptions): CompiledQuery {
  const plan = planCubeQuery(model, request, options);
  const main = renderQuery(engineForm(plan), plan.dialect);
  return { ...main, fields: plan.fields, count: plan.count ? renderQuery(plan.count, plan.dialect) : null };
}

/**
 * The statement a plan read alone runs: 近似去重计数 from a sketch where the engine needs one
 * (sketch.ts), time axes grouped by day first where that is cheaper (day-rollup.ts), else the
 * plan's own. Grouped board statements (grouped.ts) and set operations take the plan as it is.
 */
export function engineForm(plan: CubePlan): SelectQuery {
  const dims = plan.fields.filter((f) => f.kind === 'dimension').length;
  return sketchDistinct(plan.query, dims, plan.dialect) ?? rollUpDays(plan.query, dims, plan.dialect) ?? plan.query;
}
