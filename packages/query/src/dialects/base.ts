import type { JoinType, TimeUnit } from '@shutu/contracts';
import { queryError } from '../errors.ts';
import type { Dialect, FunctionRender } from './types.ts';

/**
 * The ANSI-leaning defaults every dialect starts from. A dialect module spreads this
 * object and overrides only what its engine spells differently.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Refuses text that cannot travel as UTF-8 (lone surrogates) and, if asked, NUL. */
export function assertSafeText(value: string, allowNul: boolean): void {
  if (LONE_SURROGATE.test(value)) throw queryError('value', 'valueUnicode');
  if (!allowNul && value.includes('\0')) throw queryError('value', 'valueNul');
}

/** Identifiers come from introspected metadata; they are quoted, never trusted raw. */
export function assertIdentifier(name: string): void {
  if (name.length === 0 || name.length > 255 || name.includes('\0') || LONE_SURROGATE.test(name)) {
    throw queryError('model', 'identifierInvalid', { name: name.replace(/[\0\uD800-\uDFFF]/g, '?') });
  }
}

/** `"name"` with embedded double quotes doubled (SQL standard: PostgreSQL, DuckDB). */
export function quoteDouble(name: string): string {
  assertIdentifier(name);
  return `"${name.replace(/"/g, '""')}"`;
}

export const call =
  (name: string): FunctionRender =>
  (args) =>
    `${name}(${args.join(', ')})`;

const extract =
  (part: string): FunctionRender =>
  ([a]) =>
    `CAST(EXTRACT(${part} FROM ${a}) AS INTEGER)`;

export const baseFunctions: Record<string, FunctionRender> = {
  ABS: call('ABS'),
  ROUND: call('ROUND'),
  CEIL: call('CEIL'),
  FLOOR: call('FLOOR'),
  MOD: call('MOD'),
  POWER: call('POWER'),
  SQRT: call('SQRT'),
  LENGTH: call('LENGTH'),
  UPPER: call('UPPER'),
  LOWER: call('LOWER'),
  SUBSTRING: call('SUBSTR'),
  TRIM: call('TRIM'),
  TO_STRING: ([a]) => `CAST(${a} AS VARCHAR)`,
  REPLACE: call('REPLACE'),
  YEAR: extract('YEAR'),
  QUARTER: extract('QUARTER'),
  MONTH: extract('MONTH'),
  DAY: extract('DAY'),
  HOUR: extract('HOUR'),
  DAYS_BETWEEN: ([a, b]) => `DATE_DIFF('day', CAST(${a} AS DATE), CAST(${b} AS DATE))`,
  IFNULL: call('COALESCE'),
  COALESCE: call('COALESCE'),
  NULLIF: call('NULLIF'),
};

const JOIN_KEYWORDS: Record<JoinType, string> = { LEFT_JOIN: 'LEFT JOIN', RIGHT_JOIN: 'RIGHT JOIN', INNER_JOIN: 'INNER JOIN' };

/** Everything of a Dialect but its name, capabilities, quoting and escaping. */
export const baseDialect = {
  placeholder: (index: number) => `$${index}`,
  functions: baseFunctions,
  likeEscape: '',
  countDistinct: (arg: string) => `COUNT(DISTINCT ${arg})`,
  // No usable sketch of the engine's own (PostgreSQL, MySQL; DuckDB's is too coarse): count exactly.
  approxCountDistinct: (arg: string) => `COUNT(DISTINCT ${arg})`,
  concat: (args: string[]) => `(${args.join(' || ')})`,
  dateTrunc: (unit: TimeUnit, arg: string) => `DATE_TRUNC('${unit.toLowerCase()}', ${arg})`,
  timestamp: (arg: string) => `CAST(${arg} AS TIMESTAMP)`,
  stringValue: (arg: string) => `CAST(${arg} AS VARCHAR)`,
  numberValue: (arg: string) => `CAST(${arg} AS DOUBLE)`,
  divide: (left: string, right: string) => `${left} / NULLIF(${right}, 0)`,
  contains: (haystack: string, needle: string) => `STRPOS(${haystack}, ${needle}) > 0`,
  joinKeyword: (type: JoinType) => JOIN_KEYWORDS[type],
  limitOffset(limit: number | null, offset: number | null): string {
    const parts: string[] = [];
    if (limit !== null) parts.push(`LIMIT ${limit}`);
    if (offset !== null) parts.push(`OFFSET ${offset}`);
    return parts.join(' ');
  },
} satisfies Omit<Dialect, 'name' | 'capabilities' | 'quoteIdentifier' | 'escapeString'>;

/** The largest row count, for engines that need a LIMIT before an OFFSET. */
export const NO_LIMIT = '18446744073709551615';
