import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { ConnectorError, connectorMessages, openDriver, type DataSourceConfig } from '@shutu/connectors';
import {
  DATA_SOURCE_TEST_TIMEOUT_MS,
  formatMessage,
  zhCN,
  type DataSource,
  type DataSourceColumn,
  type DataSourceTable,
  type DataSourceTestResult,
  type UsableDataSource,
  type Page,
  type dataSourceColumnsQuerySchema,
  type dataSourceSaveSchema,
  type dataSourceTestSchema,
} from '@shutu/contracts';
import { sourceColumns } from './views.ts';
import type { AppContext } from '../../context.ts';
import { page } from '../../platform/http/envelope.ts';
import { invalidatePermissions, usableSources, writableSources, type Caller } from '../perm/index.ts';
import { conflict, fieldError, isForeignKeyViolation, isUniqueViolation, notFound } from '../../platform/http/errors.ts';
import {
  datasetsOfSource,
  deleteDataSource as deleteRow,
  findDataSourceRow,
  findDataSourceRowForUpdate,
  insertDataSource,
  listDataSources as listRows,
  listDataSourcesByIds as listUsableRows,
  nameTaken,
  updateDataSource as updateRow,
  type DataSourceRow,
  type DataSourceValues,
} from './repo.ts';
import { connectionConfig, decryptPassword, encryptPassword, evictDataSourceDriver, getDataSource, getDataSourceDriver, toDataSource } from './registry.ts';

export type DataSourceSaveBody = z.output<typeof dataSourceSaveSchema>;
export type DataSourceTestBody = z.output<typeof dataSourceTestSchema>;
export type DataSourceColumnsQuery = z.output<typeof dataSourceColumnsQuerySchema>;

/** Data-source administration (spec 2 §3 "Data source"; issue 3 "Connectors"). */
export async function listDataSources(ctx: AppContext, query: { current: number; size: number; keyword?: string | undefined }): Promise<Page<DataSource>> {
  const { current, size } = query;
  const { rows, total } = await listRows(ctx.db, query.keyword, (current - 1) * size, size);
  return page(rows.map(toDataSource), total, current, size);
}

/** The sources the caller may build datasets on, by name: all for administrators, granted ones for others. */
export async function listUsableSources(ctx: AppContext, caller: Caller): Promise<UsableDataSource[]> {
  const usable = await usableSources(ctx, caller);
  if (!usable.all && usable.ids.size === 0) return [];
  const rows = await listUsableRows(ctx.db, usable.all ? undefined : [...usable.ids]);
  const writable = await writableSources(ctx, caller);
  return rows.map((row) => {
    const { id, dsDb, type, dsTypeSyl, remark } = toDataSource(row);
    return { id, dsDb, type, dsTypeSyl, remark, writable: writable.all || writable.ids.has(id) };
  });
}

/**
 * A DuckDB file a source may name: an existing `.duckdb` file inside the data directory
 * (relative paths are taken from there). Nothing else on the server's disk is reachable,
 * and a mistyped path never creates a new database file.
 */
export function resolveDuckDbPath(ctx: AppContext, input: string): string {
  const dataDir = path.resolve(ctx.config.dataDir);
  const full = path.resolve(dataDir, input);
  const inside = (dir: string, file: string) => {
    const rel = path.relative(dir, file);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  };
  if (!inside(dataDir, full) || path.extname(full).toLowerCase() !== '.duckdb') throw fieldError('path', zhCN.dsPathOutside);
  if (!fs.existsSync(full) || !fs.statSync(full).isFile()) throw fieldError('path', zhCN.dsPathMissing);
  // A symbolic link must not lead out of the data directory either.
  if (!inside(fs.realpathSync(dataDir), fs.realpathSync(full))) throw fieldError('path', zhCN.dsPathOutside);
  return full;
}

type ConnectionFields = Pick<DataSourceSaveBody, 'type' | 'host' | 'port' | 'database' | 'username' | 'path'>;
type ConnectionValues = Omit<DataSourceValues, 'dsName' | 'remark'>;

/** The connection columns of a form: a server source keeps no path, a DuckDB source no host or credentials. */
function connectionValues(ctx: AppContext, body: ConnectionFields, passwordEncrypted: string | null): ConnectionValues {
  if (body.type === 'duckdb') {
    return { type: body.type, host: null, port: null, database: null, username: null, passwordEncrypted: null, path: resolveDuckDbPath(ctx, body.path ?? '') };
  }
  return { type: body.type, host: body.host, port: body.port, database: body.database, username: body.username, passwordEncrypted, path: null };
}

function valuesOf(ctx: AppContext, body: DataSourceSaveBody, passwordEncrypted: string | null): DataSourceValues {
  return { dsName: body.dsDb, remark: body.remark, ...connectionValues(ctx, body, passwordEncrypted) };
}

/** Names are unique, case-insensitively; the unique index settles a race with the same 409. */
async function withNameConflict<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(zhCN.dsNameExists);
    throw error;
  }
}

export async function createDataSource(ctx: AppContext, body: DataSourceSaveBody): Promise<DataSource> {
  const values = valuesOf(ctx, body, body.password ? encryptPassword(ctx, body.password) : null);
  const id = await withNameConflict(async () => {
    if (await nameTaken(ctx.db, values.dsName)) throw conflict(zhCN.dsNameExists);
    return insertDataSource(ctx.db, values);
  });
  return getDataSource(ctx, id);
}

/**
 * Replaces a source's settings. An empty password keeps the stored one (the form never shows
 * it). The built-in warehouse keeps its engine and file: only its name and remark change.
 */
export async function updateDataSource(ctx: AppContext, id: number, body: DataSourceSaveBody): Promise<DataSource> {
  await withNameConflict(() =>
    ctx.db.transaction().execute(async (trx) => {
      const existing = await findDataSourceRowForUpdate(trx, id);
      if (!existing) throw notFound(zhCN.dsNotFound);
      if (await nameTaken(trx, body.dsDb, id)) throw conflict(zhCN.dsNameExists);
      if (existing.isBuiltin) {
        await updateRow(trx, id, { dsName: body.dsDb, remark: body.remark });
        return;
      }
      const password = body.password ? encryptPassword(ctx, body.password) : existing.passwordEncrypted;
      await updateRow(trx, id, valuesOf(ctx, body, password));
    }),
  );
  // Connections opened with the old settings go; the next use opens new ones.
  await evictDataSourceDriver(ctx, id);
  return getDataSource(ctx, id);
}

export async function deleteDataSource(ctx: AppContext, id: number): Promise<void> {
  const existing = await findDataSourceRow(ctx.db, id);
  if (!existing) throw notFound(zhCN.dsNotFound);
  if (existing.isBuiltin) throw conflict(zhCN.dsBuiltinUndeletable);
  // Datasets are never deleted with their source: the user deletes them first (the foreign
  // key refuses too, should one be saved between this check and the delete).
  const inUse = async () => {
    const { count, names } = await datasetsOfSource(ctx.db, id);
    return count > 0 ? conflict(formatMessage(zhCN.dsInUseByDatasets, { count, names: names.join('、') + (count > names.length ? '…' : '') })) : undefined;
  };
  const refusal = await inUse();
  if (refusal) throw refusal;
  try {
    if ((await deleteRow(ctx.db, id)) === 0) throw notFound(zhCN.dsNotFound);
  } catch (error) {
    if (isForeignKeyViolation(error)) throw (await inUse()) ?? conflict();
    throw error;
  }
  // Its table grants went with it (cascade): the permission service's cached answers go too.
  invalidatePermissions(ctx);
  await evictDataSourceDriver(ctx, id);
}

function addressOf(config: DataSourceConfig): string {
  return config.type === 'duckdb' ? (config.path ?? '') : `${config.host ?? ''}:${config.port ?? ''}`;
}

/**
 * Connects with a fresh driver (a cached one answers from its cache) and reports the server
 * version. Whatever the network does, the answer comes within DATA_SOURCE_TEST_TIMEOUT_MS:
 * the drivers give up connecting after 3.5 s, and this deadline backs them up.
 */
async function runTest(config: DataSourceConfig): Promise<DataSourceTestResult> {
  const started = performance.now();
  const driver = openDriver(config);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const seconds = DATA_SOURCE_TEST_TIMEOUT_MS / 1000;
      reject(new ConnectorError('unreachable', formatMessage(connectorMessages.connectTimeout, { address: addressOf(config), seconds })));
    }, DATA_SOURCE_TEST_TIMEOUT_MS);
  });
  try {
    const info = await Promise.race([driver.testConnection(), deadline]);
    return { dialect: info.dialect, serverVersion: info.serverVersion, elapsedMs: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
    // Not awaited: a pool still waiting for an unreachable host must not hold the answer back.
    void driver.close().catch(() => undefined);
  }
}

export async function testSavedDataSource(ctx: AppContext, id: number): Promise<DataSourceTestResult> {
  const row = await findDataSourceRow(ctx.db, id);
  if (!row) throw notFound(zhCN.dsNotFound);
  return runTest(connectionConfig(ctx, row));
}

/**
 * Tests a form before it is saved. When it edits a saved source (`id`) and leaves the
 * password empty, the stored password is used, as a save would.
 */
export async function testDataSourceForm(ctx: AppContext, body: DataSourceTestBody): Promise<DataSourceTestResult> {
  let stored: DataSourceRow | undefined;
  if (body.id) {
    stored = await findDataSourceRow(ctx.db, body.id);
    if (!stored) throw notFound(zhCN.dsNotFound);
  }
  const values = stored?.isBuiltin ? stored : connectionValues(ctx, body, null);
  const config = connectionConfig(ctx, { ...values, passwordEncrypted: null });
  if (config.type !== 'duckdb') {
    if (body.password) config.password = body.password;
    else if (stored?.passwordEncrypted && stored.type === body.type) config.password = decryptPassword(ctx, stored.passwordEncrypted);
  }
  return runTest(config);
}

/** Tables and views of a source with their comments, through its registry driver (every table: callers filter by grants). */
export async function listTables(ctx: AppContext, id: number): Promise<DataSourceTable[]> {
  const driver = await getDataSourceDriver(ctx, id);
  const tables = await driver.listTables();
  return tables.map((t) => ({ schema: t.schema, name: t.name, comment: t.comment, kind: t.type }));
}

/** Columns of a table, or of a saved SQL view of the source named like one (views.ts). */
export async function listColumns(ctx: AppContext, id: number, query: DataSourceColumnsQuery): Promise<DataSourceColumn[]> {
  const columns = await sourceColumns(ctx, id, { schema: query.schema ?? null, name: query.tableName });
  return columns.map((c) => ({ name: c.name, comment: c.comment, dbType: c.databaseType, viewDataType: c.viewDataType }));
}
