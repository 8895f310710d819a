import type { Dialect } from '@shutu/query';
import { connectorError } from './errors.ts';
import type { ParamValue } from './types.ts';

/** A value as a SQL literal under the dialect's escaping (for engines without bound parameters). */
export function literal(dialect: Dialect, value: ParamValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw connectorError('invalid', 'valueNumber', { row: 0, column: '?', value: String(value) });
    return value < 0 || Object.is(value, -0) ? `(${value})` : String(value);
  }
  return dialect.escapeString(value);
}

/**
 * Replaces each `?` placeholder with its value as an escaped literal. Question marks inside
 * string literals, quoted identifiers and comments are left alone (ClickHouse lexing: quotes
 * ' " ` with backslash escapes or doubling, `--` and `/* *\/` comments).
 */
export function inlineParams(dialect: Dialect, sql: string, params: readonly ParamValue[]): string {
  if (params.length === 0) return sql;
  let out = '';
  let used = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < sql.length) {
        if (sql[j] === '\\') j += 2;
        else if (sql[j] === c && sql[j + 1] === c) j += 2;
        else if (sql[j] === c) break;
        else j++;
      }
      out += sql.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const j = end === -1 ? sql.length : end;
      out += sql.slice(i, j);
      i = j;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      const j = end === -1 ? sql.length : end + 2;
      out += sql.slice(i, j);
      i = j;
    } else if (c === '?') {
      if (used >= params.length) throw connectorError('invalid', 'paramCount', { expected: used + 1, actual: params.length });
      out += literal(dialect, params[used++]!);
      i++;
    } else {
      out += c;
      i++;
    }
  }
  if (used !== params.length) throw connectorError('invalid', 'paramCount', { expected: used, actual: params.length });
  return out;
}
