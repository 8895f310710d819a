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
 *   "mp": the same with one word for several dimensions whose values fit in 64 bits together;
 *         one of "m" and "mp" has rows ("sz" holds the sizes and which form runs)
 *   "y", "c": each mask's bytes counted (one pass), then each byte's bits: the phones per value
 *   "n<t>": per dimension value its count; "nt": the whole count (the groups of "m" or "mp")
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
  const packs = perDim.length > 1;
  // Several dimensions whose values number 64 or fewer in all share one word ("mp", numbered
  // after every target): one BIT_OR per phone instead of one per dimension, 10 % less CPU for the
  // 10M board's statement. Otherwise each has its own word ("m"). Which form runs is known only
  // from the dictionaries' sizes: the other's dictionaries ("u<t>" or "w<t>") are empty, and
  // DuckDB stops a join's scan when its dictionary side is empty.
  const word = targets.length;
  const own = (t: number) => q(packs ? `u${t}` : `v${t}`);
  if (packs) {
    const sizes = perDim.map(({ t }) => `(SELECT COUNT(*) FROM ${q(`v${t}`)})`);
    const offsets = perDim.map(({ t }, i) => `${i === 0 ? '0' : sizes.slice(0, i).join(' + ')} AS ${q(`o${t}`)}`);
    ctes.push(`${q('sz')} AS MATERIALIZED (SELECT ${sizes.join(' + ')} <= 64 AS ${q('packed')}, ${offsets.join(', ')})`);
    for (const { t } of perDim) {
      ctes.push(
        `${q(`u${t}`)} AS (SELECT ${q('k')}, ${q('bit')} FROM ${q(`v${t}`)} WHERE NOT (SELECT ${q('packed')} FROM ${q('sz')}))`,
        `${q(`w${t}`)} AS (SELECT ${q('k')}, CASE WHEN ${q('b')} + ${q(`o${t}`)} < 64 THEN CAST(1 AS UBIGINT) << CAST(${q('b')} + ${q(`o${t}`)} AS UBIGINT) END AS ${q('bit')} FROM ${q(`v${t}`)}, ${q('sz')} WHERE ${q('sz')}.${q('packed')})`,
      );
    }
  }
  const masks = perDim.map(({ t }) => `BIT_OR(${own(t)}.${q('bit')}) AS ${q(`m${t}`)}`);
  const joinsTo = (name: (t: number) => string) =>
    perDim.map(({ t }) => `JOIN ${name(t)} ON ${q('r')}.${q(`k${t}`)} IS NOT DISTINCT FROM ${name(t)}.${q('k')}`).join(' ');
  const perPhone = (columns: string, name: (t: number) => string) =>
    `SELECT ${columns} FROM ${q('r')} ${joinsTo(name)} WHERE ${q('r')}.${q('x')} IS NOT NULL GROUP BY ${q('r')}.${q('x')}`;
  ctes.push(`${q('m')} AS MATERIALIZED (${perPhone((masks.length > 0 ? masks : [`1 AS ${q('one')}`]).join(', '), own)})`);
  if (packs) {
    const packed = perDim.map(({ t }) => `${q(`w${t}`)}.${q('bit')}`).join(' | ');
    ctes.push(`${q('mp')} AS MATERIALIZED (${perPhone(`BIT_OR(${packed}) AS ${q(`m${word}`)}`, (t) => q(`w${t}`))})`);
  }
  if (perDim.length > 0) {
    // Each mask's 8 bytes counted in one pass over "m" (and "mp"), then each byte value's bits.
    const keys = (words: number[]) => words.flatMap((t) => Array.from({ length: 8 }, (_, j) => t * 8 + j)).join(', ');
    const bytes = (words: number[]) =>
      words.flatMap((t) => Array.from({ length: 8 }, (_, j) => `CAST((${q(`m${t}`)} >> ${8 * j}) & 255 AS INTEGER)`)).join(', ');
    const unnest = (words: number[], from: string) => `SELECT UNNEST([${keys(words)}]) AS ${q('p')}, UNNEST([${bytes(words)}]) AS ${q('y')} FROM ${q(from)}`;
    const ownWords = perDim.map(({ t }) => t);
    const unnested = packs ? `${unnest(ownWords, 'm')} UNION ALL ${unnest([word], 'mp')}` : unnest(ownWords, 'm');
    ctes.push(
      `${q('y')} AS (SELECT ${q('p')}, ${q('y')}, COUNT(*) AS ${q('n')} FROM (${unnested}) AS ${q('u')} WHERE ${q('y')} <> 0 GROUP BY 1, 2)`,
      `${q('c')} AS (SELECT ${q('p')} // 8 AS ${q('t')}, 8 * (${q('p')} % 8) + ${q('i')} AS ${q('b')}, CAST(SUM(${q('n')}) AS BIGINT) AS ${q('n')} FROM ${q('y')}, range(8) AS ${q('z')}(${q('i')}) WHERE (${q('y')} >> ${q('i')}) & 1 = 1 GROUP BY 1, 2)`,
    );
  }
  for (const { t } of perDim) {
    const size = `(SELECT COUNT(*) FROM ${q(`v${t}`)})`;
    // A value's bit: in the shared word after the dimensions before it, or in its own word.
    const bitOf = packs
      ? `CROSS JOIN ${q('sz')} LEFT JOIN ${q('c')} ON ${q('c')}.${q('t')} = CASE WHEN ${q('sz')}.${q('packed')} THEN ${word} ELSE ${t} END AND ${q('c')}.${q('b')} = ${q('v')}.${q('b')} + CASE WHEN ${q('sz')}.${q('packed')} THEN ${q('sz')}.${q(`o${t}`)} ELSE 0 END`
      : `LEFT JOIN ${q('c')} ON ${q('c')}.${q('t')} = ${t} AND ${q('c')}.${q('b')} = ${q('v')}.${q('b')}`;
    ctes.push(
      `${q(`n${t}`)} AS (SELECT ${q('v')}.${q('k')}, COALESCE(${q('c')}.${q('n')}, 0) AS ${q('n')} FROM ${q(`v${t}`)} AS ${q('v')} ${bitOf} WHERE ${size} <= 64 ` +
        `UNION ALL SELECT ${q('r')}.${q(`k${t}`)}, COUNT(DISTINCT ${q('r')}.${q('x')}) FROM ${q('r')} WHERE ${size} > 64 GROUP BY 1)`,
    );
  }
  if (targets.some((t) => t.dim === null)) {
    // The phones: the groups of whichever form ran (the other has none).
    const phones = packs ? `(SELECT COUNT(*) FROM ${q('m')}) + (SELECT COUNT(*) FROM ${q('mp')})` : `COUNT(*)`;
    ctes.push(`${q('nt')} AS (SELECT ${phones} AS ${q('n')}${packs ? '' : ` FROM ${q('m')}`})`);
  }
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
