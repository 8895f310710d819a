import type { AggregationType, JoinType, TimeUnit, ViewDataType } from '@shutu/contracts';

/**
 * The one query tree every dialect renders (render.ts). Nothing here holds SQL text
 * written from user input: names are model identifiers (quoted by the dialect), user
 * values are `value` nodes (bound or escaped by the dialect), numbers are validated.
 */
export type SqlType = ViewDataType | 'BOOLEAN' | 'ANY';
export type CompareOp = '=' | '<>' | '<' | '<=' | '>' | '>=';
export type ArithOp = '+' | '-' | '*' | '/';

export type Expr =
  | { k: 'column'; table: string; column: string }
  /** An output column of the current or a derived query, by its alias. */
  | { k: 'alias'; name: string }
  /**
   * A user-supplied value: a bound parameter, or a literal escaped by the dialect.
   * `standalone`: no column beside it gives its type, so the dialect types it (stringValue / numberValue).
   */
  | { k: 'value'; value: string | number; type: 'string' | 'number'; standalone?: boolean }
  /** NULL of a type (a text parameter without a value). */
  | { k: 'typedNull'; type: 'string' | 'number' }
  /** A numeric literal written by the code or read by the formula lexer. */
  | { k: 'number'; text: string }
  | { k: 'keyword'; sql: 'NULL' | 'TRUE' | 'FALSE' }
  | { k: 'neg'; arg: Expr }
  | { k: 'not'; arg: Expr }
  | { k: 'arith'; op: ArithOp; left: Expr; right: Expr }
  | { k: 'compare'; op: CompareOp; left: Expr; right: Expr }
  | { k: 'and' | 'or'; items: Expr[] }
  | { k: 'isNull'; arg: Expr; negated: boolean }
  | { k: 'in'; arg: Expr; list: Expr[]; negated: boolean }
  | { k: 'inQuery'; arg: Expr; query: Query; negated: boolean }
  | { k: 'between'; arg: Expr; low: Expr; high: Expr; negated: boolean }
  | { k: 'case'; operand: Expr | null; whens: [Expr, Expr][]; else: Expr | null }
  /** A catalogue function, rendered by the dialect's function map. */
  | { k: 'call'; fn: string; args: Expr[] }
  /** `arg` null: COUNT(*). */
  | { k: 'agg'; fn: AggregationType; arg: Expr | null }
  | { k: 'concat'; args: Expr[] }
  | { k: 'dateTrunc'; unit: TimeUnit; arg: Expr }
  /** A 'YYYY-MM-DD HH:mm:ss' value read as a timestamp. */
  | { k: 'timestamp'; arg: Expr }
  /** Case-insensitive LIKE; the pattern escapes % _ and \ with a backslash. */
  | { k: 'like'; arg: Expr; pattern: Expr }
  /** Substring test: `needle` occurs in `haystack`. */
  | { k: 'contains'; haystack: Expr; needle: Expr }
  /**
   * A 64-bit hash of `arg`: its low `bits` bits (the bucket), or the register, an aggregate: the
   * least of the rest of the hashes of the non-NULL values (sketch.ts; dialect `sketch`).
   */
  | { k: 'sketchHash'; part: 'bucket' | 'register'; arg: Expr; bits: number }
  /** The HyperLogLog estimate of a group's registers (each the minimum of the rest of the hashes in its bucket). */
  | { k: 'sketchEstimate'; register: Expr; bits: number }
  /** The calendar day of a date or timestamp, of its type (day-rollup.ts; dialect `dayOf`). */
  | { k: 'dayOf'; arg: Expr };

export interface TableRef {
  k: 'table';
  schema: string | null;
  name: string;
  alias: string;
}
export interface SubqueryRef {
  k: 'subquery';
  query: Query;
  alias: string;
}
/**
 * A saved SQL view read as a derived table: `sql` is the view's statement as the server's SQL
 * guard accepted it (never text from a request), placed in parentheses under `alias`.
 */
export interface DerivedRef {
  k: 'derived';
  sql: string;
  alias: string;
}
export type FromItem = TableRef | SubqueryRef | DerivedRef;

export interface JoinClause {
  type: JoinType;
  table: FromItem;
  on: Expr;
}

export interface OrderItem {
  expr: Expr;
  desc: boolean;
  /**
   * What `IS NULL` tests where NULLS LAST must be emulated (default: `expr`). An alias of
   * an aggregate cannot appear inside an ORDER BY expression in MySQL / MariaDB, so a
   * measure passes its aggregate here.
   */
  nullsKey?: Expr;
}

export interface SelectQuery {
  k: 'select';
  distinct: boolean;
  columns: { expr: Expr; alias: string }[];
  from: FromItem;
  joins: JoinClause[];
  where: Expr | null;
  /** 1-based positions in `columns`. */
  groupBy: number[];
  having: Expr | null;
  orderBy: OrderItem[];
  limit: number | null;
  offset: number | null;
}

export type SetOperator = 'UNION' | 'UNION ALL' | 'INTERSECT' | 'EXCEPT';
export interface SetQuery {
  k: 'setop';
  op: SetOperator;
  left: Query;
  right: Query;
}
export type Query = SelectQuery | SetQuery;

export function select(partial: Partial<SelectQuery> & Pick<SelectQuery, 'columns' | 'from'>): SelectQuery {
  return { k: 'select', distinct: false, joins: [], where: null, groupBy: [], having: null, orderBy: [], limit: null, offset: null, ...partial };
}

/** AND of the non-null items (nested ANDs flattened); null when there are none. */
export function allOf(items: (Expr | null)[]): Expr | null {
  return junction('and', items);
}

/** OR of the non-null items (nested ORs flattened); null when there are none. */
export function anyOf(items: (Expr | null)[]): Expr | null {
  return junction('or', items);
}

function junction(k: 'and' | 'or', items: (Expr | null)[]): Expr | null {
  const kept = items.flatMap((e) => (e === null ? [] : e.k === k ? e.items : [e]));
  if (kept.length === 0) return null;
  return kept.length === 1 ? kept[0]! : { k, items: kept };
}

export const col = (table: string, column: string): Expr => ({ k: 'column', table, column });
export const alias = (name: string): Expr => ({ k: 'alias', name });
export const str = (value: string, standalone = false): Expr => ({ k: 'value', value, type: 'string', standalone });
export const num = (value: number | string): Expr => ({ k: 'value', value, type: 'number' });
export const cmp = (op: CompareOp, left: Expr, right: Expr): Expr => ({ k: 'compare', op, left, right });
