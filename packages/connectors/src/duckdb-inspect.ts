import type { SqlInspection, SqlNameRef } from './types.ts';

/**
 * Reads the answer of DuckDB's `json_serialize_sql(sql)` (its own parser's tree, as JSON)
 * into a SqlInspection: every BASE_TABLE (also a PIVOT's source and `FROM 'file.csv'`,
 * which the parser keeps as a table named by the string), every TABLE_FUNCTION and every
 * function call, at any depth (CTEs, subqueries, set operations, PIVOT, expressions). A
 * table reference of any other kind (SHOW_REF for DESCRIBE / SUMMARIZE, or a kind this
 * version does not know) is reported as a table function named by its kind, so that an
 * allow-list refuses it.
 */

/** Table references that only combine or hold others (their parts are walked). */
const PLAIN_TABLE_REFS = new Set(['JOIN', 'SUBQUERY', 'EXPRESSION_LIST', 'PIVOT', 'EMPTY']);
const SHOW_NAMES: Record<string, string> = { SUMMARY: 'summarize', DESCRIBE: 'describe' };

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: Json | undefined): string => (typeof v === 'string' ? v : '');

/** A character offset for DuckDB's byte offset into the UTF-8 text (null when it has none). */
function charOffset(utf8: Buffer, location: Json | undefined): number | null {
  const bytes = typeof location === 'string' ? Number(location) : location;
  if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0 || bytes > utf8.length) return null;
  return utf8.subarray(0, bytes).toString('utf8').length;
}

export function inspectionOf(sql: string, serialized: string): SqlInspection {
  const utf8 = Buffer.from(sql, 'utf8');
  const root = JSON.parse(serialized) as Json;
  if (!isObject(root)) return { ok: false, reason: 'syntax', detail: serialized, offset: null };
  if (root.error === true) {
    const detail = text(root.error_message);
    // The parser read the text but it is not (only) a SELECT: other statements, or a PIVOT
    // whose columns are found at run time (DuckDB runs extra statements for it).
    const notSelect = text(root.error_type) === 'not implemented' && /only select/i.test(detail);
    return { ok: false, reason: notSelect ? 'notSelect' : 'syntax', detail, offset: charOffset(utf8, root.position) };
  }
  const statements = Array.isArray(root.statements) ? root.statements : [];
  const tables: SqlNameRef[] = [];
  const tableFunctions: SqlNameRef[] = [];
  const functions: SqlNameRef[] = [];
  /** A table function's own call node: listed once, as the table function. */
  const tableFunctionCalls = new Set<JsonObject>();
  const ref = (name: string, schema: string, catalog: string, location: Json | undefined): SqlNameRef => ({
    name,
    schema,
    catalog,
    offset: charOffset(utf8, location),
  });

  const walk = (node: Json | undefined): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (!isObject(node)) return;
    const type = text(node.type);
    // A table reference: type, alias and sample, and no expression class.
    if (type !== '' && 'alias' in node && 'sample' in node && !('class' in node)) {
      if (type === 'BASE_TABLE') tables.push(ref(text(node.table_name), text(node.schema_name), text(node.catalog_name), node.query_location));
      else if (type === 'TABLE_FUNCTION') {
        const call = isObject(node.function) ? node.function : {};
        tableFunctionCalls.add(call);
        tableFunctions.push(ref(text(call.function_name), text(call.schema), text(call.catalog), node.query_location));
      } else if (type === 'SHOW_REF') {
        const show = text(node.show_type);
        tableFunctions.push(ref(SHOW_NAMES[show] ?? show.toLowerCase(), '', '', node.query_location));
      } else if (!PLAIN_TABLE_REFS.has(type)) tableFunctions.push(ref(type.toLowerCase(), '', '', node.query_location));
    } else if (typeof node.function_name === 'string' && !tableFunctionCalls.has(node)) {
      functions.push(ref(node.function_name, text(node.schema), text(node.catalog), node.query_location));
    }
    for (const value of Object.values(node)) walk(value);
  };
  walk(statements);
  return { ok: true, statements: statements.length, tables, tableFunctions, functions };
}
