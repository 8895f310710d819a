import type { TimeUnit } from '@shutu/contracts';
import { assertIdentifier, assertSafeText, baseDialect, call, NO_LIMIT } from './base.ts';
import type { Dialect } from './types.ts';

const ESCAPES: Record<string, string> = { '\0': '\\0', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f', '\\': '\\\\', "'": "\\'" };

const TRUNCATE: Record<TimeUnit, string> = {
  YEAR: 'toStartOfYear',
  QUARTER: 'toStartOfQuarter',
  MONTH: 'toStartOfMonth',
  WEEK: 'toMonday',
  DAY: 'toStartOfDay',
  HOUR: 'toStartOfHour',
};

/**
 * ClickHouse as packaged in Debian (18.16): no server-side parameters, so every value is
 * inlined as a literal escaped here; no INTERSECT / EXCEPT, no ILIKE, one JOIN per SELECT,
 * JOINs need an explicit strictness (ALL).
 */
export const clickhouse: Dialect = {
  ...baseDialect,
  name: 'clickhouse',
  capabilities: {
    serverSideParameters: false,
    filterClause: false,
    ilike: false,
    setOperations: false,
    groupByOrdinal: false,
    multipleJoins: false,
    nulInStrings: true,
    nullsLast: true,
    likeIgnoresCase: false,
    // 18.16: no GROUPING SETS, no window functions (both came in 21–22), and a WITH is
    // inlined at every reference.
    groupingSets: false,
    windowFunctions: false,
    distinctMasks: false,
    joinFromSubquery: true,
  },
  placeholder: () => {
    throw new Error('ClickHouse has no server-side parameters');
  },
  quoteIdentifier(name) {
    assertIdentifier(name);
    return `\`${name.replace(/[\\`]/g, (c) => `\\${c}`)}\``;
  },
  escapeString(value) {
    assertSafeText(value, true);
    return `'${value.replace(/[\0\n\r\t\b\f\\']/g, (c) => ESCAPES[c]!)}'`;
  },
  functions: {
    ABS: call('abs'),
    ROUND: call('round'),
    CEIL: call('ceil'),
    FLOOR: call('floor'),
    MOD: call('modulo'),
    POWER: call('pow'),
    SQRT: call('sqrt'),
    LENGTH: call('lengthUTF8'),
    UPPER: call('upperUTF8'),
    LOWER: call('lowerUTF8'),
    SUBSTRING: ([s, start, len]) => `substringUTF8(${s}, ${start}, ${len ?? `lengthUTF8(${s})`})`,
    REPLACE: call('replaceAll'),
    TO_STRING: call('toString'),
    YEAR: call('toYear'),
    QUARTER: call('toQuarter'),
    MONTH: call('toMonth'),
    DAY: call('toDayOfMonth'),
    HOUR: call('toHour'),
    DAYS_BETWEEN: ([a, b]) => `(toRelativeDayNum(${b}) - toRelativeDayNum(${a}))`,
    IFNULL: call('ifNull'),
    COALESCE: call('coalesce'),
    NULLIF: call('nullIf'),
    // TRIM: not offered; 18.16 predates trimBoth.
  },
  countDistinct: (arg) => `uniqExact(${arg})`,
  approxCountDistinct: (arg) => `uniq(${arg})`,
  concat: (args) => `concat(${args.join(', ')})`,
  dateTrunc: (unit, arg) => `toDateTime(${TRUNCATE[unit]}(${arg}))`,
  timestamp: (arg) => `toDateTime(${arg})`,
  stringValue: (arg) => arg,
  // Numbers are inlined as literals, which carry their type.
  numberValue: (arg) => arg,
  // Decimal / anything keeps the dividend's scale on ClickHouse (SUM(amount) / COUNT(DISTINCT …)
  // of a Decimal(10,2) gives 142.24, DuckDB 142.2479…): both sides as Float64, as the other engines divide.
  divide: (left, right) => `toFloat64(${left}) / nullIf(toFloat64(${right}), 0)`,
  contains: (haystack, needle) => `position(${haystack}, ${needle}) > 0`,
  joinKeyword: (type) => `ALL ${baseDialect.joinKeyword(type)}`,
  limitOffset: (limit, offset) => (offset === null ? baseDialect.limitOffset(limit, null) : `LIMIT ${offset}, ${limit ?? NO_LIMIT}`),
};
