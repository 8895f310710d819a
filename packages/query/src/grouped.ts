import type { Expr, SelectQuery } from './ast.ts';
import { select } from './ast.ts';
import type { CubePlan } from './compiler.ts';
import type { Dialect } from './dialects/types.ts';
import { daysBuckets, sharedDaysStatement } from './grouped-days.ts';
import { maskedCounts, maskedDistinctArg, type DistinctTarget } from './grouped-distinct.ts';
import { branchesStatement, limitedBranch, splitRows, type GroupedStatement } from './grouped-statement.ts';
import { renderQuery, type ParamValue } from './render.ts';

/**
 * One scan for several aggregated charts (issue 26): the plans of one board request that read
 * the same rows (same FROM, joins and WHERE — the viewer's permission filters included, since
 * they are compiled into the WHERE) are answered by one statement:
 *
 *   WITH "g" AS MATERIALIZED (
 *     SELECT <every distinct dimension> AS "g0"…, <every distinct measure> AS "a0"…, 1 AS "s0"…
 *     FROM … WHERE … GROUP BY GROUPING SETS ((<dims of set 0>, <s0>), …))
 *   SELECT * FROM ((SELECT * FROM (SELECT 0 AS "q", "g…", "a…",
 *                   ROW_NUMBER() OVER (ORDER BY <the plan's order>) AS "rn"
 *                   FROM "g" WHERE "s<set>" IS NOT NULL) AS "b0" WHERE "rn" <= <limit>)
 *                 UNION ALL …) AS "u" ORDER BY "q", "rn"
 *
 * Each grouping set carries a constant marker column of its own ("sN"): it is 1 in the rows
 * of that set and NULL in the others, so the rows of a set are told apart from a dimension
 * that is NULL in the data without GROUPING() (whose arguments would have to repeat the
 * expressions and their bound values). The engine still sorts and limits every plan (its
 * collation, its NULLS LAST), so each chart gets the rows its own statement would give.
 *
 * Only the user values of the shared WHERE and of the expressions are bound (rendered once by
 * renderQuery); the rest of the text is quoted aliases and numbers written here.
 *
 * Only for dialects with the capabilities `groupingSets` and `windowFunctions` (DuckDB,
 * PostgreSQL). MySQL / MariaDB have no GROUPING SETS (only WITH ROLLUP); ClickHouse 18.16 has
 * neither and inlines a CTE at every reference (each branch would scan again). Their plans run
 * as separate statements. Plans that are not groupable run alone too: detail reads, HAVING,
 * OFFSET, a count query, DISTINCT, and distinct counts (measured on DuckDB at 1M orders: a
 * distinct aggregate in a GROUPING SETS statement made it 14 times slower than the same
 * statement without it — docs/board-speed.md) — except exact counts of one column that two or
 * more plans share, on dialects with `distinctMasks`: grouped-distinct.ts answers them in the
 * statement with one aggregation by that column.
 */

/** Whether the dialect can run a grouped statement (its capabilities, never its name). */
export function canGroup(dialect: Dialect): boolean {
  return dialect.capabilities.groupingSets && dialect.capabilities.windowFunctions;
}

export type { GroupedStatement } from './grouped-statement.ts';

export interface PlanGroups {
  groups: GroupedStatement[];
  /** Indexes of the plans that run as their own statement. */
  alone: number[];
}

/** Whether a plan may share a grouped statement: an aggregate read without HAVING, OFFSET, count or distinct aggregates. */
export function isGroupable(plan: CubePlan): boolean {
  const q = plan.query;
  if (!canGroup(plan.dialect) || plan.count || q.k !== 'select') return false;
  if (q.distinct || q.having || q.offset || q.limit === null) return false;
  const dims = plan.fields.filter((f) => f.kind === 'dimension').length;
  const measures = plan.fields.length - dims;
  if (dims + measures === 0) return false;
  // A detail read has no GROUP BY; an aggregate one groups by exactly its dimensions, which come
  // first (none: one row over all the rows, then it needs a measure).
  if (!q.groupBy.every((pos, i) => pos === i + 1) || q.groupBy.length !== dims || (dims === 0 && measures === 0)) return false;
  // Distinct counts only as the masks answer them (grouped-distinct.ts), where the dialect has them.
  if (maskedDistinctArg(plan) === undefined) return false;
  return q.orderBy.every((o) => o.expr.k === 'alias');
}

/** The rows a plan reads: its FROM, joins and WHERE with their bound values (the same text means the same rows). */
export function rowsKey(plan: CubePlan): string {
  const q = plan.query as SelectQuery;
  const probe = renderQuery(
    select({ columns: [{ expr: { k: 'number', text: '1' }, alias: 'x' }], from: q.from, joins: q.joins, where: q.where }),
    plan.dialect,
  );
  return JSON.stringify([plan.dialect.name, probe.sql, probe.params]);
}

/**
 * Groups the plans that read the same rows into one statement each; groups of one plan, and
 * plans that cannot share, are left `alone` (their own compiled statement answers them). With
 * `distinctOnly`, only the charts whose exact distinct counts the masks answer together are
 * grouped (a board read chart by chart, where one statement for every chart would make each
 * wait for the slowest: the distinct counts are the slowest, and share one aggregation).
 */
export function groupPlans(plans: readonly CubePlan[], options: { distinctOnly?: boolean } = {}): PlanGroups {
  const groups: GroupedStatement[] = [];
  // Each plan's rows rendered once, for the days buckets and the row groups below.
  const rowsKeys = new Map<CubePlan, string>();
  const keyOf = (plan: CubePlan) => rowsKeys.get(plan) ?? rowsKeys.set(plan, rowsKey(plan)).get(plan)!;
  // Shared groupings first: time axes of one column (both ways) share one grouping of the rows by
  // day; read chart by chart, charts whose dimensions are among another's share its grouping too.
  const inDays = new Set<number>();
  for (const bucket of daysBuckets(plans, keyOf, { timeAxesOnly: !options.distinctOnly })) {
    groups.push(sharedDaysStatement(plans, bucket));
    for (const i of bucket) inDays.add(i);
  }
  const byRows = new Map<string, number[]>();
  const alone: number[] = [];
  const distinctArgs = plans.map(maskedDistinctArg);
  plans.forEach((plan, i) => {
    if (inDays.has(i)) return;
    // distinctOnly: only the exact distinct counts share (each other chart is read alone).
    if (!isGroupable(plan) || (options.distinctOnly && !distinctArgs[i])) return void alone.push(i);
    const key = keyOf(plan);
    byRows.set(key, [...(byRows.get(key) ?? []), i]);
  });
  for (const bucket of byRows.values()) {
    const members = withSharedDistinct(distinctArgs, bucket, alone);
    if (members.length < 2) alone.push(...members);
    else groups.push(groupedStatement(plans, members));
  }
  return { groups, alone: alone.sort((a, b) => a - b) };
}

/**
 * The members of one rows' group that share its statement: the plans without distinct counts,
 * and those counting the one column most of them count, when at least two do (alone, a distinct
 * count is one hash aggregate; the masks pay off from the second chart). The others go `alone`.
 */
function withSharedDistinct(distinctArgs: readonly (string | null | undefined)[], bucket: number[], alone: number[]): number[] {
  const byArg = new Map<string, number[]>();
  for (const i of bucket) {
    const arg = distinctArgs[i];
    if (arg) byArg.set(arg, [...(byArg.get(arg) ?? []), i]);
  }
  const shared = [...byArg.values()].sort((a, b) => b.length - a.length)[0] ?? [];
  const keep = new Set(shared.length >= 2 ? shared : []);
  const members: number[] = [];
  for (const i of bucket) {
    if (distinctArgs[i] && !keep.has(i)) alone.push(i);
    else members.push(i);
  }
  return members;
}

/** Index of `expr` in `list` by structure, appended when new. */
function indexOf(list: Expr[], keys: string[], expr: Expr): number {
  const key = JSON.stringify(expr);
  let at = keys.indexOf(key);
  if (at < 0) {
    at = keys.push(key) - 1;
    list.push(expr);
  }
  return at;
}

function groupedStatement(plans: readonly CubePlan[], members: number[]): GroupedStatement {
  const first = plans[members[0]!]!;
  const dialect = first.dialect;
  const base = first.query as SelectQuery;
  const [dims, dimKeys, measures, measureKeys, sets]: [Expr[], string[], Expr[], string[], string[]] = [[], [], [], [], []];
  const setOf: number[] = [];
  /** Per member: its own alias → the grouped column it reads. */
  const columnsOf: Map<string, string>[] = [];
  /** The distinct counts the masks answer (per a dimension, or over all rows), the column they count, and the ones each member reads. */
  const targets: DistinctTarget[] = [];
  let counted: Expr | null = null;
  const usesOf: Set<number>[] = [];
  for (const index of members) {
    const plan = plans[index]!;
    const q = plan.query as SelectQuery;
    const map = new Map<string, string>();
    const setDims: number[] = [];
    const uses = new Set<number>();
    q.columns.forEach((c, i) => {
      if (plan.fields[i]!.kind === 'dimension') {
        const at = indexOf(dims, dimKeys, c.expr);
        setDims.push(at);
        map.set(c.alias, `g${at}`);
      } else if (c.expr.k === 'agg' && c.expr.fn === 'COUNT_DISTINCT' && c.expr.arg) {
        // Dimensions come first, so setDims is complete here (maskedDistinctArg allows at most one);
        // every member counts the same column (withSharedDistinct).
        counted ??= c.expr.arg;
        const dim = setDims[0] ?? null;
        let at = targets.findIndex((t) => t.dim === dim);
        if (at < 0) at = targets.push({ dim, set: -1 }) - 1;
        uses.add(at);
        map.set(c.alias, `e${at}`);
      } else {
        map.set(c.alias, `a${indexOf(measures, measureKeys, c.expr)}`);
      }
    });
    const setKey = JSON.stringify([...new Set(setDims)].sort((a, b) => a - b));
    let set = sets.indexOf(setKey);
    if (set < 0) set = sets.push(setKey) - 1;
    for (const t of uses) if (targets[t]!.set < 0) targets[t]!.set = set;
    setOf.push(set);
    columnsOf.push(map);
    usesOf.push(uses);
  }
  const columns = [
    ...dims.map((expr, i) => ({ expr, alias: `g${i}` })),
    ...measures.map((expr, i) => ({ expr, alias: `a${i}` })),
    ...sets.map((_, i) => ({ expr: { k: 'number', text: '1' } as Expr, alias: `s${i}` })),
  ];
  const inner = renderQuery(select({ columns, from: base.from, joins: base.joins, where: base.where }), dialect);
  const markerAt = dims.length + measures.length + 1;
  const groupingSets = sets.map((key, i) => `(${[...(JSON.parse(key) as number[]).map((d) => d + 1), markerAt + i].join(', ')})`);
  const q = (name: string) => dialect.quoteIdentifier(name);
  const shared = columns.filter((c) => !c.alias.startsWith('s')).map((c) => q(c.alias));
  const masked = counted ? maskedCounts(dialect, base, counted, targets, dims, inner.params.length) : null;
  const branches = members.map((index, m) => {
    const plan = plans[index]!.query as SelectQuery;
    const order = plan.orderBy.map((o) => {
      const name = o.expr.k === 'alias' ? columnsOf[m]!.get(o.expr.name) : undefined;
      if (!name) throw new Error(`grouped: order by ${JSON.stringify(o.expr)} is not a column of the plan`);
      return `${q(name)} ${o.desc ? 'DESC' : 'ASC'} NULLS LAST`;
    });
    const over = order.length > 0 ? `ORDER BY ${order.join(', ')}` : '';
    if (masked) {
      // The counts the member reads joined on by its dimension's value; the window over the result, so it may order by them.
      const counts = targets.map((_, t) => `${usesOf[m]!.has(t) ? masked.column(t) : 'NULL'} AS ${q(`e${t}`)}`);
      const joined = [...usesOf[m]!].map((t) => ` ${masked.join(t)}`).join('');
      const own = `SELECT ${m} AS ${q('q')}, ${[...shared.map((c) => `${q('g')}.${c}`), ...counts].join(', ')} FROM ${q('g')}${joined} WHERE ${q('g')}.${q(`s${setOf[m]}`)} IS NOT NULL`;
      const numbered = `SELECT *, ROW_NUMBER() OVER (${over}) AS ${q('rn')} FROM (${own}) AS ${q(`w${m}`)}`;
      return limitedBranch(dialect, m, numbered, plan.limit!);
    }
    const numbered = `SELECT ${m} AS ${q('q')}, ${shared.join(', ')}, ROW_NUMBER() OVER (${over}) AS ${q('rn')} FROM ${q('g')} WHERE ${q(`s${setOf[m]}`)} IS NOT NULL`;
    return limitedBranch(dialect, m, numbered, plan.limit!);
  });
  const ctes = `${q('g')} AS MATERIALIZED (${inner.sql} GROUP BY GROUPING SETS (${groupingSets.join(', ')}))${masked ? `, ${masked.ctes}` : ''}`;
  const sql = branchesStatement(dialect, ctes, branches);
  const params: ParamValue[] = [...inner.params, ...(masked?.params ?? [])];
  return {
    sql,
    params,
    members,
    split: (rows) => splitRows(rows, columnsOf),
  };
}
