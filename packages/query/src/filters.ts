import { LIST_FILTER_FUNCTIONS, type FilterGroupParsed, type TimeUnit } from '@shutu/contracts';
import { allOf, anyOf, cmp, num, str, type Expr, type SqlType } from './ast.ts';
import { queryError } from './errors.ts';
import { measureExpr, lowerField, type FieldResolver } from './fields.ts';
import type { ModelField } from './model.ts';
import { absolutePeriod, bucketPeriod, relativePeriod, spanOf, type Period } from './time.ts';

type Group = FilterGroupParsed;
type Item = Group['conditions'][number];
type Condition = Item['conditions'][number];

export interface FilterContext {
  resolver: FieldResolver;
  /** where: row conditions; having: conditions on aggregated values. */
  mode: 'where' | 'having';
  now: Date;
  timeZoneOffsetMinutes: number;
  /** Told of every field a filter reads (the permission check); null for row filters. */
  onRead: ((field: ModelField, deps: ReadonlySet<string>) => void) | null;
}

/**
 * A filter tree (spec 2 §3 "Dataset permission filter", spec 3 §5 "Filter trees") as one
 * predicate: items and nested groups joined by the group's relation, each item's
 * conditions joined by its connectType. Empty groups yield null (no predicate).
 */
export function compileFilterTree(group: Group | null | undefined, ctx: FilterContext): Expr | null {
  if (!group) return null;
  const parts = [...group.conditions.map((item) => compileItem(item, ctx)), ...group.filters.map((sub) => compileFilterTree({ ...sub, filters: [] }, ctx))];
  return group.relation === 'OR' ? anyOf(parts) : allOf(parts);
}

function compileItem(item: Item, ctx: FilterContext): Expr | null {
  const { field, lowered } = lowerField(ctx.resolver, item.cubeColumnId);
  ctx.onRead?.(field, lowered.deps);
  let expr = lowered.expr;
  let type: SqlType = field.attr === 'VIRTUAL' ? field.viewDataType : lowered.type;
  if (ctx.mode === 'where' && lowered.aggregate) throw queryError('request', 'aggregateInWhere', { name: field.title });
  if (ctx.mode === 'having') ({ expr, type } = measureExpr(field, lowered, item.aggregation ?? null));
  if (item.conditions.length > 1 && item.conditions.some((c) => LIST_FILTER_FUNCTIONS.includes(c.function))) throw queryError('request', 'filterListSingle');
  const unit = item.dateType ?? null;
  const parts = item.conditions.map((c) => condition(c, expr, type, field.title, unit, ctx));
  return item.connectType === 'or' ? anyOf(parts) : allOf(parts);
}

const NUMBER_TEXT = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
const COMPARE = { eq: '=', gt: '>', ge: '>=', lt: '<', le: '<=' } as const;

function numberValue(v: string | number, name: string): string | number {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw queryError('value', 'filterValueNumber', { name });
    return v;
  }
  const text = v.trim();
  if (!NUMBER_TEXT.test(text)) throw queryError('value', 'filterValueNumber', { name });
  // Integers beyond 2^53 stay text so no digit is lost; the engine reads them as numbers.
  return /^-?[0-9]+$/.test(text) && !Number.isSafeInteger(Number(text)) ? text : Number(text);
}

const ts = (value: string): Expr => ({ k: 'timestamp', arg: str(value) });
const likeContains = (v: string) => `%${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function condition(c: Condition, expr: Expr, type: SqlType, name: string, itemUnit: TimeUnit | null, ctx: FilterContext): Expr {
  const fn = c.function;
  if (fn === 'isnull' || fn === 'notnull') return { k: 'isNull', arg: expr, negated: fn === 'notnull' };
  const values = c.values.filter((v): v is string | number => v !== null);
  const need = fn === 'between' && c.timeType !== 'relative' ? 2 : 1;
  if (values.length < need) throw queryError('request', 'filterValueMissing', { name });
  const bad = () => queryError('request', 'filterFunctionType', { name, fn });

  if (c.timeType === 'relative') {
    if (type !== 'DATETIME') throw queryError('request', 'filterRelativeNeedsDate', { name });
    return periodPredicate(fn, expr, relativePeriods(c, values, itemUnit, name, ctx), bad);
  }
  if (c.granularity && type !== 'DATETIME') throw queryError('request', 'filterBucketNeedsDate', { name });
  if (type === 'DATETIME') {
    const bucket = c.granularity;
    const periods = values.map((v) => {
      const p = bucket ? bucketPeriod(String(v), bucket) : absolutePeriod(String(v));
      if (!p) throw queryError('value', 'filterValueDate', { name });
      return p;
    });
    return periodPredicate(fn, expr, periods, bad);
  }
  const numeric = type === 'NUMBER';
  const value = (v: string | number): Expr => (numeric ? num(numberValue(v, name)) : str(String(v)));
  switch (fn) {
    case 'eq':
    case 'gt':
    case 'ge':
    case 'lt':
    case 'le':
      return cmp(COMPARE[fn], expr, value(values[0]!));
    case 'between':
      return { k: 'between', arg: expr, low: value(values[0]!), high: value(values[1]!), negated: false };
    case 'in':
    case 'notIn':
      return { k: 'in', arg: expr, list: values.map(value), negated: fn === 'notIn' };
    case 'like':
      if (numeric) throw bad();
      return { k: 'like', arg: expr, pattern: str(likeContains(String(values[0]))) };
    case 'indexIn':
      if (numeric) throw bad();
      return anyOf(values.map((v) => ({ k: 'contains', haystack: expr, needle: str(String(v)) }) as Expr))!;
  }
}

/** Relative values: whole units before (countType left) or after (right) the current one. */
function relativePeriods(c: Condition, values: (string | number)[], itemUnit: TimeUnit | null, name: string, ctx: FilterContext): Period[] {
  const unit = c.dateType ?? itemUnit ?? 'DAY';
  const sign = c.countType === 'left' ? -1 : 1;
  const counts = values.slice(0, 2).map((v) => {
    const n = typeof v === 'number' ? v : /^\s*[0-9]+\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < 0 || n > 100_000) throw queryError('value', 'filterValueNumber', { name });
    return n;
  });
  const at = (offset: number) => {
    const p = relativePeriod(ctx.now, unit, offset, ctx.timeZoneOffsetMinutes);
    if (!/^\d{4}-/.test(p.start) || !/^\d{4}-/.test(p.end)) throw queryError('value', 'filterValueDate', { name });
    return p;
  };
  if (c.function !== 'between') return counts.map((n) => at(sign * n));
  // between [N]: the last (or next) N units including the current one; [a, b]: from a to b units away.
  const [a, b] = counts.length === 1 ? [Math.max(counts[0]! - 1, 0), 0] : (counts as [number, number]);
  const span = spanOf(at(sign * a), at(sign * b));
  return [span, span];
}

/** A condition on periods: eq is "within", gt "after", ge "from", lt "before", le "up to". */
function periodPredicate(fn: Condition['function'], expr: Expr, periods: Period[], bad: () => Error): Expr {
  const [first, second] = periods as [Period, Period | undefined];
  const within = (p: Period) => allOf([cmp('>=', expr, ts(p.start)), cmp('<', expr, ts(p.end))])!;
  switch (fn) {
    case 'eq':
      return within(first);
    case 'gt':
      return cmp('>=', expr, ts(first.end));
    case 'ge':
      return cmp('>=', expr, ts(first.start));
    case 'lt':
      return cmp('<', expr, ts(first.start));
    case 'le':
      return cmp('<', expr, ts(first.end));
    case 'between':
      return within(spanOf(first, second ?? first));
    case 'in':
      return anyOf(periods.map(within))!;
    case 'notIn':
      return { k: 'not', arg: anyOf(periods.map(within))! };
    default:
      throw bad();
  }
}
