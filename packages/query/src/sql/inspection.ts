/** A name the engine's parser found in a statement (as written, without quotes or escapes). */
export interface SqlNameRef {
  name: string;
  /** Qualifiers as written, '' when absent. */
  schema: string;
  catalog: string;
  /** 0-based character offset in the inspected SQL, null when the engine gives none. */
  offset: number | null;
}

/**
 * What the engine's own parser makes of a statement, without running it: the statements,
 * every table, table function (or other table-producing construct, named in lower case, e.g.
 * `summarize`) and function it names, at any depth. `ok: false` when it is not a SELECT
 * (`notSelect`) or does not parse (`syntax`, with the engine's text).
 */
export type SqlInspection =
  | { ok: true; statements: number; tables: SqlNameRef[]; tableFunctions: SqlNameRef[]; functions: SqlNameRef[] }
  | { ok: false; reason: 'notSelect' | 'syntax'; detail: string; offset: number | null };
