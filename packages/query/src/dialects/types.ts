import type { JoinType, TimeUnit } from '@shutu/contracts';

export const QUERY_DIALECTS = ['duckdb', 'postgres', 'mysql', 'clickhouse'] as const;
export type QueryDialect = (typeof QUERY_DIALECTS)[number];

/**
 * What an engine can do. The shared renderer switches on these flags, never on the
 * dialect's name; a connector may override them for the server version it talks to.
 * The one definition of these flags: @shutu/connectors' `DriverCapabilities` extends it
 * (and `DialectCapabilities` there is this type).
 */
export interface QueryCapabilities {
  /** Bound parameters; without them values are inlined through `escapeString`. */
  serverSideParameters: boolean;
  /** `agg(...) FILTER (WHERE ...)`. */
  filterClause: boolean;
  /** `ILIKE`. */
  ilike: boolean;
  /** `INTERSECT` / `EXCEPT` / `UNION` (distinct); otherwise IN / NOT IN / UNION ALL forms. */
  setOperations: boolean;
  /** `GROUP BY 1, 2`; otherwise the grouped expressions are repeated. */
  groupByOrdinal: boolean;
  /** More than one JOIN in one SELECT. */
  multipleJoins: boolean;
  /** String values may contain U+0000. */
  nulInStrings: boolean;
  /** `ORDER BY x NULLS LAST`; otherwise NULL sorts lowest and ascending order is `x IS NULL, x`. */
  nullsLast: boolean;
  /** Plain LIKE already ignores case (MySQL's default collations). */
  likeIgnoresCase: boolean;
  /**
   * `GROUP BY GROUPING SETS (…)` and a CTE computed once for several readers (`AS MATERIALIZED`):
   * the grouped board read (grouped.ts) answers several charts with one scan only with it;
   * otherwise each chart runs its own statement.
   */
  groupingSets: boolean;
  /** `ROW_NUMBER() OVER (…)`, `COUNT(*) OVER ()`; otherwise the reads that use them take separate statements. */
  windowFunctions: boolean;
  /**
   * UBIGINT bit masks (`BIT_OR`, `<<`, `>>`, `&`), `UNNEST` of a list, `range(n)` as a table, `//`
   * and CTEs `AS NOT MATERIALIZED`: the grouped board read answers several exact distinct counts
   * of one column with one aggregation by it (grouped-distinct.ts); otherwise each runs alone.
   */
  distinctMasks: boolean;
  /**
   * The first table of a SELECT with JOINs is read as `(SELECT * FROM t) AS a`. ClickHouse 18.16
   * loses the JOIN's table aliases when that table is Distributed (a cluster: "Unknown identifier:
   * o.phone"); read as a subquery, the join runs on the node asking and the aliases hold.
   */
  joinFromSubquery: boolean;
}

/** A 64-bit hash split into a bucket and the rest, and the estimate over a group's registers. */
export interface SketchHooks {
  /** The hash's low `bits` bits: 0 … 2^bits − 1. */
  bucket(arg: string, bits: number): string;
  /** An aggregate: the least of the hashes shifted right by `bits` (below 2^(64 − bits)), NULL values left out. */
  register(arg: string, bits: number): string;
  /** An aggregate: the distinct count estimated from the group's registers (NULL registers are empty buckets). */
  estimate(register: string, bits: number): string;
}

/** Renders one catalogue function from its rendered arguments. */
export type FunctionRender = (args: string[]) => string;

export interface Dialect {
  readonly name: QueryDialect;
  readonly capabilities: QueryCapabilities;
  /** Placeholder of the n-th (1-based) bound parameter. */
  placeholder(index: number): string;
  /** A quoted identifier; refuses names that cannot be quoted safely. */
  quoteIdentifier(name: string): string;
  /** A complete string literal under this engine's escaping rules. */
  escapeString(value: string): string;
  /** Rendering of each supported formula function; its keys are the allow-list. */
  readonly functions: Readonly<Record<string, FunctionRender>>;
  /** Appended to LIKE for a backslash escape character ('' when backslash is the default). */
  readonly likeEscape: string;
  countDistinct(arg: string): string;
  /**
   * An approximate distinct count rendered as one aggregate: the engine's own where it is
   * accurate enough (ClickHouse's uniq), else the exact count. Engines with `sketch` read it from
   * a HyperLogLog sketch in SQL instead, where the statement's shape allows (sketch.ts).
   */
  approxCountDistinct(arg: string): string;
  /**
   * The calendar day of a date or timestamp, of the same type, cheaper per row than truncating to
   * a week or longer: such time axes are grouped by day first (day-rollup.ts); absent: each row
   * is truncated to the axis's unit.
   */
  dayOf?(arg: string): string;
  /** Hooks of the HyperLogLog sketch in SQL (sketch.ts); absent: no sketch. */
  readonly sketch?: SketchHooks;
  concat(args: string[]): string;
  dateTrunc(unit: TimeUnit, arg: string): string;
  /** A 'YYYY-MM-DD HH:mm:ss' string read as a timestamp. */
  timestamp(arg: string): string;
  /** A string value with no column beside it to take its type from. */
  stringValue(arg: string): string;
  /** A bound number with no column beside it to take its type from (a formula's parameter). */
  numberValue(arg: string): string;
  divide(left: string, right: string): string;
  /** Substring test. */
  contains(haystack: string, needle: string): string;
  joinKeyword(type: JoinType): string;
  limitOffset(limit: number | null, offset: number | null): string;
}
