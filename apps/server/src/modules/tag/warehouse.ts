import type { DataSourceType } from '@shutu/contracts';
import type { Row } from '@shutu/connectors';
import type { Dialect } from '@shutu/query';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../platform/http/errors.ts';
import { findBuiltinRow } from '../datasource/index.ts';
import type { Caller } from '../perm/index.ts';
import { readBoundSql, type BoundStatement } from '../read/index.ts';

/**
 * Reads of the demo warehouse's tag tables (tags, user_tags, tag_month_counts, users, orders,
 * user_month_usage) through the read module as the caller: the SQL guard, and for a
 * non-administrator a grant of every table the statement reads. Values are always bound.
 */

const TIMEOUT_MS = 60_000;
const MAX_ROWS = 10_000;

export type Bind = (v: string | number) => string;

export async function builtinSourceId(ctx: AppContext): Promise<number> {
  const source = await findBuiltinRow(ctx.db);
  if (!source) throw new AppError(404, '内置数仓不存在');
  return source.id;
}

/** Runs `build(p)`, where `p(value)` binds a value and returns its placeholder. */
export async function readWarehouse(ctx: AppContext, caller: Caller, build: (p: Bind) => string, field = 'tagId'): Promise<Row[]> {
  return readStatement(
    ctx,
    caller,
    (dialect) => {
      const params: (string | number)[] = [];
      const sql = build((v) => {
        params.push(v);
        return dialect.placeholder(params.length);
      });
      return { sql, params };
    },
    field,
  );
}

/** Runs a statement the caller renders for the warehouse's dialect (packages/query trees). */
export async function readStatement(
  ctx: AppContext,
  caller: Caller,
  bind: (dialect: Dialect, engine: DataSourceType) => BoundStatement,
  field: string,
): Promise<Row[]> {
  const sourceId = await builtinSourceId(ctx);
  return (await readBoundSql(ctx, caller, sourceId, bind, { max: MAX_ROWS, timeoutMs: TIMEOUT_MS, field })).rows;
}

export const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
export const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
