import type { ColumnInfo } from '@shutu/connectors';
import { guardSelectSql, referencedTables, type SqlTableRef } from '@shutu/query';
import type { AppContext } from '../../context.ts';
import { getDataSource, getDataSourceDriver } from './registry.ts';
import { cachedRead } from '../../platform/cache/coherent.ts';

/**
 * Saved SQL views as tables of their source (issue 28): a dataset may name a view (V_SQL_…)
 * where it names a table. Its columns are the view statement's result columns, it is compiled
 * as a derived table `(statement) AS alias` (@shutu/query `derivedTables`), and a caller may use
 * it where they may read every table its statement reads (table-access.ts) — a view is never a
 * way around the table grants. Statements are taken from the stored views only, and go through
 * the SQL guard again on every use (a trailing semicolon is dropped, anything the guard now
 * refuses is not a view at all).
 */

export interface SourceView {
  id: number;
  viewName: string;
  /** The statement as the guard returns it (one SELECT, no trailing semicolon). */
  statement: string;
  createUserId: number | null;
}

/** The source's views by lower-cased name (view names are unique per source ignoring case). */
export async function sourceViews(ctx: AppContext, datasourceId: number): Promise<Map<string, SourceView>> {
  const rows = await cachedRead(ctx.db, `views:${datasourceId}`, () =>
    ctx.db.selectFrom('sqlView').select(['id', 'viewName', 'sqlStatement', 'createUserId']).where('datasourceId', '=', datasourceId).execute(),
  );
  if (rows.length === 0) return new Map();
  const { type } = await getDataSource(ctx, datasourceId);
  const views = new Map<string, SourceView>();
  for (const row of rows) {
    try {
      const { statement } = guardSelectSql(row.sqlStatement, type);
      views.set(row.viewName.toLowerCase(), { id: row.id, viewName: row.viewName, statement, createUserId: row.createUserId });
    } catch {
      // a statement the guard refuses today is never run
    }
  }
  return views;
}

/** The view a model table names: unqualified, by name ignoring case. */
export function viewOf(views: ReadonlyMap<string, SourceView>, table: { schema?: string | null; name: string }): SourceView | undefined {
  return table.schema ? undefined : views.get(table.name.toLowerCase());
}

/** The tables a view's statement reads; null when they cannot be read with certainty. */
export async function viewTables(ctx: AppContext, datasourceId: number, view: SourceView): Promise<SqlTableRef[] | null> {
  const { type } = await getDataSource(ctx, datasourceId);
  try {
    return referencedTables(view.statement, type);
  } catch {
    return null;
  }
}

/** The statements of the views among a model's tables, by table name, for the compiler's `derivedTables`. */
export async function viewStatements(
  ctx: AppContext,
  datasourceId: number,
  tables: readonly { schema?: string | null; tableName: string }[],
): Promise<ReadonlyMap<string, string>> {
  const views = await sourceViews(ctx, datasourceId);
  const statements = new Map<string, string>();
  for (const t of tables) {
    const view = viewOf(views, { schema: t.schema ?? null, name: t.tableName });
    if (view) statements.set(t.tableName, view.statement);
  }
  return statements;
}

/** The result columns of a guarded statement, asked of the engine without reading a row (LIMIT 0). */
export async function statementColumns(ctx: AppContext, datasourceId: number, statement: string): Promise<ColumnInfo[]> {
  const driver = await getDataSourceDriver(ctx, datasourceId);
  const stream = driver.query(`SELECT * FROM (${statement}\n) AS shutu_view LIMIT 0`, [], { timeoutMs: 30_000 });
  for await (const row of stream) void row; // no rows: the loop only fetches the result header
  return (stream.columns ?? []).map((c) => ({ name: c.name, comment: '', databaseType: c.databaseType, viewDataType: c.viewDataType }));
}

/** The columns of a table or, when it names a saved view of the source, of that view. */
export async function sourceColumns(ctx: AppContext, datasourceId: number, table: { schema?: string | null; name: string }): Promise<ColumnInfo[]> {
  const view = viewOf(await sourceViews(ctx, datasourceId), table);
  if (view) return statementColumns(ctx, datasourceId, view.statement);
  const driver = await getDataSourceDriver(ctx, datasourceId);
  return driver.listColumns(table.schema ? { schema: table.schema, name: table.name } : table.name);
}
