import { SQL_PREVIEW_ROWS, SQL_PREVIEW_TIMEOUT_MS, type SqlViewPreviewResult } from '@shutu/contracts';
import type { Row } from '@shutu/connectors';
import { checkInspection, guardSelectSql, referencedTables, SqlGuardError } from '@shutu/query';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../platform/http/errors.ts';
import { getDataSourceDriver } from '../datasource/registry.ts';
import { assertSourceUsable, assertTablesUsable } from '../datasource/index.ts';
import type { Caller } from '../perm/index.ts';

/**
 * User SQL (SQL views): the one way a statement a user wrote reaches an engine. It is checked
 * first, here, every time — the tokenizer guard of @shutu/query for the source's engine, then,
 * where the driver can parse with the engine's own parser (inspectSql), the engine's reading
 * of it; a non-administrator must be granted every table it reads.
 */

const guardFailure = (error: SqlGuardError, field: string) =>
  new AppError(400, error.message, {
    fields: [{ field, message: error.message }],
    position: error.position,
    ...(error.detail === undefined ? {} : { detail: error.detail }),
  });

/** The statement the engine may run, or a 400 carrying the guard's message and position (403 for a table not granted). */
export async function checkUserSql(ctx: AppContext, caller: Caller, datasourceId: number, text: string, field: string): Promise<string> {
  const source = await assertSourceUsable(ctx, caller, datasourceId);
  try {
    const { statement, offset } = guardSelectSql(text, source.type);
    const driver = await getDataSourceDriver(ctx, datasourceId);
    if (driver.inspectSql) checkInspection(await driver.inspectSql(statement), offset);
    if (!caller.isAdministrator) await assertTablesUsable(ctx, caller, datasourceId, referencedTables(statement, source.type));
    return statement;
  } catch (error) {
    if (error instanceof SqlGuardError) throw guardFailure(error, field);
    throw error;
  }
}

/**
 * The first SQL_PREVIEW_ROWS rows of a checked statement and its columns. An engine error is
 * the driver's ConnectorError (400, msg 查询执行失败：<engine text>, data.detail the engine's
 * text), which the editor's error tab shows.
 */
export async function previewUserSql(ctx: AppContext, caller: Caller, datasourceId: number, text: string): Promise<SqlViewPreviewResult> {
  const statement = await checkUserSql(ctx, caller, datasourceId, text, 'sqlStatement');
  const driver = await getDataSourceDriver(ctx, datasourceId);
  const started = performance.now();
  const stream = driver.query(statement, [], { timeoutMs: SQL_PREVIEW_TIMEOUT_MS });
  const rows: Row[] = [];
  let truncated = false;
  for await (const row of stream) {
    if (rows.length >= SQL_PREVIEW_ROWS) {
      truncated = true;
      break; // leaving the loop cancels the rest of the query
    }
    rows.push(row);
  }
  const columns = (stream.columns ?? []).map((c) => ({ name: c.name, databaseType: c.databaseType, viewDataType: c.viewDataType }));
  return { columns, rows, truncated, elapsedMs: Math.round(performance.now() - started) };
}
