import type { Expr, SelectQuery } from './ast.ts';
import { select } from './ast.ts';
import type { CubePlan } from './compiler.ts';
import type { Dialect } from './dialects/types.ts';
import { renderQuery, type RenderedSql } from './render.ts';

/**
 * Exact distinct counts inside the grouped statement (issue 26, docs/board-speed.md "Exact
 * distinct counts through per-value bit masks"), for dialects with the `distinctMasks`
 * capability (DuckDB). Several charts over the same rows that count the same column's distinct
 * values — all of it, or per the values of one dimension — are answered by one aggregation
 * grouped by that column only, instead of one hash table of (dimension value, counted value)
 * pairs per chart:
 *
 *   "r" AS NOT MATERIALIZED (SELECT <counted> AS "x", <dimension t> AS "k<t>"… FROM … WHERE …)
 *   "v<t>": the dimension's values (from the grouping set that already has them), numbered 0…,
 *           each with its bit (a UBIGINT 1 << number; none from the 65th value on)
 *   "m" AS MATERIALIZED (SELECT BIT_OR("v<t>"."bit") AS "m<t>"… FROM "r" JOIN "v<t>" … GROUP BY "r"."x")
 *   "y", "c": each mask's bytes counted (one pass), then each byte's bits: the phones per value
 *   "n<t>": per dimension value its count; "nt": the whole count (the groups of "m")
 *
 * A dimension of more than 64 values has no mask bit for the rest: its counts come from
 * COUNT(DISTINCT) over "r" in the same statement (the branch the dictionary's size selects).
 * Measured on the 10M demo orders (bench/board/distinct-masks.ts): the board's three exact
 * counts 1.76–1.88 s against 2.82–2.88 s as three statements.
 */

/**
 * A chart's distinct count that the masks answer: per the values of the grouped dimension `dim`,
 * or over all the rows (null); `set` is the grouping set marker of a chart that has it (the rows
 * of "g" that list the dimension's values).
 */
export interface DistinctTarget {
  dim: number | null;
  set: number;
}

/**
 * Whether the rows read a table (or a view's SQL mentions a name outside quotes) that the
 * statement's first CTE, "g", would hide from the masks' rows ("r" comes after it): such charts
 * keep their own statements.
 */
function readsNamedLikeFirstCte(q: SelectQuery): boolean {
  return [q.from, ...q.joins.map((j) => j.table)].some((item) =>
    item.k === 'table' ? item.schema === null && item.name.toLowerCase() === 'g' : /(^|[^\w$'])g([^\w$']|$)/i.test(JSON.stringify(item)),
  );
}

/** The one argument every distinct count of the plan counts (by structure), null when none, undefined when a mask cannot answer them. */
export function maskedDistinctArg(plan: CubePlan): string | null | undefined {
  const q = plan.query as SelectQuery;
  const named = readsNamedLikeFirstCte(q);
  const dims = plan.fields.filter((f) => f.kind === 'dimension').length;
  let arg: string | null = null;
  for (const [i, column] of q.columns.entries()) {
    if (plan.fields[i]?.kind !== 'measure' || !/"fn":"(APPROX_)?COUNT_DISTINCT"/.test(JSON.stringify(column.expr))) continue;
    const e = column.expr;
    if (!plan.dialect.capabilities.distinctMasks || named || dims > 1 || e.k !== 'agg' || e.fn !== 'COUNT_DISTINCT' || !e.arg) return undefined;
    const key = JSON.stringify(e.arg);
    if (arg !== null && arg !== key) return undefined;
    arg = key;
  }
  return arg;
}

export interface MaskedCounts {
  /** The CTEs after "g" (each `"name" AS (…)`), joined with ", ". */
  ctes: string;
  params: RenderedSql['params'];
  /** Per target: the column expression of a branch that uses it, and the join it needs on "g". */
  column(t: number): string;
  join(t: number): string;
}

/**
 * The CTEs that count `counted`'s distinct values per target, over the rows of `base` (its FROM,
 * joins and WHERE), rendered after "g" whose bound values are the first `offset`.
 */
export function maskedCounts(
  dialect: Dialect,
  base: SelectQuery,
  counted: Expr,
  targets: readonly DistinctTarget[],
  dims: readonly Expr[],
  offset: number,
): MaskedCounts {
  const q = (name: string) => dialect.quoteIdentifier(name);
  const perDim = targets.flatMap((target, t) => (target.dim === null ? [] : [{ t, dim: target.dim, set: target.set }]));
  // The rows' own values, bound after the grouped statement's (placeholders numbered on from them).
  const shifted: Dialect = { ...dialect, placeholder: (index) => dialect.placeholder(index + offset) };
  const rows = renderQuery(
    select({
      columns: [{ expr: counted, alias: 'x' }, ...perDim.map(({ t, dim }) => ({ expr: dims[dim]!, alias: `k${t}` }))],
      from: base.from,
      joins: base.joins,
      where: base.where,
    }),
    shifted,
  );
  const ctes = [`${q('r')} AS NOT MATERIALIZED (${rows.sql})`];
  for (const { t, dim, set } of perDim) {
    ctes.push(
      `${q(`v${t}`)} AS (SELECT ${q('k')}, ${q('b')}, CASE WHEN ${q('b')} < 64 THEN CAST(1 AS UBIGINT) << CAST(${q('b')} AS UBIGINT) END AS ${q('bit')} FROM (SELECT ${q('k')}, CAST(ROW_NUMBER() OVER (ORDER BY ${q('k')}) - 1 AS INTEGER) AS ${q('b')} FROM (SELECT DISTINCT ${q(`g${dim}`)} AS ${q('k')} FROM ${q('g')} WHERE ${q(`s${set}`)} IS NOT NULL) AS ${q(`d${t}`)}) AS ${q(`e${t}`)})`,
    );
  }
  // Each value's bit is worked out once in its dictionary: a shift per row of UBIGINT by the
  // INTEGER number would run in HUGEINT (DuckDB's common type of the two), and so would the
  // masks and their BIT_OR — 1.7 times the time of the whole statement at 10M.
  const masks = perDim.map(({ t }) => `BIT_OR(${q(`v${t}`)}.${q('bit')}) AS ${q(`m${t}`)}`);
  const joins = perDim.map(({ t }) => `JOIN ${q(`v${t}`)} ON ${q('r')}.${q(`k${t}`)} IS NOT DISTINCT FROM ${q(`v${t}`)}.${q('k')}`);
  ctes.push(
    `${q('m')} AS MATERIALIZED (SELECT ${(masks.length > 0 ? masks : [`1 AS ${q('one')}`]).join(', ')} FROM ${q('r')} ${joins.join(' ')} WHERE ${q('r')}.${q('x')} IS NOT NULL GROUP BY ${q('r')}.${q('x')})`,
  );
  if (perDim.length > 0) {
    // Each mask's 8 bytes counted in one pass over "m", then each byte value's bits.
    const keys = perDim.flatMap(({ t }) => Array.from({ length: 8 }, (_, j) => t * 8 + j));
    const bytes = perDim.flatMap(({ t }) => Array.from({ length: 8 }, (_, j) => `CAST((${q(`m${t}`)} >> ${8 * j}) & 255 AS INTEGER)`));
    ctes.push(
      `${q('y')} AS (SELECT ${q('p')}, ${q('y')}, COUNT(*) AS ${q('n')} FROM (SELECT UNNEST([${keys.join(', ')}]) AS ${q('p')}, UNNEST([${bytes.join(', ')}]) AS ${q('y')} FROM ${q('m')}) AS ${q('u')} WHERE ${q('y')} <> 0 GROUP BY 1, 2)`,
      `${q('c')} AS (SELECT ${q('p')} // 8 AS ${q('t')}, 8 * (${q('p')} % 8) + ${q('i')} AS ${q('b')}, CAST(SUM(${q('n')}) AS BIGINT) AS ${q('n')} FROM ${q('y')}, range(8) AS ${q('z')}(${q('i')}) WHERE (${q('y')} >> ${q('i')}) & 1 = 1 GROUP BY 1, 2)`,
    );
  }
  for (const { t } of perDim) {
    const size = `(SELECT COUNT(*) FROM ${q(`v${t}`)})`;
    ctes.push(
      `${q(`n${t}`)} AS (SELECT ${q('v')}.${q('k')}, COALESCE(${q('c')}.${q('n')}, 0) AS ${q('n')} FROM ${q(`v${t}`)} AS ${q('v')} LEFT JOIN ${q('c')} ON ${q('c')}.${q('t')} = ${t} AND ${q('c')}.${q('b')} = ${q('v')}.${q('b')} WHERE ${size} <= 64 ` +
        `UNION ALL SELECT ${q('r')}.${q(`k${t}`)}, COUNT(DISTINCT ${q('r')}.${q('x')}) FROM ${q('r')} WHERE ${size} > 64 GROUP BY 1)`,
    );
  }
  if (targets.some((t) => t.dim === null)) ctes.push(`${q('nt')} AS (SELECT COUNT(*) AS ${q('n')} FROM ${q('m')})`);
  return {
    ctes: ctes.join(', '),
    params: rows.params,
    column: (t) => {
      const dim = targets[t]!.dim;
      return dim === null ? `${q('nt')}.${q('n')}` : `COALESCE(${q(`n${t}`)}.${q('n')}, 0)`;
    },
    join: (t) => {
      const dim = targets[t]!.dim;
      return dim === null ? `CROSS JOIN ${q('nt')}` : `LEFT JOIN ${q(`n${t}`)} ON ${q('g')}.${q(`g${dim}`)} IS NOT DISTINCT FROM ${q(`n${t}`)}.${q('k')}`;
    },
  };
}
