import type { DuckDBConnection, DuckDBPreparedStatement } from '@duckdb/node-api';

/** Prepared statements kept per connection: the most recently used first to stay. */
export const KEPT_STATEMENTS_PER_CONNECTION = 32;

/**
 * Prepared reads kept on their connection for the next read of the same SQL text (a chart's,
 * a data API's with new values): preparing parses, binds and plans the statement, ≈ 0.2–1 ms a
 * read. DuckDB binds a kept statement again by itself when the catalog changed since (a file
 * table replaced, a column added), so a kept statement never reads an old table's shape.
 * A statement is taken out while a read runs it and kept again only after that read ran to its
 * end; one whose connection closes is destroyed with it.
 */
export class KeptStatements {
  private readonly byConnection = new WeakMap<DuckDBConnection, Map<string, DuckDBPreparedStatement>>();

  constructor(private readonly perConnection = KEPT_STATEMENTS_PER_CONNECTION) {}

  /** The connection's kept statement of this SQL text, now the caller's until `keep` or `destroy`. */
  take(connection: DuckDBConnection, sql: string): DuckDBPreparedStatement | undefined {
    const kept = this.byConnection.get(connection);
    const statement = kept?.get(sql);
    if (statement) kept!.delete(sql);
    return statement;
  }

  /** Keeps a statement whose read ran to its end; the least recently used goes when full. */
  keep(connection: DuckDBConnection, sql: string, statement: DuckDBPreparedStatement): void {
    let kept = this.byConnection.get(connection);
    if (!kept) this.byConnection.set(connection, (kept = new Map()));
    statement.clearBindings();
    kept.set(sql, statement);
    if (kept.size > this.perConnection) {
      const [oldestSql, oldest] = kept.entries().next().value!;
      kept.delete(oldestSql);
      oldest.destroySync();
    }
  }

  /** Destroys the connection's kept statements (before it closes). */
  drop(connection: DuckDBConnection): void {
    const kept = this.byConnection.get(connection);
    if (!kept) return;
    for (const statement of kept.values()) statement.destroySync();
    this.byConnection.delete(connection);
  }

  /** How many statements the connection keeps (tests). */
  count(connection: DuckDBConnection): number {
    return this.byConnection.get(connection)?.size ?? 0;
  }
}
