import { defaultCapabilities, type DriverCapabilities } from '@shutu/connectors';
import { formatMessage, permMessages, type DataSource, type TableRef } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { forbidden } from '../../platform/http/errors.ts';
import { getDataSource, getDataSourceDriver } from './registry.ts';
import { grantedTables, usableSources, type Caller } from '../perm/index.ts';
import { sourceViews, viewOf, viewTables, type SourceView } from './views.ts';

/**
 * Table-level enforcement (spec 2 §6, issue 4): the tables granted to a user's groups are the
 * only tables the user may read on that source when building datasets and SQL views, plus
 * the file tables the user uploaded there. Administrators may use everything.
 */

/** A table as a request names it: the schema may be absent (the connection default). */
export interface WantedTable {
  schema: string | null;
  name: string;
  /** Written quoted in SQL; introspected names (the dataset model's) count as quoted. */
  quoted: boolean;
}

export interface TableChecker {
  all: boolean;
  allows(table: WantedTable): Promise<boolean>;
}

type NameCase = DriverCapabilities['tableNameCase'];

/** The name the engine will look up, in a form comparable with `canonical` of an introspected name. */
function written(name: string, quoted: boolean, nameCase: NameCase): string {
  if (nameCase === 'insensitive') return name.toLowerCase();
  if (nameCase === 'foldLower' && !quoted) return name.toLowerCase();
  return name;
}

const canonical = (name: string, nameCase: NameCase) => (nameCase === 'insensitive' ? name.toLowerCase() : name);
const keyOf = (schema: string, name: string) => JSON.stringify([schema, name]);

/** The file tables the caller uploaded to the source (they live in its default schema). */
async function ownFileTables(ctx: AppContext, caller: Caller, datasourceId: number): Promise<string[]> {
  const rows = await ctx.db
    .selectFrom('fileTable')
    .select('tableName')
    .where('datasourceId', '=', datasourceId)
    .where('createUserId', '=', caller.userId)
    .where('status', '=', 'ready')
    .execute();
  return rows.map((r) => r.tableName);
}

/** What the caller may read on one source. 404 when the source does not exist. */
export async function tableCheckerFor(ctx: AppContext, caller: Caller, datasourceId: number): Promise<TableChecker> {
  const source = await getDataSource(ctx, datasourceId);
  if (caller.isAdministrator) return { all: true, allows: async () => true };
  const nameCase = defaultCapabilities(source.type).tableNameCase;
  const granted = await grantedTables(ctx, caller, datasourceId);
  const own = await ownFileTables(ctx, caller, datasourceId);
  // Asked of the engine only when needed: an unqualified name, or file tables to place.
  let defaultSchema: Promise<string> | undefined;
  const schemaOfSource = async () => canonical(await (defaultSchema ??= getDataSourceDriver(ctx, datasourceId).then((d) => d.defaultSchema())), nameCase);

  const allowed = new Set<string>();
  if (!granted.all) for (const t of granted.tables) allowed.add(keyOf(canonical(t.schema, nameCase), canonical(t.name, nameCase)));
  if (own.length > 0) {
    const schema = await schemaOfSource();
    for (const name of own) allowed.add(keyOf(schema, canonical(name, nameCase)));
  }
  const tableAllowed = async (table: WantedTable) => {
    if (allowed.size === 0) return false;
    // A schema written in SQL follows the same quoting rule as the name; the introspected default does not.
    const schema = table.schema === null ? await schemaOfSource() : written(table.schema, table.quoted, nameCase);
    return allowed.has(keyOf(schema, written(table.name, table.quoted, nameCase)));
  };
  // A saved SQL view is usable where every table its statement reads is (views read tables only).
  let views: Promise<Map<string, SourceView>> | undefined;
  const viewAllowed = async (table: WantedTable) => {
    const view = viewOf(await (views ??= sourceViews(ctx, datasourceId)), table);
    if (!view) return false;
    const tables = await viewTables(ctx, datasourceId, view);
    if (tables === null || tables.length === 0) return false;
    for (const t of tables) if (!(await tableAllowed(t))) return false;
    return true;
  };
  return {
    all: false,
    async allows(table) {
      return (await tableAllowed(table)) || (await viewAllowed(table));
    },
  };
}

/** The source, unless the caller may not build on it (403; administrators may, others where a table is granted). 404 when it does not exist. */
export async function assertSourceUsable(ctx: AppContext, caller: Caller, datasourceId: number): Promise<DataSource> {
  const source = await getDataSource(ctx, datasourceId);
  const usable = await usableSources(ctx, caller);
  if (!usable.all && !usable.ids.has(datasourceId)) throw forbidden(formatMessage(permMessages.sourceNotGranted, { name: source.dsDb }));
  return source;
}

/** 403 naming the first table the caller may not read. */
export async function assertTablesUsable(ctx: AppContext, caller: Caller, datasourceId: number, tables: readonly WantedTable[]): Promise<void> {
  const checker = await tableCheckerFor(ctx, caller, datasourceId);
  if (checker.all) return;
  for (const table of tables) {
    if (!(await checker.allows(table))) {
      throw forbidden(formatMessage(permMessages.tableNotGranted, { name: table.schema ? `${table.schema}.${table.name}` : table.name }));
    }
  }
}

/** Keeps the introspected tables the caller may read (exact names: they are compared as quoted). */
export async function filterUsableTables<T extends TableRef>(ctx: AppContext, caller: Caller, datasourceId: number, tables: readonly T[]): Promise<T[]> {
  const checker = await tableCheckerFor(ctx, caller, datasourceId);
  if (checker.all) return [...tables];
  const kept: T[] = [];
  for (const t of tables) if (await checker.allows({ schema: t.schema, name: t.name, quoted: true })) kept.push(t);
  return kept;
}
