/**
 * @shutu/query — cube / chart / audience requests compiled to SQL for one dialect,
 * with permissions applied. Pure: no I/O. Built in issue 3 (query engine); the
 * foundation only reserves the package so every workspace type-checks and tests.
 */
export const QUERY_DIALECTS = ['duckdb', 'postgres', 'mysql', 'clickhouse'] as const;
export type QueryDialect = (typeof QUERY_DIALECTS)[number];
