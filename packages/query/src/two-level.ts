import { select, type Expr, type SelectQuery } from './ast.ts';

/**
 * An aggregate statement read in two levels: the inner one groups finer (a day instead of a
 * month, or a sketch's bucket besides the dimensions) and keeps partial aggregates; the outer one
 * groups by the chart's own dimensions and combines the partials again — SUM of sums, SUM of
 * counts, MIN of minimums, MAX of maximums, AVG as the sum over the count. WHERE (the viewer's
 * row filters included) stays inside; HAVING, ORDER BY, LIMIT and OFFSET go outside, on the
 * combined values, so the rows are those of the statement as written. Used by day-rollup.ts and
 * sketch.ts.
 */

export type Agg = Extract<Expr, { k: 'agg' }>;

/** Every aggregate node of an expression (not inside a subquery). */
function aggsOf(expr: Expr | null): Agg[] {
  if (!expr) return [];
  return expr.k === 'agg' ? [expr] : childrenOf(expr).flatMap(aggsOf);
}

/** Whether an expression reads a column outside its aggregates. */
function readsBareColumn(expr: Expr): boolean {
  if (expr.k === 'column') return true;
  return expr.k !== 'agg' && childrenOf(expr).some(readsBareColumn);
}

const isExpr = (value: unknown): value is Expr => !!value && typeof value === 'object' && 'k' in value;

/** The child expressions of a node (a subquery of IN is its own scope: not among them). */
function childrenOf(expr: Expr): Expr[] {
  const out: Expr[] = [];
  const visit = (value: unknown) => (Array.isArray(value) ? value.forEach(visit) : isExpr(value) && out.push(value));
  for (const [key, value] of Object.entries(expr)) if (key !== 'query') visit(value);
  return out;
}

/** A copy of the node with each child expression replaced (a subquery of IN is left as it is). */
function mapChildren(expr: Expr, map: (child: Expr) => Expr): Expr {
  const mapValue = (value: unknown): unknown => (Array.isArray(value) ? value.map(mapValue) : isExpr(value) ? map(value) : value);
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(expr)) copy[key] = key === 'query' ? value : mapValue(value);
  return copy as Expr;
}

/** A copy of the expression with each column of `table` renamed (grouped-days.ts points a statement's outer level at a shared inner one). */
export function renameColumnsOf(expr: Expr, table: string, rename: (column: string) => string): Expr {
  if (expr.k === 'column') return expr.table === table ? { ...expr, column: rename(expr.column) } : expr;
  return mapChildren(expr, (child) => renameColumnsOf(child, table, rename));
}

function replaceAggs(expr: Expr, replace: (agg: Agg) => Expr): Expr {
  if (expr.k === 'agg') return replace(expr);
  return mapChildren(expr, (child) => replaceAggs(child, replace));
}

/** The aggregates of the statement's measures and HAVING, when its shape allows two levels; null otherwise. */
export function splittableAggs(query: SelectQuery, dimensionCount: number): Agg[] | null {
  if (query.distinct) return null;
  const dims = query.columns.slice(0, dimensionCount);
  const measures = query.columns.slice(dimensionCount);
  const groupedByDims = query.groupBy.length === dimensionCount && query.groupBy.every((pos, i) => pos === i + 1);
  if (!groupedByDims || query.orderBy.some((o) => o.expr.k !== 'alias')) return null;
  if (dims.some((c) => aggsOf(c.expr).length > 0)) return null;
  if (measures.some((c) => readsBareColumn(c.expr)) || (query.having && readsBareColumn(query.having))) return null;
  return [...measures.flatMap((c) => aggsOf(c.expr)), ...aggsOf(query.having)];
}

export interface TwoLevelShape {
  /** The inner statement's alias ("sketch", "days"). */
  alias: string;
  /** Dimension `i` (its expression as written): what the inner statement groups by, and the outer expression over that inner column. */
  dimension(expr: Expr, i: number): { inner: Expr; outer: (inner: Expr) => Expr };
  /** More inner grouping keys after the dimensions (the sketch's bucket), and inner aggregates (its register). */
  innerKeys?: { expr: Expr; alias: string }[];
  innerAggregates?: { expr: Expr; alias: string }[];
  /** The outer expression of an approximate distinct count (the sketch's estimate), given the inner columns. */
  approximateDistinct?(inner: (alias: string) => Expr): Expr;
}

/** The statement in two levels (call splittableAggs first: it must not be null, and no COUNT_DISTINCT may be in it). */
export function twoLevel(query: SelectQuery, dimensionCount: number, shape: TwoLevelShape): SelectQuery {
  const innerRef = (name: string): Expr => ({ k: 'column', table: shape.alias, column: name });
  const dims = query.columns.slice(0, dimensionCount).map((c, i) => ({ alias: c.alias, ...shape.dimension(c.expr, i) }));
  const inner: SelectQuery['columns'] = [...dims.map((d) => ({ expr: d.inner, alias: d.alias })), ...(shape.innerKeys ?? []), ...(shape.innerAggregates ?? [])];
  const partials = new Map<string, string>();
  /** An inner partial aggregate, shared by equal aggregates; its inner column. */
  const partial = (agg: Agg): Expr => {
    const key = JSON.stringify(agg);
    let name = partials.get(key);
    if (!name) {
      name = `p${partials.size}`;
      partials.set(key, name);
      inner.push({ expr: agg, alias: name });
    }
    return innerRef(name);
  };
  const combine = (agg: Agg): Expr => {
    switch (agg.fn) {
      case 'SUM':
        return { k: 'agg', fn: 'SUM', arg: partial(agg) };
      case 'COUNT':
        return {
          k: 'call',
          fn: 'COALESCE',
          args: [
            { k: 'agg', fn: 'SUM', arg: partial(agg) },
            { k: 'number', text: '0' },
          ],
        };
      case 'MIN':
      case 'MAX':
        return { k: 'agg', fn: agg.fn, arg: partial(agg) };
      case 'AVG': {
        const sum: Expr = { k: 'agg', fn: 'SUM', arg: partial({ k: 'agg', fn: 'SUM', arg: agg.arg }) };
        const count: Expr = { k: 'agg', fn: 'SUM', arg: partial({ k: 'agg', fn: 'COUNT', arg: agg.arg }) };
        return { k: 'arith', op: '/', left: sum, right: count };
      }
      case 'APPROX_COUNT_DISTINCT':
        if (shape.approximateDistinct) return shape.approximateDistinct(innerRef);
        throw new Error('twoLevel: a distinct count is not combined from partials');
      case 'COUNT_DISTINCT':
        throw new Error('twoLevel: a distinct count is not combined from partials');
    }
  };
  const keys = dimensionCount + (shape.innerKeys?.length ?? 0);
  return select({
    columns: [
      ...dims.map((d) => ({ expr: d.outer(innerRef(d.alias)), alias: d.alias })),
      ...query.columns.slice(dimensionCount).map((c) => ({ expr: replaceAggs(c.expr, combine), alias: c.alias })),
    ],
    from: {
      k: 'subquery',
      alias: shape.alias,
      query: select({ columns: inner, from: query.from, joins: query.joins, where: query.where, groupBy: Array.from({ length: keys }, (_, i) => i + 1) }),
    },
    groupBy: query.groupBy,
    having: query.having ? replaceAggs(query.having, combine) : null,
    orderBy: query.orderBy.map((o) => ({ ...o, nullsKey: o.nullsKey ? replaceAggs(o.nullsKey, combine) : undefined })),
    limit: query.limit,
    offset: query.offset,
  });
}
