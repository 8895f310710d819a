import type { FieldId, SetOperation } from '@shutu/contracts';
import { alias, select, str, type Expr, type Query, type SelectQuery } from './ast.ts';
import type { CubePlan } from './compiler.ts';
import type { Dialect } from './dialects/types.ts';
import { queryError } from './errors.ts';
import { renderQuery, type RenderedSql } from './render.ts';
import { planSetOperation, SET_KEY_ALIAS, type SetOperand } from './setops.ts';

/**
 * An audience's member statement (issue 18, docs/audiences.md): the key sets of several
 * operands folded left to right with 交/并/差 (setops.ts), and beside each key the output
 * fields of the operands that contribute members. One statement for one dialect.
 *
 *   SELECT k AS phone, MAX(c1) AS c1, … FROM (
 *     SELECT key AS k, TO_STRING(out) AS c1, '' AS c2 FROM (operand 1 with outputs) UNION ALL …
 *   ) u WHERE k IN (the set operation) GROUP BY k
 *
 * The outputs come from a second plan of the operand (key + outputs, WHERE only): a having rule
 * is decided per key by the key plan, never per (key, output) group. Outputs are text (one
 * type in every UNION ALL branch on every engine); '' where an operand has no such output, and
 * MAX picks the operand's value. Without outputs the statement is the set operation itself.
 */

/** A dataset rule: its key plan (key + having measures) and, when it has outputs, the output plan. */
export interface MemberPlanOperand {
  kind: 'plan';
  op: SetOperation;
  keyPlan: CubePlan;
  keyFieldId: FieldId;
  /** Dimensions [key, output 1, …] with the rule's WHERE; null without outputs. */
  outputPlan: CubePlan | null;
}

/** Another audience's members (an imported phone list): a table of the same source with a key column. */
export interface MemberTableOperand {
  kind: 'table';
  op: SetOperation;
  table: { schema: string | null; name: string };
  keyColumn: string;
}

export type MemberOperand = MemberPlanOperand | MemberTableOperand;

export interface CompiledMembers extends RenderedSql {
  /** Result columns in order: 'phone', then 'c1' … one per output field of the operands. */
  columns: string[];
  /** `SELECT COUNT(*)` of the members. */
  count: RenderedSql;
  /**
   * The first `previewRows` members with the total beside each row (`COUNT(*) OVER ()` in the column
   * `MEMBER_TOTAL_COLUMN`): one execution of the statement answers a preview. Null where the engine
   * has no window functions (ClickHouse 18.16): run `sql` and `count`.
   */
  preview: RenderedSql | null;
}

export const MEMBER_KEY_COLUMN = 'phone';
export const MEMBER_TOTAL_COLUMN = '__shutu_total';
const KEY_FIELD = '__key';

/** Table aliases a part of a query mentions: every column node at any depth (subqueries too; more is safe). */
function mentions(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const n of node) mentions(n, into);
  else if (node && typeof node === 'object') {
    const o = node as Record<string, unknown>;
    if (o.k === 'column' && typeof o.table === 'string') into.add(o.table);
    for (const v of Object.values(o)) mentions(v, into);
  }
  return into;
}

const hasAggregate = (node: unknown): boolean =>
  Array.isArray(node)
    ? node.some(hasAggregate)
    : !!node && typeof node === 'object' && ((node as { k?: unknown }).k === 'agg' || Object.values(node).some(hasAggregate));

/**
 * A plan without aggregates read for its distinct keys (and outputs, grouped): a LEFT JOIN that
 * nothing else in it reads can only repeat rows, never drop or add a key, so it is left out. A
 * dataset's model joins every table of the dataset (订单分析: orders with users and provinces);
 * the engine would join them for a rule that reads orders only.
 */
export function withoutUnusedJoins(plan: CubePlan): CubePlan {
  const q = plan.query;
  if (q.k !== 'select' || q.having || q.joins.length === 0 || hasAggregate(q.columns)) return plan;
  const base = mentions([q.columns, q.where, q.orderBy], new Set());
  let joins = q.joins;
  for (;;) {
    const kept = joins.filter(
      (join, i) =>
        join.type !== 'LEFT_JOIN' || base.has(join.table.alias) || joins.some((other, j) => j !== i && mentions(other.on, new Set()).has(join.table.alias)),
    );
    if (kept.length === joins.length) break;
    joins = kept;
  }
  return joins.length === q.joins.length ? plan : { ...plan, query: { ...q, joins } };
}

/** A table operand as a plan of one dimension, so the set-operation fold treats it like a dataset. */
function tablePlan(dialect: Dialect, operand: MemberTableOperand): CubePlan {
  return {
    dialect,
    query: select({
      columns: [{ expr: { k: 'column', table: 't', column: operand.keyColumn }, alias: 'd0' }],
      from: { k: 'table', schema: operand.table.schema, name: operand.table.name, alias: 't' },
    }),
    count: null,
    fields: [{ alias: 'd0', fieldId: KEY_FIELD, title: KEY_FIELD, viewDataType: 'STRING', kind: 'dimension', aggregation: null, granularity: null }],
  };
}

function setOperand(dialect: Dialect, operand: MemberOperand): SetOperand {
  return operand.kind === 'plan'
    ? { plan: withoutUnusedJoins(operand.keyPlan), keyFieldId: operand.keyFieldId, op: operand.op }
    : { plan: tablePlan(dialect, operand), keyFieldId: KEY_FIELD, op: operand.op };
}

export function planMembers(dialect: Dialect, operands: readonly MemberOperand[]): { query: Query; columns: string[] } {
  if (operands.length === 0) throw queryError('request', 'keyFieldMissing');
  const { query: keys } = planSetOperation(operands.map((o) => setOperand(dialect, o)));

  // Output columns: c1 … in operand order; an operand of 差 never contributes a member.
  const outputs: { operand: MemberPlanOperand; aliases: string[]; first: number }[] = [];
  let total = 0;
  operands.forEach((operand, i) => {
    if (operand.kind !== 'plan' || !operand.outputPlan) return;
    if (i > 0 && operand.op === 'except') return;
    const aliases = operand.outputPlan.fields.slice(1).map((f) => f.alias);
    outputs.push({ operand, aliases, first: total });
    total += aliases.length;
  });
  const names = Array.from({ length: total }, (_, i) => `c${i + 1}`);
  if (total === 0) {
    return {
      query: select({ columns: [{ expr: alias(SET_KEY_ALIAS), alias: MEMBER_KEY_COLUMN }], from: { k: 'subquery', query: keys, alias: 'm' } }),
      columns: [MEMBER_KEY_COLUMN],
    };
  }

  // Every operand that can contribute a member gives its keys (with its outputs or blanks), so a
  // key of a 并 operand without outputs is not lost.
  const branches: SelectQuery[] = [];
  operands.forEach((operand, i) => {
    if (i > 0 && operand.op === 'except') return;
    const withOutputs = outputs.find((o) => o.operand === operand);
    const plan = withOutputs ? withoutUnusedJoins(withOutputs.operand.outputPlan!) : setOperand(dialect, operand).plan;
    const keyAlias = plan.fields[0]!.alias;
    const columns: SelectQuery['columns'] = [{ expr: alias(keyAlias), alias: SET_KEY_ALIAS }];
    names.forEach((name, c) => {
      const own =
        withOutputs && c >= withOutputs.first && c < withOutputs.first + withOutputs.aliases.length ? withOutputs.aliases[c - withOutputs.first]! : null;
      const expr: Expr = own ? { k: 'call', fn: 'TO_STRING', args: [alias(own)] } : str('', true);
      columns.push({ expr, alias: name });
    });
    branches.push(
      select({
        columns,
        from: { k: 'subquery', query: plan.query, alias: `b${branches.length + 1}` },
        where: { k: 'isNull', arg: alias(keyAlias), negated: true },
      }),
    );
  });
  const union = branches.slice(1).reduce<Query>((left, right) => ({ k: 'setop', op: 'UNION ALL', left, right }), branches[0]!);
  const query = select({
    columns: [
      { expr: alias(SET_KEY_ALIAS), alias: MEMBER_KEY_COLUMN },
      ...names.map((name) => ({ expr: { k: 'agg', fn: 'MAX', arg: alias(name) } as Expr, alias: name })),
    ],
    from: { k: 'subquery', query: union, alias: 'u' },
    where: { k: 'inQuery', arg: alias(SET_KEY_ALIAS), query: keys, negated: false },
    groupBy: [1],
  });
  return { query, columns: [MEMBER_KEY_COLUMN, ...names] };
}

/** The member statement, its count and (where the engine can) its one-statement preview, rendered for the operands' dialect. */
export function compileMembers(dialect: Dialect, operands: readonly MemberOperand[], previewRows = 100): CompiledMembers {
  const { query, columns } = planMembers(dialect, operands);
  const count = renderQuery(
    select({ columns: [{ expr: { k: 'agg', fn: 'COUNT', arg: null }, alias: 'total' }], from: { k: 'subquery', query, alias: 'a' } }),
    dialect,
  );
  const rendered = renderQuery(query, dialect);
  // The window wraps the rendered statement: no new bound value, so its placeholders stay as they are.
  const q = (name: string) => dialect.quoteIdentifier(name);
  // `COUNT(*) OVER ()` where the engine has window functions (a capability, not a name): not ClickHouse 18.16.
  const preview = dialect.capabilities.windowFunctions
    ? {
        sql: `SELECT ${columns.map((c) => `${q('a')}.${q(c)}`).join(', ')}, COUNT(*) OVER () AS ${q(MEMBER_TOTAL_COLUMN)} FROM (${rendered.sql}) ${q('a')} LIMIT ${Math.max(1, Math.floor(previewRows))}`,
        params: rendered.params,
      }
    : null;
  return { ...rendered, columns, count, preview };
}
