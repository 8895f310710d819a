import { dataApiMessages, formatMessage } from '@shutu/contracts';
import { tokenizeSql, SqlLexError, type Dialect, type GuardDialect, type SqlToken } from '@shutu/query';
import { fieldError } from '../../platform/http/errors.ts';
import type { BoundValue } from './params.ts';

/**
 * Parameters in a type-1 API's SQL are written `${key}` (as formulas reference global
 * parameters). Each reference outside strings, quoted names and comments — found with the
 * SQL guard's own tokenizer for the source's engine, so what it sees is what the engine sees —
 * becomes the dialect's placeholder ($n on PostgreSQL and DuckDB, ? on MySQL), its value bound
 * by the driver. ClickHouse has no server-side parameters here: the value becomes a literal
 * through the dialect's escaping (the same path the query compiler takes for it). A value like
 * `1 OR 1=1` is therefore only ever one value. Placeholders the author wrote themselves ($1, ?)
 * are refused: every bound value must come from a declared parameter.
 */

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export interface BoundSql {
  sql: string;
  params: (string | number)[];
}

/** The parameter keys the SQL references (outside strings and comments), in order, with their offsets. */
export function sqlReferences(text: string, engine: GuardDialect): { key: string; start: number; end: number }[] {
  let tokens: SqlToken[];
  try {
    tokens = tokenizeSql(text, engine);
  } catch (error) {
    // Unterminated strings and the like: the guard says so with its own message later.
    if (error instanceof SqlLexError) return [];
    throw error;
  }
  const dollars = new Set(tokens.filter((t) => t.kind === 'punct' && t.text === '$').map((t) => t.start));
  const refs: { key: string; start: number; end: number }[] = [];
  for (const m of text.matchAll(REFERENCE)) {
    if (dollars.has(m.index)) refs.push({ key: m[1]!, start: m.index, end: m.index + m[0].length });
  }
  const own = tokens.find((t) => t.kind === 'param' || (t.kind === 'punct' && t.text === '?' && engine !== 'postgres' && engine !== 'clickhouse'));
  if (own) throw fieldError('querySql', formatMessage(dataApiMessages.paramPlaceholder, { text: own.text }));
  return refs;
}

/** A literal of a value under the dialect's escaping (engines without bound parameters). */
export function literal(dialect: Dialect, value: BoundValue): string {
  if (typeof value === 'number') return value < 0 || Object.is(value, -0) ? `(${value})` : String(value);
  return dialect.escapeString(value);
}

/**
 * The SQL with every `${key}` replaced by a placeholder (or, on engines without bound
 * parameters, an escaped literal) and the values in placeholder order. `values` must hold every
 * referenced key: a key the API does not declare is a 400 naming it.
 */
export function bindSql(text: string, engine: GuardDialect, dialect: Dialect, values: ReadonlyMap<string, BoundValue | null>): BoundSql {
  const refs = sqlReferences(text, engine);
  const params: (string | number)[] = [];
  let out = '';
  let at = 0;
  for (const ref of refs) {
    if (!values.has(ref.key)) throw fieldError('querySql', formatMessage(dataApiMessages.paramUnknownInSql, { key: ref.key }));
    const value = values.get(ref.key);
    out += text.slice(at, ref.start);
    if (value === null || value === undefined) out += 'NULL';
    else if (dialect.capabilities.serverSideParameters) {
      params.push(value);
      out += dialect.placeholder(params.length);
    } else out += literal(dialect, value);
    at = ref.end;
  }
  return { sql: out + text.slice(at), params };
}
