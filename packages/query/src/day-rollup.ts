import type { Expr, SelectQuery } from './ast.ts';
import type { Dialect } from './dialects/types.ts';
import { splittableAggs, twoLevel } from './two-level.ts';

/**
 * Time axes by week, month, quarter or year grouped by day first (issue 26, the board at 10M):
 * on DuckDB, `DATE_TRUNC('month', t)` costs about 23 ns a row and `DATE_TRUNC('day', t)` 10;
 * grouping the rows by their day and truncating the few hundred days gives the same groups.
 * Measured on the 10M demo orders (median of 3): sum by month 233 → 102 ms, count by month ×
 * product type 275 → 146 ms, sum by week 119 → 107 ms.
 *
 *   SELECT DATE_TRUNC('month', "days"."d0") AS "d0", SUM("days"."p0") AS "m0"
 *   FROM (SELECT DATE_TRUNC('day', t) AS "d0", SUM(amount) AS "p0" FROM … WHERE … GROUP BY 1) AS "days"
 *   GROUP BY 1 ORDER BY … LIMIT …
 *
 * The day keeps the column's type (TIMESTAMP, TIMESTAMPTZ in the session's zone), so the month
 * is the one the statement as written gives, of the same type. Only for dialects that name the
 * day (`dayOf`), for axes of a week or longer (a day or an hour gains nothing), and for measures
 * the two levels combine (no distinct counts: those keep the statement as written, or take the
 * sketch).
 */
export function rollUpDays(query: SelectQuery, dimensionCount: number, dialect: Dialect): SelectQuery | null {
  if (!dialect.dayOf) return null;
  const rolled = (expr: Expr): expr is Extract<Expr, { k: 'dateTrunc' }> => expr.k === 'dateTrunc' && expr.unit !== 'HOUR' && expr.unit !== 'DAY';
  if (!query.columns.slice(0, dimensionCount).some((c) => rolled(c.expr))) return null;
  const aggs = splittableAggs(query, dimensionCount);
  if (!aggs || aggs.some((a) => a.fn === 'COUNT_DISTINCT' || a.fn === 'APPROX_COUNT_DISTINCT')) return null;
  return twoLevel(query, dimensionCount, {
    alias: 'days',
    dimension: (expr) =>
      rolled(expr)
        ? { inner: { k: 'dayOf', arg: expr.arg }, outer: (inner) => ({ k: 'dateTrunc', unit: expr.unit, arg: inner }) }
        : { inner: expr, outer: (inner) => inner },
  });
}
