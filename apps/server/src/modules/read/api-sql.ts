import { createHash } from 'node:crypto';
import type { DataSourceType } from '@shutu/contracts';
import type { ParamValue, Row } from '@shutu/connectors';
import { checkInspection, guardSelectSql, referencedTables, SqlGuardError, type Dialect } from '@shutu/query';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../platform/http/errors.ts';
import { SingleFlightCache } from '../../platform/cache/single-flight.ts';
import { assertSourceUsable, assertTablesUsable } from '../datasource/index.ts';
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

/** Runs a checked statement: the first `max` rows. */
async function execute(ctx: AppContext, datasourceId: number, statement: BoundStatement, options: { max: number; timeoutMs: number }): Promise<BoundRead> {
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

/** Checks and runs a bound statement as `caller`: the first `max` rows. With `cacheTtlMs`, see readBoundSqlCached. */
export async function readBoundSql(
  ctx: AppContext,
  caller: Caller,
  datasourceId: number,
  bind: (dialect: Dialect, engine: DataSourceType) => BoundStatement,
  options: { max: number; timeoutMs: number; field: string; cacheTtlMs?: number },
): Promise<BoundRead> {
  if (options.cacheTtlMs !== undefined && options.cacheTtlMs > 0)
    return readBoundSqlCached(ctx, caller, datasourceId, bind, { ...options, cacheTtlMs: options.cacheTtlMs });
  const statement = await checkBoundSql(ctx, caller, datasourceId, bind, options.field);
  return execute(ctx, datasourceId, statement, options);
}

// Cached reads (published data APIs with a cache time, docs/dataapi.md "Caching").

/** Most answers and rows kept per server and cache time. */
const CACHE_MAX_ENTRIES = 1000;
const CACHE_MAX_ROWS = 500_000;

interface Parsed {
  statement: string;
  tables: ReturnType<typeof referencedTables>;
}

/**
 * The caller's use of the source (its grant) and the source's dialect, kept for at most this long
 * and never longer than the cache time: a grant taken away or a source changed is seen within it.
 */
const SOURCE_CHECK_MS = 1_000;

interface BoundCaches {
  /** The caller may use the source; its type and dialect. */
  sources: SingleFlightCache<{ type: DataSourceType; dialect: Dialect }>;
  /** What the guard and the engine's parser made of a statement text: it depends on the text alone. */
  parsed: SingleFlightCache<Parsed>;
  answers: SingleFlightCache<BoundRead>;
}

const boundCaches = new WeakMap<AppContext, Map<number, BoundCaches>>();

function cachesFor(ctx: AppContext, ttlMs: number): BoundCaches {
  let byTtl = boundCaches.get(ctx);
  if (!byTtl) boundCaches.set(ctx, (byTtl = new Map()));
  let caches = byTtl.get(ttlMs);
  if (!caches) {
    caches = {
      sources: new SingleFlightCache({ ttlMs: Math.min(ttlMs, SOURCE_CHECK_MS), maxEntries: CACHE_MAX_ENTRIES }),
      parsed: new SingleFlightCache<Parsed>({ ttlMs, maxEntries: CACHE_MAX_ENTRIES }),
      answers: new SingleFlightCache<BoundRead>({ ttlMs, maxEntries: CACHE_MAX_ENTRIES, maxWeight: CACHE_MAX_ROWS, weigh: (read) => read.rows.length + 1 }),
    };
    byTtl.set(ttlMs, caches);
  }
  return caches;
}

const hashOf = (value: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)))
    .digest('hex');

/**
 * The same check and read as readBoundSql, sharing work for `cacheTtlMs`: for a
 * non-administrator the grant of every table is checked on every call (through the permission
 * snapshot: a grant taken away refuses at once); the use of the source and its dialect are kept
 * for SOURCE_CHECK_MS at most (no metadata read per call); what the guard and the engine's parser make of the text,
 * and the answer of the same statement with the same values, are kept for the cache time and
 * shared by every caller allowed to read them (a table grant is the whole table: raw reads have
 * no per-reader row filters). Failures are never kept.
 */
export async function readBoundSqlCached(
  ctx: AppContext,
  caller: Caller,
  datasourceId: number,
  bind: (dialect: Dialect, engine: DataSourceType) => BoundStatement,
  options: { max: number; timeoutMs: number; field: string; cacheTtlMs: number },
): Promise<BoundRead & { cached: boolean }> {
  const caches = cachesFor(ctx, options.cacheTtlMs);
  const { value: source } = await caches.sources.run(`${caller.userId}:${caller.isAdministrator}:${datasourceId}`, async () => {
    const { type } = await assertSourceUsable(ctx, caller, datasourceId);
    return { type, dialect: await (await getDataSourceDriver(ctx, datasourceId)).dialect() };
  });
  const bound = bind(source.dialect, source.type);
  const { value: parsed } = await caches.parsed.run(hashOf([datasourceId, source.type, bound.sql]), async () => {
    try {
      const { statement, offset } = guardSelectSql(bound.sql, source.type);
      const driver = await getDataSourceDriver(ctx, datasourceId);
      if (driver.inspectSql) checkInspection(await driver.inspectSql(statement), offset);
      return { statement, tables: referencedTables(statement, source.type) };
    } catch (error) {
      if (error instanceof SqlGuardError)
        throw new AppError(400, error.message, { fields: [{ field: options.field, message: error.message }], position: error.position });
      throw error;
    }
  });
  if (!caller.isAdministrator) await assertTablesUsable(ctx, caller, datasourceId, parsed.tables);
  const statement = { sql: parsed.statement, params: bound.params };
  const answer = await caches.answers.run(hashOf([datasourceId, statement.sql, statement.params, options.max]), () =>
    execute(ctx, datasourceId, statement, options),
  );
  return { ...answer.value, cached: answer.shared };
}
