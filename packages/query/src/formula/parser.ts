import { formulaError } from '../errors.ts';
import { tokenize, type Token } from './lexer.ts';

/**
 * Recursive-descent parser of ONE formula expression. Grammar, loosest binding first:
 *
 *   expr    := or
 *   or      := and ( OR and )*
 *   and     := not ( AND not )*
 *   not     := NOT not | pred
 *   pred    := sum [ cmpop sum | IS [NOT] NULL | [NOT] IN ( expr, ... ) | [NOT] BETWEEN sum AND sum ]
 *   sum     := product ( (+|-) product )*
 *   product := unary ( (*|/) unary )*
 *   unary   := - unary | + unary | primary
 *   primary := number | string | NULL | TRUE | FALSE | [title] | {id} | ${param} | '${param}' | ( expr )
 *            | CASE [expr] WHEN expr THEN expr ... [ELSE expr] END
 *            | NAME ( [DISTINCT] expr, ... )  |  COUNT ( * )
 *
 * Keywords and function names are case-insensitive. The result is a tree with the
 * position of every node; names are resolved later against the model and the dialect.
 */
export type BinaryOp = '+' | '-' | '*' | '/' | '=' | '<>' | '<' | '<=' | '>' | '>=' | 'AND' | 'OR';

export type FormulaNode =
  | { t: 'num'; text: string; pos: number }
  | { t: 'str'; value: string; pos: number }
  | { t: 'null'; pos: number }
  | { t: 'bool'; value: boolean; pos: number }
  | { t: 'field'; by: 'title' | 'id'; key: string; pos: number }
  /** A global parameter: `${key}`, or `'${key}'` (quoted: read as text). */
  | { t: 'param'; key: string; quoted: boolean; pos: number }
  | { t: 'neg'; arg: FormulaNode; pos: number }
  | { t: 'not'; arg: FormulaNode; pos: number }
  | { t: 'bin'; op: BinaryOp; left: FormulaNode; right: FormulaNode; pos: number }
  | { t: 'isNull'; arg: FormulaNode; negated: boolean; pos: number }
  | { t: 'in'; arg: FormulaNode; list: FormulaNode[]; negated: boolean; pos: number }
  | { t: 'between'; arg: FormulaNode; low: FormulaNode; high: FormulaNode; negated: boolean; pos: number }
  | { t: 'case'; operand: FormulaNode | null; whens: { when: FormulaNode; then: FormulaNode }[]; else: FormulaNode | null; pos: number }
  | { t: 'call'; name: string; args: FormulaNode[]; distinct: boolean; star: boolean; pos: number };

const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'IS', 'NULL', 'IN', 'BETWEEN', 'CASE', 'WHEN', 'THEN', 'ELSE', 'END', 'TRUE', 'FALSE', 'DISTINCT']);
const COMPARISONS = new Set(['=', '<>', '<', '<=', '>', '>=']);
const MAX_DEPTH = 64;

export function parseFormula(text: string): FormulaNode {
  if (text.trim() === '') throw formulaError(0, '公式不能为空');
  return new Parser(tokenize(text)).parse();
}

function showToken(t: Token): string {
  if (t.type === 'str') return `'${t.value}'`;
  if (t.type === 'param') return t.quoted ? `'$\{${t.value}}'` : `$\{${t.value}}`;
  return t.value;
}

class Parser {
  private i = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): FormulaNode {
    const node = this.expr();
    const rest = this.peek();
    if (rest.type !== 'eof') throw formulaError(rest.pos, '公式只能包含一个表达式');
    return node;
  }

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.i + offset, this.tokens.length - 1)]!;
  }
  private next(): Token {
    const t = this.peek();
    if (t.type !== 'eof') this.i++;
    return t;
  }
  private isOp(value: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.type === 'op' && t.value === value;
  }
  private isKw(value: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.type === 'ident' && t.value === value;
  }
  private expectOp(value: string): Token {
    if (!this.isOp(value)) throw this.unexpected(`缺少“${value}”`);
    return this.next();
  }
  private expectKw(value: string): Token {
    if (!this.isKw(value)) throw this.unexpected(`缺少${value}`);
    return this.next();
  }
  private unexpected(detail?: string) {
    const t = this.peek();
    if (t.type === 'eof') return formulaError(t.pos, detail ?? '公式不完整');
    return formulaError(t.pos, detail ?? `不应出现“${showToken(t)}”`);
  }

  private expr(): FormulaNode {
    if (++this.depth > MAX_DEPTH) throw formulaError(this.peek().pos, '公式嵌套层数过多');
    const node = this.or();
    this.depth--;
    return node;
  }

  private or(): FormulaNode {
    let left = this.and();
    while (this.isKw('OR')) {
      const pos = this.next().pos;
      left = { t: 'bin', op: 'OR', left, right: this.and(), pos };
    }
    return left;
  }

  private and(): FormulaNode {
    let left = this.not();
    while (this.isKw('AND')) {
      const pos = this.next().pos;
      left = { t: 'bin', op: 'AND', left, right: this.not(), pos };
    }
    return left;
  }

  private not(): FormulaNode {
    if (this.isKw('NOT')) {
      const pos = this.next().pos;
      if (++this.depth > MAX_DEPTH) throw formulaError(pos, '公式嵌套层数过多');
      const arg = this.not();
      this.depth--;
      return { t: 'not', arg, pos };
    }
    return this.pred();
  }

  private pred(): FormulaNode {
    const arg = this.sum();
    const t = this.peek();
    if (t.type === 'op' && COMPARISONS.has(t.value)) {
      this.next();
      return { t: 'bin', op: t.value as BinaryOp, left: arg, right: this.sum(), pos: t.pos };
    }
    if (this.isKw('IS')) {
      const pos = this.next().pos;
      const negated = this.isKw('NOT') ? (this.next(), true) : false;
      this.expectKw('NULL');
      return { t: 'isNull', arg, negated, pos };
    }
    const negated = this.isKw('NOT') && (this.isKw('IN', 1) || this.isKw('BETWEEN', 1));
    if (negated) this.next();
    if (this.isKw('IN')) {
      const pos = this.next().pos;
      this.expectOp('(');
      const list = [this.expr()];
      while (this.isOp(',')) {
        this.next();
        list.push(this.expr());
      }
      this.expectOp(')');
      return { t: 'in', arg, list, negated, pos };
    }
    if (this.isKw('BETWEEN')) {
      const pos = this.next().pos;
      const low = this.sum();
      this.expectKw('AND');
      return { t: 'between', arg, low, high: this.sum(), negated, pos };
    }
    return arg;
  }

  private sum(): FormulaNode {
    let left = this.product();
    while (this.isOp('+') || this.isOp('-')) {
      const t = this.next();
      left = { t: 'bin', op: t.value as BinaryOp, left, right: this.product(), pos: t.pos };
    }
    return left;
  }

  private product(): FormulaNode {
    let left = this.unary();
    while (this.isOp('*') || this.isOp('/')) {
      const t = this.next();
      left = { t: 'bin', op: t.value as BinaryOp, left, right: this.unary(), pos: t.pos };
    }
    return left;
  }

  private unary(): FormulaNode {
    if (this.isOp('-') || this.isOp('+')) {
      const t = this.next();
      if (++this.depth > MAX_DEPTH) throw formulaError(t.pos, '公式嵌套层数过多');
      const arg = this.unary();
      this.depth--;
      return t.value === '-' ? { t: 'neg', arg, pos: t.pos } : arg;
    }
    return this.primary();
  }

  private primary(): FormulaNode {
    const t = this.peek();
    switch (t.type) {
      case 'num':
        this.next();
        return { t: 'num', text: t.value, pos: t.pos };
      case 'str':
        this.next();
        return { t: 'str', value: t.value, pos: t.pos };
      case 'field':
        this.next();
        return { t: 'field', by: 'title', key: t.value, pos: t.pos };
      case 'fieldId':
        this.next();
        return { t: 'field', by: 'id', key: t.value, pos: t.pos };
      case 'param':
        this.next();
        return { t: 'param', key: t.value, quoted: t.quoted === true, pos: t.pos };
      case 'op':
        if (t.value === '(') {
          this.next();
          const inner = this.expr();
          this.expectOp(')');
          return inner;
        }
        throw this.unexpected();
      case 'ident':
        return this.identifier(t);
      default:
        throw this.unexpected();
    }
  }

  private identifier(t: Token): FormulaNode {
    if (t.value === 'NULL' || t.value === 'TRUE' || t.value === 'FALSE') {
      this.next();
      return t.value === 'NULL' ? { t: 'null', pos: t.pos } : { t: 'bool', value: t.value === 'TRUE', pos: t.pos };
    }
    if (t.value === 'CASE') return this.caseExpr();
    if (KEYWORDS.has(t.value)) throw this.unexpected();
    if (!this.isOp('(', 1)) throw formulaError(t.pos, `未知的标识符“${t.value}”，字段请写成[字段标题]`);
    this.next();
    this.next();
    const call: FormulaNode & { t: 'call' } = { t: 'call', name: t.value, args: [], distinct: false, star: false, pos: t.pos };
    if (this.isOp('*') && this.isOp(')', 1)) {
      this.next();
      this.next();
      call.star = true;
      return call;
    }
    if (this.isKw('DISTINCT')) {
      this.next();
      call.distinct = true;
    }
    if (!this.isOp(')')) {
      call.args.push(this.expr());
      while (this.isOp(',')) {
        this.next();
        call.args.push(this.expr());
      }
    }
    this.expectOp(')');
    return call;
  }

  private caseExpr(): FormulaNode {
    const pos = this.next().pos;
    if (this.isKw('END')) throw this.unexpected('CASE 至少需要一个 WHEN');
    const operand = this.isKw('WHEN') ? null : this.expr();
    const whens: { when: FormulaNode; then: FormulaNode }[] = [];
    while (this.isKw('WHEN')) {
      this.next();
      const when = this.expr();
      this.expectKw('THEN');
      whens.push({ when, then: this.expr() });
    }
    if (whens.length === 0) throw this.unexpected('CASE 至少需要一个 WHEN');
    let otherwise: FormulaNode | null = null;
    if (this.isKw('ELSE')) {
      this.next();
      otherwise = this.expr();
    }
    this.expectKw('END');
    return { t: 'case', operand, whens, else: otherwise, pos };
  }
}
