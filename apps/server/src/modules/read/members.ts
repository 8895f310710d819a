import { randomBytes } from 'node:crypto';
import type { CubeQueryRequestParsed } from '@shutu/contracts';
import { STAGING_TABLE_PREFIX, type CsvFileSource, type LoadColumn, type LoadRow, type ParamValue, type Row } from '@shutu/connectors';
import { planCubeQuery, renderQuery, type CubePlan, type Dialect, type RenderedSql, type SelectQuery } from '@shutu/query';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../platform/http/errors.ts';
import { findBuiltinRow } from '../datasource/index.ts';
import { getDataSourceDriver } from '../datasource/registry.ts';
import { refusing } from './compile.ts';
import type { OpenRead } from './open.ts';

/**
 * Audience member tables (issue 18, docs/audiences.md). An audience's members are computed by
 * reads of this module (planRead: the subject's row filters and hidden columns, as compileRead)
 * and kept in the built-in warehouse as a table of their own, written by a bulk load like a file
 * table's. The tables carry the private staging prefix, so no table listing (and so no dataset or
 * grant) ever shows them: they are reached only through the audience that owns them.
 */

/** A request of the read planned with its subject's restriction, for set operations (the caller renders). */
export function planRead(read: OpenRead, request: CubeQueryRequestParsed): CubePlan {
  return refusing(() =>
    planCubeQuery(read.model, request, {
      dialect: read.dialect,
      now: read.now,
      timeZoneOffsetMinutes: read.timeZoneOffsetMinutes,
      rowFilters: read.permissions.rowFilters,
      rowFilterSets: read.permissions.rowFilterSets,
      excludedColumnIds: read.permissions.excludedColumnIds,
      params: read.params,
      derivedTables: read.derivedTables,
    }),
  );
}

const MEMBER_PREFIX = `${STAGING_TABLE_PREFIX}audience_`;

/** The built-in warehouse: its source id and dialect (member tables live there). */
export async function memberWarehouse(ctx: AppContext): Promise<{ datasourceId: number; dialect: Dialect; schema: string }> {
  const row = await findBuiltinRow(ctx.db);
  if (!row) throw new AppError(500, '内置数据仓库不存在');
  const driver = await getDataSourceDriver(ctx, row.id);
  return { datasourceId: row.id, dialect: await driver.dialect(), schema: await driver.defaultSchema() };
}

/** A new member table's name for audience `audienceId` (the caller records it before loading: audience/member-gc.ts). */
export function newMemberTableName(audienceId: number): string {
  return `${MEMBER_PREFIX}${Math.trunc(audienceId)}_${randomBytes(6).toString('hex')}`;
}

function requireMemberTable(table: string): void {
  if (!table.startsWith(MEMBER_PREFIX)) throw new Error('not a member table');
}

/** Loads rows into the new member table `table` (named by newMemberTableName). */
export async function loadMemberTable(
  ctx: AppContext,
  table: string,
  columns: readonly LoadColumn[],
  rows: AsyncIterable<LoadRow> | Iterable<LoadRow>,
): Promise<{ table: string; rows: number }> {
  requireMemberTable(table);
  const { datasourceId } = await memberWarehouse(ctx);
  const driver = await getDataSourceDriver(ctx, datasourceId);
  const result = await driver.bulkLoad(table, columns, rows, { batchSize: 50_000 });
  return { table, rows: result.rows };
}

/**
 * Loads a CSV file of this machine (written by the caller: header line, then the columns) into a new
 * member table by the engine itself — the warehouse reads the file (DuckDB `read_csv`), far faster than
 * the row path for large imports. Null when the engine cannot (the caller then uses loadMemberTable).
 */
export async function loadMemberCsv(
  ctx: AppContext,
  table: string,
  columns: readonly LoadColumn[],
  file: CsvFileSource,
): Promise<{ table: string; rows: number } | null> {
  requireMemberTable(table);
  const { datasourceId } = await memberWarehouse(ctx);
  const driver = await getDataSourceDriver(ctx, datasourceId);
  if (!driver.bulkLoadCsvFile || !(await driver.info()).capabilities.loadsLocalCsv) return null;
  const result = await driver.bulkLoadCsvFile(table, columns, file);
  return { table, rows: result.rows };
}

/**
 * Fills a new member table of audience `audienceId` from a statement over the built-in warehouse,
 * run by the engine itself (INSERT … SELECT): the members never pass through this process. The
 * statement's columns are the member columns after `audience_id` (phone, c1, …). Null when the
 * warehouse's engine cannot (the caller then streams rows to loadMemberTable).
 */
export async function loadMemberSelect(
  ctx: AppContext,
  table: string,
  audienceId: number,
  columns: readonly LoadColumn[],
  members: { sql: string; params: readonly ParamValue[]; columns: readonly string[] },
  options: { signal?: AbortSignal } = {},
): Promise<{ table: string; rows: number } | null> {
  requireMemberTable(table);
  const { datasourceId, dialect } = await memberWarehouse(ctx);
  const driver = await getDataSourceDriver(ctx, datasourceId);
  if (!driver.bulkLoadSelect) return null;
  const q = (name: string) => dialect.quoteIdentifier(name);
  // The id is this module's own integer, not a user's value.
  const sql = `SELECT ${Math.trunc(audienceId)} AS ${q('audience_id')}, ${members.columns.map((c) => `${q('m')}.${q(c)}`).join(', ')} FROM (${members.sql}) ${q('m')}`;
  const result = await driver.bulkLoadSelect(table, columns, { sql, params: members.params }, { signal: options.signal });
  return { table, rows: result.rows };
}

/** Drops a member table (a replaced or deleted audience's); only member tables are ever dropped. */
export async function dropMemberTable(ctx: AppContext, table: string): Promise<void> {
  if (!table.startsWith(MEMBER_PREFIX)) return;
  const { datasourceId } = await memberWarehouse(ctx);
  const driver = await getDataSourceDriver(ctx, datasourceId);
  await driver.dropTable(table);
}

/** `SELECT columns FROM member table` for the warehouse's dialect (export, statistics over members). */
export function memberTableQuery(dialect: Dialect, table: string, columns: readonly string[]): RenderedSql {
  requireMemberTable(table);
  const query: SelectQuery = {
    k: 'select',
    distinct: false,
    columns: columns.map((c) => ({ expr: { k: 'column', table: 'm', column: c }, alias: c })),
    from: { k: 'table', schema: null, name: table, alias: 'm' },
    joins: [],
    where: null,
    groupBy: [],
    having: null,
    orderBy: [],
    limit: null,
    offset: null,
  };
  return renderQuery(query, dialect);
}

/** Every member row (CSV export); the caller checked that the audience may be read. */
export async function streamMemberTable(
  ctx: AppContext,
  table: string,
  columns: readonly string[],
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<AsyncIterable<Row>> {
  const { datasourceId, dialect } = await memberWarehouse(ctx);
  const driver = await getDataSourceDriver(ctx, datasourceId);
  const query = memberTableQuery(dialect, table, columns);
  return driver.query(query.sql, query.params as ParamValue[], options);
}
