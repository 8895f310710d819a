import type { DataSourceType } from '@shutu/contracts';
import type { ParamValue, Row } from '@shutu/connectors';
import type { Dialect } from '@shutu/query';
import type { AppContext } from '../../context.ts';
import { assertSourceUsable } from '../datasource/index.ts';
import { getDataSourceDriver } from '../datasource/registry.ts';
import type { Caller } from '../perm/index.ts';
import { checkUserSql } from './user-sql.ts';

/**
 * Data APIs' reads (issue 17, docs/dataapi.md): user SQL with bound parameters. The caller
 * (dataapi) turns its template into SQL for the source's dialect (`bind`); the statement then
 * goes through the same user-SQL check as SQL views (read/user-sql.ts: the guard, the engine's
 * parser where there is one, and for a non-administrator a grant of every table it reads)
 * before it runs read-only with its values bound by the driver.
 */

export interface BoundStatement {
  sql: string;
  params: ParamValue[];
}

export interface BoundRead {
  rows: Row[];
  columns: string[];
  /** More rows than `max` were there (the rest was not read). */
  truncated: boolean;
  elapsedMs: number;
}

/** The statement as bound for the source: checked, not run (a data API's save). */
export async function checkBoundSql(
  ctx: AppContext,
  caller: Caller,
  datasourceId: number,
  bind: (dialect: Dialect, engine: DataSourceType) => BoundStatement,
  field: string,
): Promise<BoundStatement> {
  const source = await assertSourceUsable(ctx, caller, datasourceId);
  const driver = await getDataSourceDriver(ctx, datasourceId);
  const bound = bind(await driver.dialect(), source.type);
  return { sql: await checkUserSql(ctx, caller, datasourceId, bound.sql, field), params: bound.params };
}

/** Checks and runs a bound statement as `caller`: the first `max` rows. */
export async function readBoundSql(
  ctx: AppContext,
  caller: Caller,
  datasourceId: number,
  bind: (dialect: Dialect, engine: DataSourceType) => BoundStatement,
  options: { max: number; timeoutMs: number; field: string },
): Promise<BoundRead> {
  const statement = await checkBoundSql(ctx, caller, datasourceId, bind, options.field);
  const driver = await getDataSourceDriver(ctx, datasourceId);
  const started = performance.now();
  const stream = driver.query(statement.sql, statement.params, { timeoutMs: options.timeoutMs });
  const rows: Row[] = [];
  let truncated = false;
  for await (const row of stream) {
    if (rows.length >= options.max) {
      truncated = true;
      break; // leaving the loop cancels the rest of the query
    }
    rows.push(row);
  }
  return { rows, columns: (stream.columns ?? []).map((c) => c.name), truncated, elapsedMs: Math.round(performance.now() - started) };
}
