import type { Expr, SelectQuery } from './ast.ts';
import { select } from './ast.ts';
import type { CubePlan } from './compiler.ts';
import { branchesStatement, limitedBranch, splitRows, type GroupedStatement } from './grouped-statement.ts';
import { renderQuery, type ParamValue } from './render.ts';
import { renameColumnsOf, splittableAggs, twoLevel } from './two-level.ts';

/**
 * Time axes of one column sharing their days (issue 26, docs/board-speed.md "Time axes sharing
 * their days"): charts over the same rows whose dimensions are a day, week, month, quarter or
 * year of the same time column plus other dimensions within one of theirs — a board's 每日订单数,
 * 每周金额, 每月金额 and 每月各类别订单数 — are answered by one statement that groups the rows by their day once:
 *
 *   WITH "days" AS MATERIALIZED (SELECT <day of the column> AS "t", <other dimensions> AS "k0"…,
 *                                  <each partial aggregate once> AS "p0"… FROM … WHERE … GROUP BY 1, 2…)
 *   SELECT * FROM ((SELECT * FROM (SELECT 0 AS "q", <the chart's columns> AS "c0_0"…, NULL AS "c1_0"…,
 *                    ROW_NUMBER() OVER (ORDER BY <its order>) AS "rn"
 *                   FROM (<the chart's outer level over "days">) AS "o0") AS "b0" WHERE "rn" <= <limit>)
 *                 UNION ALL …) AS "u" ORDER BY "q", "rn"
 *
 * Each chart's outer level is its day-rollup's (two-level.ts: SUM of sums, SUM of counts, MIN,
 * MAX, AVG as sum over count), grouped by its own dimensions, so its rows are those of its own
 * statement. The days are grouped by the other dimensions of the widest chart, and a chart
 * shares them only when its other dimensions are among those (`daysBuckets`). Only where the
 * dialect names the day (`dayOf`) and numbers rows (`windowFunctions`); not for hours, distinct
 * counts, HAVING or OFFSET.
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
 * Where a plan may share its days: the key of the rows it reads (`rowsKey`) and its time column,
 * and its other dimensions (each by structure). Null when the plan cannot share.
 */
function daysShare(plan: CubePlan, rowsKey: (plan: CubePlan) => string): { key: string; others: string[] } | null {
  const time = timeAxisOf(plan);
  if (!time) return null;
  const dims = plan.fields.filter((f) => f.kind === 'dimension').length;
  const others = plan.query.columns
    .slice(0, dims)
    .filter((_, i) => i !== time.at)
    .map((c) => JSON.stringify(c.expr));
  return { key: JSON.stringify([rowsKey(plan), JSON.stringify(time.axis.arg)]), others };
}

/**
 * The plans that share their days, each bucket widest first: among the plans of one rows-and-time
 * key, the plan with the most other dimensions and every plan whose other dimensions are among
 * its own (by month joins by month and 类别: the days are grouped by day and 类别, and by month
 * sums them over 类别). The widest plan's own statement groups its rows by day and those
 * dimensions anyway (day-rollup.ts), so the shared days are never more rows than one member's
 * own; plans outside the widest's dimensions make buckets of their own. Buckets of one plan are
 * left out.
 */
export function daysBuckets(plans: readonly CubePlan[], rowsKey: (plan: CubePlan) => string): number[][] {
  const byKey = new Map<string, { index: number; others: Set<string> }[]>();
  plans.forEach((plan, index) => {
    const share = daysShare(plan, rowsKey);
    if (share) byKey.set(share.key, [...(byKey.get(share.key) ?? []), { index, others: new Set(share.others) }]);
  });
  const buckets: number[][] = [];
  for (let waiting of byKey.values()) {
    while (waiting.length > 1) {
      const widest = waiting.reduce((a, b) => (b.others.size > a.others.size ? b : a));
      const members = waiting.filter((p) => p === widest || [...p.others].every((o) => widest.others.has(o)));
      if (members.length > 1) buckets.push([widest.index, ...members.filter((p) => p !== widest).map((p) => p.index)]);
      waiting = waiting.filter((p) => !members.includes(p));
    }
  }
  return buckets;
}

/** One statement for one of `daysBuckets` (at least two plans, the widest first). */
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
  // daysBuckets put only plans of the same day here, their other dimensions among the first's: every other inner column is a partial.
  if (inner.slice(keyCount).some((c) => !c.alias.startsWith('p')) || inner.length === keyCount)
    throw new Error('grouped-days: members outside the widest plan');

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
