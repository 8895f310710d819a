import type { Expr, FromItem, Query, SelectQuery } from './ast.ts';
import { assertSafeText } from './dialects/base.ts';
import type { Dialect } from './dialects/types.ts';
import { queryError } from './errors.ts';

export type ParamValue = string | number;

export interface RenderedSql {
  sql: string;
  /** Bound values in placeholder order; empty for a dialect without server-side parameters. */
  params: ParamValue[];
  /**
   * The most rows the statement can return, by its own outer LIMIT (absent without one): a
   * driver may then read the result whole in one step instead of streaming it.
   */
  rowLimit?: number;
}

/** Renders a query tree for one dialect. The only place SQL text is assembled. */
export function renderQuery(query: Query, dialect: Dialect): RenderedSql {
  const renderer = new Renderer(dialect);
  const rendered: RenderedSql = { sql: renderer.query(query), params: renderer.params };
  if (query.k === 'select' && query.limit !== null) rendered.rowLimit = query.limit;
  return rendered;
}

/** Renders a lone expression (tests, diagnostics). */
export function renderExpr(expr: Expr, dialect: Dialect): RenderedSql {
  const renderer = new Renderer(dialect);
  return { sql: renderer.expr(expr), params: renderer.params };
}

const PRECEDENCE: Record<string, number> = { '*': 5, '/': 5, '+': 4, '-': 4, '=': 3, '<>': 3, '<': 3, '<=': 3, '>': 3, '>=': 3 };
const NUMBER_TEXT = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
const ATOMIC = new Set<Expr['k']>([
  'column',
  'alias',
  'value',
  'typedNull',
  'number',
  'keyword',
  'call',
  'agg',
  'concat',
  'dateTrunc',
  'timestamp',
  'case',
  'sketchHash',
  'sketchEstimate',
  'dayOf',
]);

/** The SQL text of a number; refuses anything that is not a plain finite number. */
export function numberLiteral(value: string | number): string {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  if (!NUMBER_TEXT.test(text)) throw queryError('value', 'filterValueNumber', { name: String(value).slice(0, 20) });
  return text.startsWith('-') ? `(${text})` : text;
}

class Renderer {
  readonly params: ParamValue[] = [];
  constructor(private readonly d: Dialect) {}

  private q(name: string): string {
    return this.d.quoteIdentifier(name);
  }

  private value(value: string | number, type: 'string' | 'number'): string {
    if (type === 'number') {
      const literal = numberLiteral(value);
      if (!this.d.capabilities.serverSideParameters) return literal;
      this.params.push(value);
    } else {
      const text = String(value);
      assertSafeText(text, this.d.capabilities.nulInStrings);
      if (!this.d.capabilities.serverSideParameters) return this.d.escapeString(text);
      this.params.push(text);
    }
    return this.d.placeholder(this.params.length);
  }

  /**
   * An expression placed next to an operator: parenthesised unless self-delimiting, or an
   * arithmetic operand that binds at least as tightly (left-associative on the left side).
   * A negation is always parenthesised, so `-` never meets `-` (a comment in SQL).
   */
  private operand(e: Expr, parent?: { op: string; side: 'left' | 'right' }): string {
    const sql = this.expr(e);
    if (ATOMIC.has(e.k)) return sql;
    if (parent && e.k === 'arith' && e.op !== '/') {
      const [mine, theirs] = [PRECEDENCE[e.op] ?? 0, PRECEDENCE[parent.op] ?? 0];
      if (mine > theirs || (mine === theirs && parent.side === 'left')) return sql;
    }
    return `(${sql})`;
  }

  private binary(op: string, left: Expr, right: Expr): string {
    return `${this.operand(left, { op, side: 'left' })} ${op} ${this.operand(right, { op, side: 'right' })}`;
  }

  expr(e: Expr): string {
    switch (e.k) {
      case 'column':
        return `${this.q(e.table)}.${this.q(e.column)}`;
      case 'alias':
        return this.q(e.name);
      case 'value': {
        const sql = this.value(e.value, e.type);
        if (!e.standalone) return sql;
        return e.type === 'string' ? this.d.stringValue(sql) : this.d.numberValue(sql);
      }
      case 'typedNull':
        return e.type === 'string' ? this.d.stringValue('NULL') : this.d.numberValue('NULL');
      case 'number':
        if (!/^[0-9]+(\.[0-9]+)?$/.test(e.text)) throw queryError('value', 'filterValueNumber', { name: e.text.slice(0, 20) });
        return e.text;
      case 'keyword':
        return e.sql;
      case 'neg':
        return `-${this.operand(e.arg)}`;
      case 'not':
        return `NOT ${this.operand(e.arg)}`;
      case 'arith':
        if (e.op === '/') return this.d.divide(this.operand(e.left, { op: '/', side: 'left' }), this.operand(e.right, { op: '/', side: 'right' }));
        return this.binary(e.op, e.left, e.right);
      case 'compare':
        return this.binary(e.op, e.left, e.right);
      case 'and':
      case 'or':
        return e.items.map((i) => (i.k === 'and' || i.k === 'or' ? `(${this.expr(i)})` : this.expr(i))).join(e.k === 'and' ? ' AND ' : ' OR ');
      case 'isNull':
        return `${this.operand(e.arg)} IS ${e.negated ? 'NOT ' : ''}NULL`;
      case 'in':
        return `${this.operand(e.arg)} ${e.negated ? 'NOT ' : ''}IN (${e.list.map((x) => this.expr(x)).join(', ')})`;
      case 'inQuery':
        return `${this.operand(e.arg)} ${e.negated ? 'NOT ' : ''}IN (${this.query(e.query)})`;
      case 'between':
        return `${this.operand(e.arg)} ${e.negated ? 'NOT ' : ''}BETWEEN ${this.operand(e.low)} AND ${this.operand(e.high)}`;
      case 'case': {
        const parts = ['CASE'];
        if (e.operand) parts.push(this.expr(e.operand));
        for (const [when, then] of e.whens) parts.push(`WHEN ${this.expr(when)} THEN ${this.expr(then)}`);
        if (e.else) parts.push(`ELSE ${this.expr(e.else)}`);
        parts.push('END');
        return parts.join(' ');
      }
      case 'call': {
        const render = Object.hasOwn(this.d.functions, e.fn) ? this.d.functions[e.fn] : undefined;
        if (!render) throw queryError('formula', 'functionUnsupported', { name: e.fn });
        return render(e.args.map((a) => this.expr(a)));
      }
      case 'agg':
        if (e.arg === null) return 'COUNT(*)';
        if (e.fn === 'COUNT_DISTINCT') return this.d.countDistinct(this.expr(e.arg));
        if (e.fn === 'APPROX_COUNT_DISTINCT') return this.d.approxCountDistinct(this.expr(e.arg));
        return `${e.fn}(${this.expr(e.arg)})`;
      case 'concat':
        return this.d.concat(e.args.map((a) => this.operand(a)));
      case 'dateTrunc':
        return this.d.dateTrunc(e.unit, this.expr(e.arg));
      case 'timestamp':
        return this.d.timestamp(this.expr(e.arg));
      case 'like': {
        const caps = this.d.capabilities;
        if (caps.ilike) return `${this.operand(e.arg)} ILIKE ${this.operand(e.pattern)}${this.d.likeEscape}`;
        if (caps.likeIgnoresCase) return `${this.operand(e.arg)} LIKE ${this.operand(e.pattern)}${this.d.likeEscape}`;
        const lower = this.d.functions.LOWER ?? ((args: string[]) => `LOWER(${args.join(', ')})`);
        return `${lower([this.expr(e.arg)])} LIKE ${lower([this.expr(e.pattern)])}${this.d.likeEscape}`;
      }
      case 'contains':
        return this.d.contains(this.expr(e.haystack), this.expr(e.needle));
      case 'dayOf':
        if (!this.d.dayOf) throw new Error(`dayOf: not available for ${this.d.name}`);
        return this.d.dayOf(this.expr(e.arg));
      case 'sketchHash':
      case 'sketchEstimate': {
        const sketch = this.d.sketch;
        if (!sketch || !Number.isInteger(e.bits) || e.bits < 4 || e.bits > 18) throw new Error(`${e.k}: not available for ${this.d.name}`);
        if (e.k === 'sketchEstimate') return sketch.estimate(this.expr(e.register), e.bits);
        return e.part === 'bucket' ? sketch.bucket(this.expr(e.arg), e.bits) : sketch.register(this.expr(e.arg), e.bits);
      }
    }
  }

  private from(f: FromItem): string {
    if (f.k === 'subquery') return `(${this.query(f.query)}) AS ${this.q(f.alias)}`;
    // A line break before the parenthesis: the statement may end in a `--` comment.
    if (f.k === 'derived') return `(${f.sql}\n) AS ${this.q(f.alias)}`;
    return `${f.schema ? `${this.q(f.schema)}.` : ''}${this.q(f.name)} AS ${this.q(f.alias)}`;
  }

  private tableAsSubquery(f: Extract<FromItem, { k: 'table' }>): string {
    return `(SELECT * FROM ${f.schema ? `${this.q(f.schema)}.` : ''}${this.q(f.name)}) AS ${this.q(f.alias)}`;
  }

  query(query: Query): string {
    if (query.k === 'setop') {
      const side = (q: Query) => (q.k === 'setop' ? `(${this.query(q)})` : this.query(q));
      return `${side(query.left)} ${query.op} ${side(query.right)}`;
    }
    return this.select(query);
  }

  private select(s: SelectQuery): string {
    const caps = this.d.capabilities;
    const columns = s.columns.map((c) => `${this.expr(c.expr)} AS ${this.q(c.alias)}`).join(', ');
    // A JOIN's first table read as a subquery where the engine needs it (capability joinFromSubquery).
    const first = s.joins.length > 0 && caps.joinFromSubquery && s.from.k === 'table' ? this.tableAsSubquery(s.from) : this.from(s.from);
    let sql = `SELECT ${s.distinct ? 'DISTINCT ' : ''}${columns} FROM ${first}`;
    for (const j of s.joins) sql += ` ${this.d.joinKeyword(j.type)} ${this.from(j.table)} ON ${this.expr(j.on)}`;
    if (s.where) sql += ` WHERE ${this.expr(s.where)}`;
    if (s.groupBy.length > 0) {
      const keys = s.groupBy.map((pos) => {
        if (caps.groupByOrdinal) return String(pos);
        const column = s.columns[pos - 1];
        if (!column) throw new Error(`GROUP BY position ${pos} out of range`);
        return this.expr(column.expr);
      });
      sql += ` GROUP BY ${keys.join(', ')}`;
    }
    if (s.having) sql += ` HAVING ${this.expr(s.having)}`;
    if (s.orderBy.length > 0) {
      const items = s.orderBy.map((o) => {
        const dir = o.desc ? 'DESC' : 'ASC';
        if (caps.nullsLast) return `${this.expr(o.expr)} ${dir} NULLS LAST`;
        // Without NULLS LAST, NULL sorts lowest: last already when descending.
        if (o.desc) return `${this.expr(o.expr)} DESC`;
        return `${this.operand(o.nullsKey ?? o.expr)} IS NULL, ${this.expr(o.expr)} ASC`;
      });
      sql += ` ORDER BY ${items.join(', ')}`;
    }
    const tail = this.d.limitOffset(s.limit, s.offset);
    if (tail) sql += ` ${tail}`;
    return sql;
  }
}
