import { assertSafeText, baseDialect, quoteDouble } from './base.ts';
import type { Dialect } from './types.ts';

/** DuckDB: `$n` parameters, standard quoting; no backslash escapes in string literals. */
export const duckdb: Dialect = {
  ...baseDialect,
  name: 'duckdb',
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
    joinFromSubquery: false,
  },
  quoteIdentifier: quoteDouble,
  escapeString(value) {
    assertSafeText(value, false);
    return `'${value.replace(/'/g, "''")}'`;
  },
  functions: {
    ...baseDialect.functions,
    MOD: ([a, b]) => `((${a}) % (${b}))`,
  },
  // DuckDB's LIKE has no escape character unless one is named.
  likeEscape: " ESCAPE '\\'",
};
