import { clickhouse } from './clickhouse.ts';
import { duckdb } from './duckdb.ts';
import { mysql } from './mysql.ts';
import { postgres } from './postgres.ts';
import type { Dialect, QueryCapabilities, QueryDialect } from './types.ts';
import { FUNCTION_CATALOGUE, STRUCTURAL_FUNCTIONS, type FunctionSpec } from '../formula/functions.ts';

export * from './types.ts';
export { clickhouse, duckdb, mysql, postgres };

export const DIALECTS: Readonly<Record<QueryDialect, Dialect>> = { duckdb, postgres, mysql, clickhouse };

export function getDialect(dialect: Dialect | QueryDialect): Dialect {
  if (typeof dialect !== 'string') return dialect;
  const found = (DIALECTS as Record<string, Dialect | undefined>)[dialect];
  if (!found) throw new Error(`unknown dialect ${dialect}`);
  return found;
}

/** The dialect with some capabilities changed (a connector that knows its server version). */
export function withCapabilities(dialect: Dialect | QueryDialect, changes: Partial<QueryCapabilities>): Dialect {
  const base = getDialect(dialect);
  return { ...base, capabilities: { ...base.capabilities, ...changes } };
}

export function supportsFunction(dialect: Dialect, name: string): boolean {
  return STRUCTURAL_FUNCTIONS.has(name) || Object.hasOwn(dialect.functions, name);
}

/** The formula functions of one dialect: the "functions by data source type" call. */
export function functionsFor(dialect: Dialect | QueryDialect): FunctionSpec[] {
  const d = getDialect(dialect);
  return FUNCTION_CATALOGUE.filter((f) => supportsFunction(d, f.name));
}
