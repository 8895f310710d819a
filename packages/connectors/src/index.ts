/**
 * @shutu/connectors — one driver interface, one driver per engine (DuckDB, PostgreSQL,
 * MySQL/MariaDB, ClickHouse). Built in issue 3; reserved here by the foundation.
 * Behaviour is switched on capability flags, never on engine names.
 */
export interface DialectCapabilities {
  /** Server-side bound parameters; without them the driver escapes literals itself. */
  serverSideParameters: boolean;
  /** `count(*) filter (where …)`. */
  filterClause: boolean;
  /** Case-insensitive `ilike`. */
  ilike: boolean;
  /** `intersect` / `except` for audience set operations. */
  setOperations: boolean;
}
