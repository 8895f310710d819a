import type { TimeUnit } from '@shutu/contracts';
import { assertIdentifier, assertSafeText, baseDialect, call, NO_LIMIT } from './base.ts';
import type { Dialect } from './types.ts';

const ESCAPES: Record<string, string> = { '\0': '\\0', '\n': '\\n', '\r': '\\r', '\x1a': '\\Z', '\\': '\\\\', "'": "''", '"': '\\"' };

const TRUNCATE: Record<TimeUnit, (a: string) => string> = {
  YEAR: (a) => `CAST(DATE_FORMAT(${a}, '%Y-01-01') AS DATETIME)`,
  QUARTER: (a) => `CAST(MAKEDATE(YEAR(${a}), 1) + INTERVAL (QUARTER(${a}) - 1) QUARTER AS DATETIME)`,
  MONTH: (a) => `CAST(DATE_FORMAT(${a}, '%Y-%m-01') AS DATETIME)`,
  WEEK: (a) => `CAST(DATE(${a}) - INTERVAL WEEKDAY(${a}) DAY AS DATETIME)`,
  DAY: (a) => `CAST(DATE(${a}) AS DATETIME)`,
  HOUR: (a) => `CAST(DATE_FORMAT(${a}, '%Y-%m-%d %H:00:00') AS DATETIME)`,
};

/**
 * MySQL / MariaDB: `?` parameters, backtick quoting, backslash escapes in literals.
 * INTERSECT / EXCEPT exist only from MySQL 8.0.31 and MariaDB 10.3: off by default, a
 * connector that knows the server version may switch the flag on.
 */
export const mysql: Dialect = {
  ...baseDialect,
  name: 'mysql',
  capabilities: {
    serverSideParameters: true,
    filterClause: false,
    ilike: false,
    setOperations: false,
    groupByOrdinal: true,
    multipleJoins: true,
    nulInStrings: true,
    nullsLast: false,
    likeIgnoresCase: true,
    // MariaDB 10.2+ and MySQL 8 (ROW_NUMBER, COUNT(*) OVER ()); GROUPING SETS in neither.
    groupingSets: false,
    windowFunctions: true,
    distinctMasks: false,
    joinFromSubquery: false,
  },
  placeholder: () => '?',
  quoteIdentifier(name) {
    assertIdentifier(name);
    return `\`${name.replace(/`/g, '``')}\``;
  },
  /** Quotes are doubled (safe also under NO_BACKSLASH_ESCAPES); other specials use backslash. */
  escapeString(value) {
    assertSafeText(value, true);
    // eslint-disable-next-line no-control-regex -- the characters mysql_real_escape_string escapes
    return `'${value.replace(/[\0\n\r\x1a\\'"]/g, (c) => ESCAPES[c]!)}'`;
  },
  functions: {
    ...baseDialect.functions,
    LENGTH: call('CHAR_LENGTH'),
    TO_STRING: ([a]) => `CAST(${a} AS CHAR)`,
    SUBSTRING: call('SUBSTRING'),
    YEAR: call('YEAR'),
    QUARTER: call('QUARTER'),
    MONTH: call('MONTH'),
    DAY: call('DAYOFMONTH'),
    HOUR: call('HOUR'),
    DAYS_BETWEEN: ([a, b]) => `DATEDIFF(${b}, ${a})`,
  },
  // `||` is OR in MySQL's default mode.
  concat: (args) => `CONCAT(${args.join(', ')})`,
  dateTrunc: (unit, arg) => TRUNCATE[unit](arg),
  timestamp: (arg) => `CAST(${arg} AS DATETIME)`,
  // MariaDB 10.11 groups `CASE WHEN .. THEN ? ELSE ? END` as one constant unless the
  // placeholder is cast (checked: GROUP BY 1 returned a single group).
  stringValue: (arg) => `CAST(${arg} AS CHAR)`,
  // The binary protocol sends a number typed (DOUBLE / BIGINT); CAST AS DOUBLE needs MySQL 8.0.17.
  numberValue: (arg) => arg,
  contains: (haystack, needle) => `INSTR(${haystack}, ${needle}) > 0`,
  limitOffset: (limit, offset) => (offset === null ? baseDialect.limitOffset(limit, null) : `LIMIT ${limit ?? NO_LIMIT} OFFSET ${offset}`),
};
