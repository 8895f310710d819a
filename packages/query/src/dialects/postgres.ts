import { assertSafeText, baseDialect, quoteDouble } from './base.ts';
import type { Dialect } from './types.ts';

/** PostgreSQL: `$n` parameters, standard quoting; LIKE escapes with backslash by default. */
export const postgres: Dialect = {
  ...baseDialect,
  name: 'postgres',
  capabilities: {
    serverSideParameters: true,
    filterClause: true,
    ilike: true,
    setOperations: true,
    groupByOrdinal: true,
    multipleJoins: true,
    nulInStrings: false,
    nullsLast: true,
    likeIgnoresCase: false,
    groupingSets: true,
    windowFunctions: true,
    distinctMasks: false,
    joinFromSubquery: false,
  },
  quoteIdentifier: quoteDouble,
  /**
   * Quotes are doubled. A value holding a backslash is written as an E'' literal with the
   * backslash doubled, which reads the same whether standard_conforming_strings is on or off.
   */
  escapeString(value) {
    assertSafeText(value, false);
    const quoted = value.replace(/'/g, "''");
    return value.includes('\\') ? `E'${quoted.replace(/\\/g, '\\\\')}'` : `'${quoted}'`;
  },
  functions: {
    ...baseDialect.functions,
    // round(x, n) and mod exist for numeric only, not double precision. The result is cast
    // back: a NUMERIC result would be summed exactly here but in floating point on every
    // other engine (the connectors' shared fixture caught SUM(ROUND(..)) differing).
    ROUND: (args) => (args.length === 1 ? `ROUND(${args[0]})` : `CAST(ROUND(CAST(${args[0]} AS NUMERIC), ${args[1]}) AS DOUBLE PRECISION)`),
    MOD: ([a, b]) => `CAST(MOD(CAST(${a} AS NUMERIC), CAST(${b} AS NUMERIC)) AS DOUBLE PRECISION)`,
    DAYS_BETWEEN: ([a, b]) => `(CAST(${b} AS DATE) - CAST(${a} AS DATE))`,
    TO_STRING: ([a]) => `CAST(${a} AS TEXT)`,
  },
  stringValue: (arg) => `CAST(${arg} AS TEXT)`,
  // An untyped $n takes the other operand's type (integer: 1.5 refused) or none at all.
  numberValue: (arg) => `CAST(${arg} AS DOUBLE PRECISION)`,
  // integer / integer truncates in PostgreSQL; formulas divide as real numbers everywhere.
  divide: (left, right) => `CAST(${left} AS DOUBLE PRECISION) / NULLIF(${right}, 0)`,
};
