import {
  APP_USE_RANGES,
  NUMBER_FUNCS,
  RULE_MEASURES,
  shiftMonth,
  TEXT_FUNCS,
  tagMessages,
  type TagCondition,
  type TagRuleDetail,
  type TagRules,
} from '@shutu/contracts';
import { renderQuery, type Dialect, type Expr, type Query, type RenderedSql, type SelectQuery } from '@shutu/query';
import { fieldError } from '../../platform/http/errors.ts';

/**
 * The tag-driven audience as one statement (spec 3 §3 "Tag-driven audience", §5 "Filter trees",
 * §9): each rule is a query of the phones it selects, and the rules are combined by INTERSECT
 * ('and') or UNION ('or') — or IN / UNION ALL + DISTINCT where the engine lacks them. The tree is
 * rendered by packages/query for the warehouse's dialect, so every value is bound or escaped there.
 * The result has one column, `k` (the phone).
 */

export const KEY = 'k';

const col = (table: string, column: string): Expr => ({ k: 'column', table, column });
const str = (value: string): Expr => ({ k: 'value', value, type: 'string' });
const numValue = (value: number): Expr => ({ k: 'value', value, type: 'number' });
const and = (items: (Expr | null)[]): Expr | null => {
  const kept = items.filter((x): x is Expr => x !== null);
  return kept.length === 0 ? null : kept.length === 1 ? kept[0]! : { k: 'and', items: kept };
};
const or = (items: Expr[]): Expr => (items.length === 1 ? items[0]! : { k: 'or', items });
const inList = (arg: Expr, values: string[]): Expr => ({ k: 'in', arg, list: values.map(str), negated: false });
/** The first instant of a yyyy-MM month, as a timestamp. */
const monthStart = (month: string): Expr => ({ k: 'timestamp', arg: str(`${month}-01 00:00:00`) });

function select(partial: Partial<SelectQuery> & Pick<SelectQuery, 'columns' | 'from'>): SelectQuery {
  return { k: 'select', distinct: false, joins: [], where: null, groupBy: [], having: null, orderBy: [], limit: null, offset: null, ...partial };
}

const OPS = { eq: '=', gt: '>', ge: '>=', lt: '<', le: '<=' } as const;

/** A rule's conditions as checks of `measure`, refused with the spec's wording when they do not fit the rule. */
function conditionsOf(rule: TagRuleDetail, index: number, measure: Expr, scale = 1): Expr | null {
  const kind = RULE_MEASURES[rule.type].kind;
  const field = `rules.ruledetails.${index}.conditions`;
  const checks = rule.conditions.map((c: TagCondition): Expr => {
    if (kind === 'none') throw fieldError(field, tagMessages.conditionFunc);
    if (kind === 'text') {
      if (!(TEXT_FUNCS as readonly string[]).includes(c.func)) throw fieldError(field, tagMessages.conditionFunc);
      if (!c.val) throw fieldError(field, tagMessages.conditionText);
      if (c.func === 'like') return { k: 'like', arg: measure, pattern: str(`%${c.val.replace(/[\\%_]/g, (m) => `\\${m}`)}%`) };
      return { k: 'compare', op: '=', left: measure, right: str(c.val) };
    }
    if (!(NUMBER_FUNCS as readonly string[]).includes(c.func)) throw fieldError(field, tagMessages.conditionFunc);
    const n = Number(c.val);
    if (c.val === '' || !Number.isFinite(n) || Math.abs(n) > 1e12) throw fieldError(field, tagMessages.conditionValue);
    return { k: 'compare', op: OPS[c.func as keyof typeof OPS], left: measure, right: numValue(n * scale) };
  });
  return and(checks);
}

function requireValues(rule: TagRuleDetail, index: number): void {
  if (rule.values.length === 0) throw fieldError(`rules.ruledetails.${index}.values`, tagMessages.ruleValuesRequired.replace('{name}', rule.level2name));
}

/** Values of a tree carry their level as a prefix (t1:, t2:, p:, a:, b:); the rest are leaf ids. */
function split(values: string[], prefixes: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>([['', []], ...prefixes.map((p): [string, string[]] => [p, []])]);
  for (const v of values) {
    const prefix = prefixes.find((p) => v.startsWith(p));
    out.get(prefix ?? '')!.push(prefix ? v.slice(prefix.length) : v);
  }
  return out;
}

const phoneColumns = (table: string) => [{ expr: col(table, 'phone'), alias: KEY }];

/** The phones one rule selects over [start, end] (yyyy-MM, both included). */
export function ruleQuery(rule: TagRuleDetail, index: number, [start, end]: readonly [string, string]): SelectQuery {
  const field = `rules.ruledetails.${index}.values`;
  switch (rule.type) {
    case 'product':
    case 'channel': {
      const o = 'o';
      let match: Expr;
      if (rule.type === 'product') {
        const parts = split(rule.values, ['t1:', 't2:']);
        match = or(
          [
            parts.get('t1:')!.length ? inList(col(o, 'type_l1_name'), parts.get('t1:')!) : null,
            parts.get('t2:')!.length ? inList(col(o, 'type_l2_name'), parts.get('t2:')!) : null,
            parts.get('')!.length ? inList(col(o, 'spid'), parts.get('')!) : null,
          ].filter((x): x is Expr => x !== null),
        );
      } else {
        const parts = split(rule.values, ['b:']);
        match = or(
          [
            parts.get('b:')!.length ? inList(col(o, 'belongto'), parts.get('b:')!) : null,
            parts.get('')!.length ? inList(col(o, 'channel_id'), parts.get('')!) : null,
          ].filter((x): x is Expr => x !== null),
        );
      }
      const count: Expr = { k: 'agg', fn: 'COUNT', arg: null };
      return select({
        columns: phoneColumns(o),
        from: { k: 'table', schema: null, name: 'orders', alias: o },
        where: and([
          { k: 'compare', op: '=', left: col(o, 'status'), right: str('订购成功') },
          { k: 'compare', op: '>=', left: col(o, 'order_time'), right: monthStart(start) },
          { k: 'compare', op: '<', left: col(o, 'order_time'), right: monthStart(shiftMonth(end, -1)) },
          rule.values.length ? match : null,
        ]),
        groupBy: [1],
        having: conditionsOf(rule, index, count) ?? { k: 'compare', op: '>=', left: count, right: { k: 'number', text: '1' } },
      });
    }
    case 'tag': {
      requireValues(rule, index);
      conditionsOf(rule, index, { k: 'keyword', sql: 'NULL' });
      const ids = rule.values.map(Number);
      if (ids.some((n) => !Number.isInteger(n) || n <= 0)) throw fieldError(field, tagMessages.ruleValuesRequired.replace('{name}', rule.level2name));
      const t = 'ut';
      return select({
        distinct: true,
        columns: phoneColumns(t),
        from: { k: 'table', schema: null, name: 'user_tags', alias: t },
        where: and([
          { k: 'in', arg: col(t, 'tag_id'), list: ids.map(numValue), negated: false },
          { k: 'compare', op: '<=', left: col(t, 'start_month'), right: str(end) },
          { k: 'compare', op: '>=', left: col(t, 'end_month'), right: str(start) },
        ]),
      });
    }
    case 'appuse': {
      if (rule.values.length === 0 && rule.conditions.length === 0) requireValues(rule, index);
      const u = 'mu';
      const avg: Expr = { k: 'agg', fn: 'AVG', arg: col(u, 'flow_mb') };
      const ranges = rule.values.map((v): Expr => {
        const range = APP_USE_RANGES[Number(v) as keyof typeof APP_USE_RANGES];
        if (!range) throw fieldError(field, tagMessages.ruleValuesRequired.replace('{name}', rule.level2name));
        const low: Expr = { k: 'compare', op: '>=', left: avg, right: numValue(range.low) };
        return range.high === null ? low : { k: 'and', items: [low, { k: 'compare', op: '<', left: avg, right: numValue(range.high) }] };
      });
      return select({
        columns: phoneColumns(u),
        from: { k: 'table', schema: null, name: 'user_month_usage', alias: u },
        where: { k: 'between', arg: col(u, 'month'), low: str(start), high: str(end), negated: false },
        groupBy: [1],
        // Conditions are in G; the warehouse keeps MB (1G = 1000MB, as the ranges).
        having: and([ranges.length ? or(ranges) : null, conditionsOf(rule, index, avg, 1000)]),
      });
    }
    case 'area': {
      if (rule.values.length === 0 && rule.conditions.length === 0) requireValues(rule, index);
      const u = 'u';
      const parts = split(rule.values, ['p:', 'a:']);
      const match = [
        parts.get('p:')!.length ? inList(col(u, 'province'), parts.get('p:')!) : null,
        parts.get('a:')!.length ? inList(col(u, 'area'), parts.get('a:')!) : null,
        parts.get('')!.length ? inList(col(u, 'area'), parts.get('')!) : null,
      ].filter((x): x is Expr => x !== null);
      return select({
        columns: phoneColumns(u),
        from: { k: 'table', schema: null, name: 'users', alias: u },
        where: and([match.length ? or(match) : null, conditionsOf(rule, index, col(u, 'area'))]),
      });
    }
  }
}

/** The warehouse tables a rule type reads (a non-administrator needs a grant of each). */
export const RULE_TABLES: Record<TagRuleDetail['type'], string> = {
  product: 'orders',
  channel: 'orders',
  tag: 'user_tags',
  appuse: 'user_month_usage',
  area: 'users',
};

/**
 * Every rule's phones combined by the relationship: one query of the column `k`; with
 * `withinTable` (an imported audience's member table, spec 3 §3 importId) only its phones.
 */
export function tagAudienceQuery(rules: TagRules, dialect: Dialect, withinTable?: string): Query {
  const queries = rules.ruledetails.map((rule, i) => ruleQuery(rule, i, rule.date ?? rules.daterange));
  const native = dialect.capabilities.setOperations;
  const k: Expr = { k: 'alias', name: KEY };
  let acc: SelectQuery = queries[0]!;
  queries.slice(1).forEach((right, i) => {
    const as = `s${i + 1}`;
    const keyOnly = (query: Query): SelectQuery => select({ distinct: true, columns: [{ expr: k, alias: KEY }], from: { k: 'subquery', query, alias: as } });
    if (native) acc = keyOnly({ k: 'setop', op: rules.relationship === 'and' ? 'INTERSECT' : 'UNION', left: acc, right });
    else if (rules.relationship === 'or') acc = keyOnly({ k: 'setop', op: 'UNION ALL', left: acc, right });
    else acc = { ...keyOnly(acc), where: { k: 'inQuery', arg: k, query: right, negated: false } };
  });
  if (!withinTable) return acc;
  const members = select({ columns: [{ expr: col('m', 'phone'), alias: 'p' }], from: { k: 'table', schema: null, name: withinTable, alias: 'm' } });
  return select({
    distinct: true,
    columns: [{ expr: k, alias: KEY }],
    from: { k: 'subquery', query: acc, alias: 'r' },
    where: { k: 'inQuery', arg: k, query: members, negated: false },
  });
}

/** The audience's phones, rendered for the dialect. */
export function compileTagAudience(rules: TagRules, dialect: Dialect, withinTable?: string): RenderedSql {
  return renderQuery(tagAudienceQuery(rules, dialect, withinTable), dialect);
}

/** How many phones the rules select, rendered for the dialect. */
export function compileTagAudienceCount(rules: TagRules, dialect: Dialect, withinTable?: string): RenderedSql {
  const count = select({
    columns: [{ expr: { k: 'agg', fn: 'COUNT', arg: null }, alias: 'n' }],
    from: { k: 'subquery', query: tagAudienceQuery(rules, dialect, withinTable), alias: 'a' },
  });
  return renderQuery(count, dialect);
}
