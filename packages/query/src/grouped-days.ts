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
 *
 * Read chart by chart (session 26), charts without a time axis share the same way: 各省销售额 and
 * 各渠道订单数 sum the rows of 省份 × 渠道 grouped once ("keys" instead of "days" when no member
 * has a time axis), and 产品类型占比 sums the days of 每月各类别订单数.
 */

const SHARED_UNITS = new Set(['DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR']);

/**
 * A plan's dimensions as the shared rows group them, by structure — a time axis by its day — and
 * whether it has a time axis, when the plan may share them; null otherwise. Plans with no dimension stay alone: one pass
 * over the rows with no grouping costs a few milliseconds at 10M and answers first.
 */
function sharedKeysOf(plan: CubePlan): { keys: string[]; timed: boolean } | null {
  const q = plan.query;
  const caps = plan.dialect.capabilities;
  // Where the dialect names the day and numbers rows: DuckDB today (PostgreSQL would sum counts as NUMERIC).
  if (!plan.dialect.dayOf || !caps.windowFunctions || plan.count || q.k !== 'select') return null;
  if (q.distinct || q.having || q.offset || q.limit === null || q.orderBy.some((o) => o.expr.k !== 'alias')) return null;
  const dims = plan.fields.filter((f) => f.kind === 'dimension').length;
  if (dims === 0) return null;
  const aggs = splittableAggs(q, dims);
  if (!aggs || aggs.length === 0 || aggs.some((a) => a.fn === 'COUNT_DISTINCT' || a.fn === 'APPROX_COUNT_DISTINCT')) return null;
  const keys: string[] = [];
  let timed = false;
  for (const column of q.columns.slice(0, dims)) {
    const e = column.expr;
    if (e.k !== 'dateTrunc') keys.push(JSON.stringify(e));
    else if (SHARED_UNITS.has(e.unit)) {
      keys.push(JSON.stringify({ k: 'dayOf', arg: e.arg }));
      timed = true;
    } else return null;
  }
  return { keys, timed };
}

/**
 * The plans that share one grouping of their rows, each bucket widest first: among the plans
 * that read the same rows (`rowsKey`), the plan with the most dimensions and every plan whose
 * dimensions are among its own, a time axis of any unit counting as its column's day (by month
 * joins by month and 类别: the rows are grouped by day and 类别, and by month sums them over
 * 类别; 各省 joins 省份 × 渠道). The widest plan's own statement groups its rows by those keys
 * anyway (day-rollup.ts for a time axis), so the shared rows are never more than one member's
 * own; plans outside the widest's dimensions make buckets of their own. Buckets of one plan are
 * left out. `timeAxesOnly` (the grouped batch, whose GROUPING SETS statement scans the rows once
 * for every other chart): only plans with a time axis share.
 */
export function daysBuckets(plans: readonly CubePlan[], rowsKey: (plan: CubePlan) => string, options: { timeAxesOnly?: boolean } = {}): number[][] {
  const byKey = new Map<string, { index: number; keys: Set<string> }[]>();
  plans.forEach((plan, index) => {
    const shared = sharedKeysOf(plan);
    if (!shared || (options.timeAxesOnly && !shared.timed)) return;
    const key = rowsKey(plan);
    byKey.set(key, [...(byKey.get(key) ?? []), { index, keys: new Set(shared.keys) }]);
  });
  const buckets: number[][] = [];
  for (let waiting of byKey.values()) {
    while (waiting.length > 1) {
      const widest = waiting.reduce((a, b) => (b.keys.size > a.keys.size ? b : a));
      const members = waiting.filter((p) => p === widest || [...p.keys].every((o) => widest.keys.has(o)));
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
  const dims = (plan: CubePlan) => plan.fields.filter((f) => f.kind === 'dimension').length;
  // The widest plan's dimensions, a time axis by its day (first, as "t0").
  const widest = base.columns.slice(0, dims(first)).map((c) => c.expr);
  for (const e of widest) if (e.k === 'dateTrunc') innerAlias({ k: 'dayOf', arg: e.arg }, 't');
  for (const e of widest) if (e.k !== 'dateTrunc') innerAlias(e, 'k');
  const keyCount = inner.length;
  const shared = widest.some((e) => e.k === 'dateTrunc') ? 'days' : 'keys';

  /** Per member: its outer level over "days" (no order or limit: the branch numbers its rows), its aliases, order and limit. */
  const outers = members.map((index) => {
    const plan = plans[index]!;
    const rolled = twoLevel(plan.query, dims(plan), {
      alias: shared,
      dimension: (expr) =>
        expr.k === 'dateTrunc'
          ? { inner: { k: 'dayOf', arg: expr.arg }, outer: (day) => ({ k: 'dateTrunc', unit: expr.unit, arg: day }) }
          : { inner: expr, outer: (own) => own },
    });
    const own = (rolled.from as Extract<SelectQuery['from'], { k: 'subquery' }>).query as SelectQuery;
    // The member's inner columns (its dimension aliases, its p0…) → the shared ones, by structure.
    const renamed = new Map(own.columns.map((c) => [c.alias, innerAlias(c.expr, c.alias.startsWith('p') ? 'p' : c.expr.k === 'dayOf' ? 't' : 'k')]));
    const rename = (column: string) => renamed.get(column) ?? column;
    const outer = select({
      columns: rolled.columns.map((c) => ({ expr: renameColumnsOf(c.expr, shared, rename), alias: c.alias })),
      from: { k: 'table', schema: null, name: shared, alias: shared },
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
  const sql = branchesStatement(dialect, `${q(shared)} AS MATERIALIZED (${innerSql.sql})`, branches);
  const columnsOf = outers.map(({ aliases }, m) => new Map(aliases.map((alias, i) => [alias, `c${m}_${i}`])));
  return {
    sql,
    params,
    members,
    split: (rows) => splitRows(rows, columnsOf),
  };
}
