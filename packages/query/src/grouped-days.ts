import type { Expr, SelectQuery } from './ast.ts';
import { select } from './ast.ts';
import type { CubePlan } from './compiler.ts';
import { branchesStatement, limitedBranch, splitRows, type GroupedStatement } from './grouped-statement.ts';
import { renderQuery, type ParamValue } from './render.ts';
import { renameColumnsOf, splittableAggs, twoLevel } from './two-level.ts';

/**
 * Time axes of one column sharing their days (issue 26, docs/board-speed.md "Time axes sharing
 * their days"): charts over the same rows whose dimensions are a day, week, month, quarter or
 * year of the same time column plus the same other dimensions — a board's 每日订单数, 每周金额
 * and 每月金额 — are answered by one statement that groups the rows by their day once:
 *
 *   WITH "days" AS MATERIALIZED (SELECT <day of the column> AS "t", <other dimensions> AS "k0"…,
 *                                  <each partial aggregate once> AS "p0"… FROM … WHERE … GROUP BY 1, 2…)
 *   SELECT * FROM ((SELECT * FROM (SELECT 0 AS "q", <the chart's columns> AS "c0_0"…, NULL AS "c1_0"…,
 *                    ROW_NUMBER() OVER (ORDER BY <its order>) AS "rn"
 *                   FROM (<the chart's outer level over "days">) AS "o0") AS "b0" WHERE "rn" <= <limit>)
 *                 UNION ALL …) AS "u" ORDER BY "q", "rn"
 *
 * Each chart's outer level is its day-rollup's (two-level.ts: SUM of sums, SUM of counts, MIN,
 * MAX, AVG as sum over count), so its rows are those of its own statement. The charts' other
 * dimensions must be the same (as a set): days × a dimension the others do not group by could
 * be as many rows as the data. Only where the dialect names the day (`dayOf`) and numbers rows
 * (`windowFunctions`); not for hours, distinct counts, HAVING or OFFSET.
 */

const SHARED_UNITS = new Set(['DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR']);

type TimeAxis = Extract<Expr, { k: 'dateTrunc' }>;

/** The plan's one time axis, when the plan may share its days: its dimension index and expression. */
function timeAxisOf(plan: CubePlan): { at: number; axis: TimeAxis } | null {
  const q = plan.query;
  const caps = plan.dialect.capabilities;
  if (!plan.dialect.dayOf || !caps.windowFunctions || plan.count || q.k !== 'select') return null;
  if (q.distinct || q.having || q.offset || q.limit === null || q.orderBy.some((o) => o.expr.k !== 'alias')) return null;
  const dims = plan.fields.filter((f) => f.kind === 'dimension').length;
  const aggs = splittableAggs(q, dims);
  if (!aggs || aggs.length === 0 || aggs.some((a) => a.fn === 'COUNT_DISTINCT' || a.fn === 'APPROX_COUNT_DISTINCT')) return null;
  const axes = q.columns.slice(0, dims).flatMap((c, at) => (c.expr.k === 'dateTrunc' ? [{ at, axis: c.expr }] : []));
  if (axes.length !== 1 || !SHARED_UNITS.has(axes[0]!.axis.unit)) return null;
  return axes[0]!;
}

/**
 * The key of the plans that may share their days: the rows they read (`rowsKey`), the time
 * column, and the other dimensions as a set. Null when the plan cannot share.
 */
export function daysKey(plan: CubePlan, rowsKey: (plan: CubePlan) => string): string | null {
  const time = timeAxisOf(plan);
  if (!time) return null;
  const dims = plan.fields.filter((f) => f.kind === 'dimension').length;
  const others = plan.query.columns
    .slice(0, dims)
    .filter((_, i) => i !== time.at)
    .map((c) => JSON.stringify(c.expr))
    .sort();
  return JSON.stringify([rowsKey(plan), JSON.stringify(time.axis.arg), others]);
}

/** One statement for plans of one `daysKey` (at least two). */
export function sharedDaysStatement(plans: readonly CubePlan[], members: number[]): GroupedStatement {
  const first = plans[members[0]!]!;
  const dialect = first.dialect;
  const base = first.query;
  const q = (name: string) => dialect.quoteIdentifier(name);
  /** The shared inner level's columns: the day, the other dimensions, then every partial aggregate once (by structure). */
  const inner: { expr: Expr; alias: string }[] = [];
  const innerKeys: string[] = [];
  const innerAlias = (expr: Expr, prefix: string): string => {
    const key = JSON.stringify(expr);
    let at = innerKeys.indexOf(key);
    if (at < 0) {
      at = innerKeys.push(key) - 1;
      inner.push({ expr, alias: `${prefix}${inner.filter((c) => c.alias.startsWith(prefix)).length}` });
    }
    return inner[at]!.alias;
  };
  const time = timeAxisOf(first)!;
  innerAlias({ k: 'dayOf', arg: time.axis.arg }, 't');
  const dims = (plan: CubePlan) => plan.fields.filter((f) => f.kind === 'dimension').length;
  for (const [i, c] of base.columns.slice(0, dims(first)).entries()) if (i !== time.at) innerAlias(c.expr, 'k');
  const keyCount = inner.length;

  /** Per member: its outer level over "days" (no order or limit: the branch numbers its rows), its aliases, order and limit. */
  const outers = members.map((index) => {
    const plan = plans[index]!;
    const rolled = twoLevel(plan.query, dims(plan), {
      alias: 'days',
      dimension: (expr) =>
        expr.k === 'dateTrunc'
          ? { inner: { k: 'dayOf', arg: expr.arg }, outer: (day) => ({ k: 'dateTrunc', unit: expr.unit, arg: day }) }
          : { inner: expr, outer: (own) => own },
    });
    const own = (rolled.from as Extract<SelectQuery['from'], { k: 'subquery' }>).query as SelectQuery;
    // The member's inner columns (its dimension aliases, its p0…) → the shared ones, by structure.
    const renamed = new Map(own.columns.map((c) => [c.alias, innerAlias(c.expr, c.alias.startsWith('p') ? 'p' : 'k')]));
    const rename = (column: string) => renamed.get(column) ?? column;
    const outer = select({
      columns: rolled.columns.map((c) => ({ expr: renameColumnsOf(c.expr, 'days', rename), alias: c.alias })),
      from: { k: 'table', schema: null, name: 'days', alias: 'days' },
      groupBy: rolled.groupBy,
    });
    return { plan: plan.query, outer, aliases: rolled.columns.map((c) => c.alias) };
  });
  // daysKey put only plans of the same day and other dimensions here: every other inner column is a partial.
  if (inner.slice(keyCount).some((c) => !c.alias.startsWith('p')) || inner.length === keyCount) throw new Error('grouped-days: members of different days keys');

  const innerSql = renderQuery(
    select({ columns: inner, from: base.from, joins: base.joins, where: base.where, groupBy: Array.from({ length: keyCount }, (_, i) => i + 1) }),
    dialect,
  );
  const slot = (m: number, i: number) => q(`c${m}_${i}`);
  const params: ParamValue[] = [...innerSql.params];
  const branches = outers.map(({ plan, outer }, m) => {
    // A formula's value outside its aggregate (SUM([金额]) * ${rate}) is bound in the outer level:
    // numbered on from the values bound before it.
    const offset = params.length;
    const rendered = renderQuery(outer, { ...dialect, placeholder: (index) => dialect.placeholder(index + offset) });
    params.push(...rendered.params);
    const slots = outers.flatMap((other, j) =>
      other.aliases.map((alias, i) => (j === m ? `${q(`o${m}`)}.${q(alias)} AS ${slot(j, i)}` : `NULL AS ${slot(j, i)}`)),
    );
    const order = plan.orderBy.map((o) => `${q(`o${m}`)}.${q((o.expr as Extract<Expr, { k: 'alias' }>).name)} ${o.desc ? 'DESC' : 'ASC'} NULLS LAST`);
    const over = order.length > 0 ? `ORDER BY ${order.join(', ')}` : '';
    const numbered = `SELECT ${m} AS ${q('q')}, ${slots.join(', ')}, ROW_NUMBER() OVER (${over}) AS ${q('rn')} FROM (${rendered.sql}) AS ${q(`o${m}`)}`;
    return limitedBranch(dialect, m, numbered, plan.limit!);
  });
  const sql = branchesStatement(dialect, `${q('days')} AS MATERIALIZED (${innerSql.sql})`, branches);
  const columnsOf = outers.map(({ aliases }, m) => new Map(aliases.map((alias, i) => [alias, `c${m}_${i}`])));
  return {
    sql,
    params,
    members,
    split: (rows) => splitRows(rows, columnsOf),
  };
}
