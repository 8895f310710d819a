import { isUtf8 } from 'node:buffer';
import {
  SQL_STATEMENT_MAX_LENGTH,
  permMessages,
  sqlViewInUseMessage,
  zhCN,
  type DataSourceType,
  type SqlView,
  type SqlViewPreviewResult,
  type SqlViewSaved,
  type SqlViewUsage,
} from '@shutu/contracts';
import { referencedTables } from '@shutu/query';
import type { AppContext } from '../../context.ts';
import { badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../platform/http/errors.ts';
import type { Caller } from '../perm/index.ts';
import { assertSourceUsable, statementColumns, tableCheckerFor, type TableChecker } from '../datasource/index.ts';
import { datasetsUsingTable } from '../dataset/index.ts';
import { checkUserSql, previewUserSql } from '../read/index.ts';
import { deleteSqlView, findSqlView, insertSqlView, listSqlViews, updateSqlView, viewNameTaken, type SqlViewValues } from './repo.ts';

/**
 * SQL views (spec 2 §5 "SQL view", §7 "SQL views"). A view is a saved single SELECT over one
 * data source; the read module's user-SQL path (read/user-sql.ts: the guard of @shutu/query with
 * that engine's quoting rules and, where the driver offers it, the engine's own parser) checks
 * it on save and on every preview, before it runs read-only, with a statement timeout, first
 * 100 rows.
 *
 * Non-administrators (issue 4) work on sources where their groups hold a grant: every table
 * their SQL reads must be granted to them (@shutu/query sql/tables.ts finds them, refusing what it cannot
 * read with certainty); they see their own views and those whose tables they may all read,
 * and change or delete only their own.
 */

/** Whether a non-administrator may see the view: their own, or one reading only tables they may use. */
async function visibleTo(caller: Caller, view: SqlView, type: DataSourceType, checker: TableChecker): Promise<boolean> {
  if (caller.isAdministrator || view.createUserId === caller.userId) return true;
  let tables;
  try {
    tables = referencedTables(view.sqlStatement, type);
  } catch {
    return false; // what cannot be read with certainty is not shown
  }
  for (const table of tables) if (!(await checker.allows(table))) return false;
  return true;
}

export async function listViews(ctx: AppContext, caller: Caller, datasourceId: number): Promise<SqlView[]> {
  const source = await assertSourceUsable(ctx, caller, datasourceId);
  const views = await listSqlViews(ctx.db, datasourceId);
  if (caller.isAdministrator) return views;
  const checker = await tableCheckerFor(ctx, caller, datasourceId);
  const kept: SqlView[] = [];
  for (const view of views) if (await visibleTo(caller, view, source.type, checker)) kept.push(view);
  return kept;
}

export async function getView(ctx: AppContext, caller: Caller, id: number): Promise<SqlView> {
  const view = await findSqlView(ctx.db, id);
  if (!view) throw notFound(zhCN.sqlViewNotFound);
  if (caller.isAdministrator) return view;
  const source = await assertSourceUsable(ctx, caller, view.datasourceId);
  const checker = await tableCheckerFor(ctx, caller, view.datasourceId);
  if (!(await visibleTo(caller, view, source.type, checker))) throw forbidden();
  return view;
}

/** The existing view a caller may change: administrators any, others their own. */
async function ownedView(ctx: AppContext, caller: Caller, id: number): Promise<SqlView> {
  const view = await findSqlView(ctx.db, id);
  if (!view) throw notFound(zhCN.sqlViewNotFound);
  if (!caller.isAdministrator && view.createUserId !== caller.userId) throw forbidden(permMessages.viewNotOwned);
  return view;
}

/**
 * viewSave: creates, or with `id` replaces, a view. View names are unique per data source, ignoring
 * case. A view datasets use keeps its name (they name it), and the answer lists them with the
 * columns they need that the new statement no longer gives (the editor warns; the dataset's
 * next save refuses such a field).
 */
export async function saveView(ctx: AppContext, caller: Caller, body: SqlViewValues & { id?: number | null | undefined }): Promise<SqlViewSaved> {
  const values: SqlViewValues = { datasourceId: body.datasourceId, sqlName: body.sqlName, viewName: body.viewName, sqlStatement: body.sqlStatement };
  const id = body.id ?? undefined;
  const previous = id === undefined ? undefined : await ownedView(ctx, caller, id);
  const statement = await checkUserSql(ctx, caller, values.datasourceId, values.sqlStatement, 'sqlStatement');
  if (await viewNameTaken(ctx.db, values.datasourceId, values.viewName, id)) throw conflict(zhCN.viewNameExists);
  const users = previous ? await datasetsUsingTable(ctx, previous.datasourceId, previous.viewName) : [];
  if (previous && users.length > 0 && (previous.viewName !== values.viewName || previous.datasourceId !== values.datasourceId)) {
    throw conflict(sqlViewInUseMessage('改名', users));
  }
  let usedBy: SqlViewUsage[] = [];
  if (users.length > 0) {
    const columns = new Set((await statementColumns(ctx, values.datasourceId, statement)).map((c) => c.name));
    usedBy = users.map((u) => ({ id: u.id, cubeName: u.cubeName, missingColumns: u.columns.filter((c) => !columns.has(c)) }));
  }
  try {
    if (id === undefined) return { ...(await getView(ctx, caller, await insertSqlView(ctx.db, { ...values, createUserId: caller.userId }))), usedBy };
    if (!(await updateSqlView(ctx.db, id, values))) throw notFound(zhCN.sqlViewNotFound);
    return { ...(await getView(ctx, caller, id)), usedBy };
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(zhCN.viewNameExists);
    throw error;
  }
}

/** Deletes a view no dataset uses (409 naming the datasets otherwise). */
export async function removeView(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  const view = await ownedView(ctx, caller, id);
  const users = await datasetsUsingTable(ctx, view.datasourceId, view.viewName);
  if (users.length > 0) throw conflict(sqlViewInUseMessage('删除', users));
  if (!(await deleteSqlView(ctx.db, id))) throw notFound(zhCN.sqlViewNotFound);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The SQL of a preview: Base64 of UTF-8 text in `sqlStatement` (the spec's form), or plain text in `sql`. */
export function previewSql(body: { sqlStatement?: string | undefined; sql?: string | undefined }): string {
  if (body.sqlStatement !== undefined && body.sqlStatement.trim() !== '') {
    const compact = body.sqlStatement.replace(/\s+/g, '');
    if (!BASE64.test(compact) || compact.length % 4 === 1) throw badRequest(zhCN.sqlBase64Invalid, [{ field: 'sqlStatement', message: zhCN.sqlBase64Invalid }]);
    const bytes = Buffer.from(compact, 'base64');
    if (!isUtf8(bytes)) throw badRequest(zhCN.sqlBase64Invalid, [{ field: 'sqlStatement', message: zhCN.sqlBase64Invalid }]);
    const text = bytes.toString('utf8');
    if (text.length > SQL_STATEMENT_MAX_LENGTH) throw badRequest(zhCN.badRequest);
    if (text.trim() !== '') return text;
  } else if (body.sql !== undefined && body.sql.trim() !== '') {
    return body.sql;
  }
  throw badRequest(zhCN.sqlStatementRequired, [{ field: 'sqlStatement', message: zhCN.sqlStatementRequired }]);
}

/** viewPreview: the first 100 rows and the columns, through the read module's user-SQL path. */
export function previewView(ctx: AppContext, caller: Caller, datasourceId: number, text: string): Promise<SqlViewPreviewResult> {
  return previewUserSql(ctx, caller, datasourceId, text);
}
