import { TIME_UNITS, type AggregationType, type TimeUnit } from '@shutu/contracts';
import { str, type Expr, type SqlType } from '../ast.ts';
import { supportsFunction } from '../dialects/index.ts';
import type { Dialect } from '../dialects/types.ts';
import { formulaError } from '../errors.ts';
import type { ModelField } from '../model.ts';
import { absolutePeriod } from '../time.ts';
import { functionSpec } from './functions.ts';
import { tokenize } from './lexer.ts';
import { parseFormula, type FormulaNode } from './parser.ts';

/** A formula (or a field) turned into a query-tree expression. */
export interface Lowered {
  expr: Expr;
  type: SqlType;
  /** Contains an aggregate function (itself or through a referenced field). */
  aggregate: boolean;
  /** Keys of every field it reads, directly or through other computed fields. */
  deps: ReadonlySet<string>;
}

/** A global parameter's value as a request gives it (a list stands for its first element). */
export type FormulaParamValue = string | number | readonly (string | number)[] | null;
/** Global parameter values by paramKey. */
export type FormulaParams = Readonly<Record<string, FormulaParamValue | undefined>>;

export interface FormulaScope {
  /** Resolves `[title]` / `{id}`; throws a positioned error for an unknown field. */
  field(by: 'title' | 'id', key: string, pos: number): { field: ModelField; lowered: Lowered };
  /** null: check names and types only (no dialect allow-list). */
  dialect: Dialect | null;
  /** Values of the global parameters `${key}` reads; a key without a value reads NULL. */
  params?: FormulaParams;
}

/**
 * The value a parameter reference reads: the given value, the first element of a list;
 * null when the key has no value (absent, null, '' or an empty list).
 */
export function paramValue(params: FormulaParams | undefined, key: string): string | number | null {
  const given = params && Object.hasOwn(params, key) ? params[key] : undefined;
  const value = Array.isArray(given) ? (given as readonly (string | number)[])[0] : (given as string | number | null | undefined);
  if (value === undefined || value === null || value === '') return null;
  return typeof value === 'number' || typeof value === 'string' ? value : null;
}

/** A parameter reference of a formula: its key, where it is, whether written quoted. */
export interface FormulaParamRef {
  key: string;
  pos: number;
  quoted: boolean;
}

/** The global parameters a formula references, in order (a key once per reference); throws a positioned error for text that does not tokenize. */
export function formulaParamRefs(formula: string): FormulaParamRef[] {
  return tokenize(formula)
    .filter((t) => t.type === 'param')
    .map((t) => ({ key: t.value, pos: t.pos, quoted: t.quoted === true }));
}

interface Walk extends Lowered {
  /** Position of a field read outside any aggregate (not allowed next to aggregates). */
  bare: number | null;
}

const ARITH = new Set(['+', '-', '*', '/']);
const numeric = (t: SqlType) => t === 'NUMBER' || t === 'ANY';

export function compileFormula(text: string, scope: FormulaScope): Lowered {
  const result = new Lowerer(scope).walk(parseFormula(text), false);
  if (result.aggregate && result.bare !== null) throw formulaError(result.bare, '聚合函数之外的字段须放在聚合函数内');
  return { expr: result.expr, type: result.type, aggregate: result.aggregate, deps: result.deps };
}

/** Whether the formula aggregates; `isAggregateField` answers for referenced computed fields. */
export function formulaHasAggregation(formula: string, isAggregateField: (by: 'title' | 'id', key: string) => boolean = () => false): boolean {
  const visit = (n: FormulaNode): boolean => {
    switch (n.t) {
      case 'call':
        return !!functionSpec(n.name)?.aggregate || n.args.some(visit);
      case 'field':
        return isAggregateField(n.by, n.key);
      case 'neg':
      case 'not':
      case 'isNull':
        return visit(n.arg);
      case 'bin':
        return visit(n.left) || visit(n.right);
      case 'in':
        return visit(n.arg) || n.list.some(visit);
      case 'between':
        return visit(n.arg) || visit(n.low) || visit(n.high);
      case 'case':
        return (n.operand !== null && visit(n.operand)) || n.whens.some((w) => visit(w.when) || visit(w.then)) || (n.else !== null && visit(n.else));
      default:
        return false;
    }
  };
  return visit(parseFormula(formula));
}

class Lowerer {
  constructor(private readonly scope: FormulaScope) {}

  private leaf(expr: Expr, type: SqlType): Walk {
    return { expr, type, aggregate: false, deps: new Set(), bare: null };
  }

  private merge(expr: Expr, type: SqlType, parts: Walk[]): Walk {
    const deps = new Set<string>();
    for (const p of parts) for (const d of p.deps) deps.add(d);
    return { expr, type, aggregate: parts.some((p) => p.aggregate), deps, bare: parts.find((p) => p.bare !== null)?.bare ?? null };
  }

  /** A string literal (or a parameter's text) next to a date is read as a timestamp. */
  private coerce(node: FormulaNode, walked: Walk, target: SqlType): Walk {
    if (target !== 'DATETIME' || walked.type !== 'STRING') return walked;
    let text: string;
    if (node.t === 'str') text = node.value;
    else if (node.t === 'param' && walked.expr.k === 'value') text = String(walked.expr.value);
    else if (node.t === 'param') return { ...walked, expr: { k: 'keyword', sql: 'NULL' }, type: 'DATETIME' };
    else return walked;
    const period = absolutePeriod(text);
    if (!period) throw formulaError(node.pos, '日期格式不正确');
    return { ...walked, expr: { k: 'timestamp', arg: str(period.start) }, type: 'DATETIME' };
  }

  /**
   * A global parameter: its value bound (a number as a number, text as text; the quoted form
   * always as text), or NULL without a value. A constant: it never counts as a bare field.
   */
  private param(n: FormulaNode & { t: 'param' }): Walk {
    const value = paramValue(this.scope.params, n.key);
    if (value === null) return n.quoted ? this.leaf({ k: 'typedNull', type: 'string' }, 'STRING') : this.leaf({ k: 'keyword', sql: 'NULL' }, 'ANY');
    if (n.quoted || typeof value === 'string') return this.leaf(str(String(value), true), 'STRING');
    return this.leaf({ k: 'value', value, type: 'number', standalone: true }, 'NUMBER');
  }

  private compatible(a: SqlType, b: SqlType, pos: number): void {
    if (a !== 'ANY' && b !== 'ANY' && a !== b) throw formulaError(pos, '比较的两边类型不一致');
  }

  walk(n: FormulaNode, inAggregate: boolean): Walk {
    switch (n.t) {
      case 'num':
        return this.leaf({ k: 'number', text: n.text }, 'NUMBER');
      case 'str':
        return this.leaf(str(n.value, true), 'STRING');
      case 'null':
        return this.leaf({ k: 'keyword', sql: 'NULL' }, 'ANY');
      case 'bool':
        return this.leaf({ k: 'keyword', sql: n.value ? 'TRUE' : 'FALSE' }, 'BOOLEAN');
      case 'param':
        return this.param(n);
      case 'field': {
        const { field, lowered } = this.scope.field(n.by, n.key, n.pos);
        if (inAggregate && lowered.aggregate) throw formulaError(n.pos, '聚合函数不能嵌套使用');
        const deps = new Set(lowered.deps);
        deps.add(field.key);
        const type = field.attr === 'VIRTUAL' ? field.viewDataType : lowered.type;
        return { expr: lowered.expr, type, aggregate: lowered.aggregate, deps, bare: inAggregate || lowered.aggregate ? null : n.pos };
      }
      case 'neg': {
        const arg = this.walk(n.arg, inAggregate);
        if (!numeric(arg.type)) throw formulaError(n.pos, '负号只能用于数值');
        return this.merge({ k: 'neg', arg: arg.expr }, 'NUMBER', [arg]);
      }
      case 'not': {
        const arg = this.walk(n.arg, inAggregate);
        return this.merge({ k: 'not', arg: arg.expr }, 'BOOLEAN', [arg]);
      }
      case 'bin': {
        let left = this.walk(n.left, inAggregate);
        let right = this.walk(n.right, inAggregate);
        if (ARITH.has(n.op)) {
          if (!numeric(left.type) || !numeric(right.type)) throw formulaError(n.pos, `“${n.op}”只能用于数值，日期请用日期函数，字符串请用CONCAT`);
          return this.merge({ k: 'arith', op: n.op as '+', left: left.expr, right: right.expr }, 'NUMBER', [left, right]);
        }
        if (n.op === 'AND' || n.op === 'OR') {
          return this.merge({ k: n.op === 'AND' ? 'and' : 'or', items: [left.expr, right.expr] }, 'BOOLEAN', [left, right]);
        }
        left = this.coerce(n.left, left, right.type);
        right = this.coerce(n.right, right, left.type);
        this.compatible(left.type, right.type, n.pos);
        return this.merge({ k: 'compare', op: n.op as '=', left: left.expr, right: right.expr }, 'BOOLEAN', [left, right]);
      }
      case 'isNull': {
        const arg = this.walk(n.arg, inAggregate);
        return this.merge({ k: 'isNull', arg: arg.expr, negated: n.negated }, 'BOOLEAN', [arg]);
      }
      case 'in': {
        const arg = this.walk(n.arg, inAggregate);
        const list = n.list.map((item) => {
          const w = this.coerce(item, this.walk(item, inAggregate), arg.type);
          this.compatible(arg.type, w.type, item.pos);
          return w;
        });
        return this.merge({ k: 'in', arg: arg.expr, list: list.map((w) => w.expr), negated: n.negated }, 'BOOLEAN', [arg, ...list]);
      }
      case 'between': {
        const arg = this.walk(n.arg, inAggregate);
        const [low, high] = [n.low, n.high].map((b) => {
          const w = this.coerce(b, this.walk(b, inAggregate), arg.type);
          this.compatible(arg.type, w.type, b.pos);
          return w;
        }) as [Walk, Walk];
        return this.merge({ k: 'between', arg: arg.expr, low: low.expr, high: high.expr, negated: n.negated }, 'BOOLEAN', [arg, low, high]);
      }
      case 'case':
        return this.caseExpr(n, inAggregate);
      case 'call':
        return this.call(n, inAggregate);
    }
  }

  private caseExpr(n: FormulaNode & { t: 'case' }, inAggregate: boolean): Walk {
    const operand = n.operand ? this.walk(n.operand, inAggregate) : null;
    const parts: Walk[] = operand ? [operand] : [];
    let type: SqlType = 'ANY';
    const result = (node: FormulaNode): Walk => {
      const w = this.walk(node, inAggregate);
      if (type !== 'ANY' && w.type !== 'ANY' && w.type !== type) throw formulaError(node.pos, 'CASE 各分支的结果类型须一致');
      if (type === 'ANY') type = w.type;
      parts.push(w);
      return w;
    };
    const whens: [Expr, Expr][] = n.whens.map(({ when, then }) => {
      let w = this.walk(when, inAggregate);
      if (operand) {
        w = this.coerce(when, w, operand.type);
        this.compatible(operand.type, w.type, when.pos);
      }
      parts.push(w);
      return [w.expr, result(then).expr];
    });
    const otherwise = n.else ? result(n.else).expr : null;
    return this.merge({ k: 'case', operand: operand?.expr ?? null, whens, else: otherwise }, type, parts);
  }

  private call(n: FormulaNode & { t: 'call' }, inAggregate: boolean): Walk {
    const spec = functionSpec(n.name);
    if (!spec) throw formulaError(n.pos, `未知的函数 ${n.name}`);
    if (this.scope.dialect && !supportsFunction(this.scope.dialect, spec.name)) throw formulaError(n.pos, `当前数据源不支持函数 ${spec.name}`);
    if ((n.star || n.distinct) && spec.name !== 'COUNT') throw formulaError(n.pos, `${n.star ? '*' : 'DISTINCT'} 只能用于 COUNT`);
    const argc = n.star ? 1 : n.args.length;
    if (argc < spec.minArgs || argc > spec.maxArgs) throw formulaError(n.pos, `函数 ${spec.name} 的参数个数不正确`);

    if (spec.aggregate) {
      if (inAggregate) throw formulaError(n.pos, '聚合函数不能嵌套使用');
      if (n.star) return { expr: { k: 'agg', fn: 'COUNT', arg: null }, type: 'NUMBER', aggregate: true, deps: new Set(), bare: null };
      const arg = this.walk(n.args[0]!, true);
      if (spec.numericArgs?.includes(0) && !numeric(arg.type)) throw formulaError(n.args[0]!.pos, `${spec.name} 只能用于数值`);
      const fn: AggregationType = n.distinct ? 'COUNT_DISTINCT' : (spec.name as AggregationType);
      return { ...this.merge({ k: 'agg', fn, arg: arg.expr }, spec.returns === 'arg:0' ? arg.type : 'NUMBER', [arg]), aggregate: true, bare: null };
    }

    if (spec.name === 'DATE_TRUNC') {
      const unitNode = n.args[0]!;
      const unit = unitNode.t === 'str' ? unitNode.value.toUpperCase() : '';
      if (!(TIME_UNITS as readonly string[]).includes(unit))
        throw formulaError(unitNode.pos, "时间粒度须为 'year'、'quarter'、'month'、'week'、'day' 或 'hour'");
      const arg = this.walk(n.args[1]!, inAggregate);
      if (arg.type !== 'DATETIME' && arg.type !== 'ANY') throw formulaError(n.args[1]!.pos, 'DATE_TRUNC 只能用于日期');
      return this.merge({ k: 'dateTrunc', unit: unit as TimeUnit, arg: arg.expr }, 'DATETIME', [arg]);
    }

    const args = n.args.map((a) => this.walk(a, inAggregate));
    for (const i of spec.numericArgs ?? []) {
      if (args[i] && !numeric(args[i]!.type)) throw formulaError(n.args[i]!.pos, `函数 ${spec.name} 的第${i + 1}个参数须为数值`);
    }
    const returns = spec.returns.startsWith('arg:') ? (args[Number(spec.returns.slice(4))]?.type ?? 'ANY') : (spec.returns as SqlType);
    if (spec.name === 'IF') {
      const [cond, a, b] = args as [Walk, Walk, Walk];
      if (a.type !== 'ANY' && b.type !== 'ANY' && a.type !== b.type) throw formulaError(n.args[2]!.pos, 'IF 两个结果的类型须一致');
      return this.merge({ k: 'case', operand: null, whens: [[cond.expr, a.expr]], else: b.expr }, a.type === 'ANY' ? b.type : a.type, args);
    }
    if (spec.name === 'CONCAT') {
      const bad = args.findIndex((a) => a.type !== 'STRING' && a.type !== 'ANY');
      if (bad >= 0) throw formulaError(n.args[bad]!.pos, 'CONCAT 的参数须为字符串，请先用 TO_STRING 转换');
      return this.merge({ k: 'concat', args: args.map((a) => a.expr) }, 'STRING', args);
    }
    return this.merge({ k: 'call', fn: spec.name, args: args.map((a) => a.expr) }, returns, args);
  }
}
