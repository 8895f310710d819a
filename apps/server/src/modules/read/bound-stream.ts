import type { DataSourceType } from '@shutu/contracts';
import type { Row } from '@shutu/connectors';
import type { Dialect } from '@shutu/query';
import type { AppContext } from '../../context.ts';
import { getDataSourceDriver } from '../datasource/registry.ts';
import type { Caller } from '../perm/index.ts';
import { checkBoundSql, type BoundStatement } from './api-sql.ts';

/**
 * Every row of a bound statement, streamed (order-data export, issue 20): checked as `caller`
 * exactly like a data API's statement (api-sql.ts: the guard, and for a non-administrator a grant
 * of every table it reads), then run read-only with its values bound by the driver.
 */
export async function streamBoundSql(
  ctx: AppContext,
  caller: Caller,
  datasourceId: number,
  bind: (dialect: Dialect, engine: DataSourceType) => BoundStatement,
  options: { timeoutMs: number; field: string; signal?: AbortSignal; rawBytes?: boolean },
): Promise<AsyncIterable<Row>> {
  const statement = await checkBoundSql(ctx, caller, datasourceId, bind, options.field);
  const driver = await getDataSourceDriver(ctx, datasourceId);
  return driver.query(statement.sql, statement.params, { timeoutMs: options.timeoutMs, signal: options.signal, rawBytes: options.rawBytes });
}

/**
 * The rows of a bound statement as a CSV file written by the engine itself (capability
 * `writesCsvFile`; order-data export): checked as `caller` exactly like `streamBoundSql`. Null when
 * the source's driver cannot (the caller streams the rows instead). The caller removes the file.
 */
export async function copyBoundSqlToCsvFile(
  ctx: AppContext,
  caller: Caller,
  datasourceId: number,
  bind: (dialect: Dialect, engine: DataSourceType) => BoundStatement,
  options: { timeoutMs: number; field: string; signal?: AbortSignal; header?: boolean },
): Promise<{ file: string; rows: number } | null> {
  const driver = await getDataSourceDriver(ctx, datasourceId);
  if (!driver.copySelectToCsvFile || !(await driver.info()).capabilities.writesCsvFile) return null;
  const statement = await checkBoundSql(ctx, caller, datasourceId, bind, options.field);
  return driver.copySelectToCsvFile(statement, { timeoutMs: options.timeoutMs, signal: options.signal, header: options.header });
}

/** Whether the source's engine writes CSV files itself (copyBoundSqlToCsvFile answers a file, not null). */
export async function writesCsvFiles(ctx: AppContext, datasourceId: number): Promise<boolean> {
  const driver = await getDataSourceDriver(ctx, datasourceId);
  return driver.copySelectToCsvFile !== undefined && (await driver.info()).capabilities.writesCsvFile;
}
