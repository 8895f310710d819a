import { openDriver, type DataSourceConfig, type Driver } from '@shutu/connectors';
import { DATA_SOURCE_TYPE_LABELS, formatMessage, zhCN, type DataSource } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { DecryptError, decryptSecret, encryptSecret, resolveSecretKey } from '../../platform/crypto.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import { CoherentMemo, publish } from '../../platform/cache/coherent.ts';
import { findDataSourceRow, type DataSourceRow } from './repo.ts';
import { localOwnerOf } from './local-owner.ts';

/**
 * The one place the server gets a data source's driver. Other modules (file tables, SQL
 * views, datasets, …) call only the three exported functions at the top; the data-source
 * service also evicts drivers when a source is edited or deleted.
 *
 * One open driver per source id and app context. A cached driver is reused while the row's
 * connection settings stay the same; when they change (an edit here, or in another process
 * sharing the store) it is closed and a new one opened. All are closed when the app closes.
 * The built-in warehouse is a DuckDB file owned by this process: DuckDB's instance cache
 * makes every driver on that file share one database instance.
 *
 * The rows themselves are kept per app context for up to SOURCE_ROW_MEMO_MS (every read asks
 * for one): an edit or delete publishes 'datasource' on the cache bus, so this process and
 * every other one sharing the store read the row again before their next use.
 */

export const SOURCE_ROW_MEMO_MS = 30_000;
const sourceRows = new CoherentMemo<DataSourceRow | undefined>(['datasource'], SOURCE_ROW_MEMO_MS);

function sourceRow(ctx: AppContext, id: number): Promise<DataSourceRow | undefined> {
  return sourceRows.get(ctx, String(id), () => findDataSourceRow(ctx.db, id));
}

/** The source's public shape (no password) or undefined when there is none with this id. */
export async function findDataSource(ctx: AppContext, id: number): Promise<DataSource | undefined> {
  const row = await sourceRow(ctx, id);
  return row && toDataSource(row);
}

/** The source's public shape; 404 数据源不存在 when there is none with this id. */
export async function getDataSource(ctx: AppContext, id: number): Promise<DataSource> {
  const source = await findDataSource(ctx, id);
  if (!source) throw notFound(zhCN.dsNotFound);
  return source;
}

/**
 * The open driver of a source (404 数据源不存在 when unknown). Do not close it: the registry
 * owns it. Failures of its calls are ConnectorErrors, answered by the error handler.
 */
export async function getDataSourceDriver(ctx: AppContext, id: number): Promise<Driver> {
  const row = await sourceRow(ctx, id);
  if (!row) throw notFound(zhCN.dsNotFound);
  // Another process's embedded warehouse: opening its file here would take its lock (local-owner.ts).
  if (row.localOwner && row.localOwner !== localOwnerOf(ctx.config)) {
    throw new AppError(503, formatMessage(zhCN.dsLocalWarehouseElsewhere, { owner: row.localOwner }));
  }
  const drivers = driversOf(ctx);
  const fingerprint = fingerprintOf(row);
  const cached = drivers.get(id);
  if (cached?.fingerprint === fingerprint) return cached.driver;
  // openDriver does no I/O, so nothing can interleave between the check above and the set below.
  const driver = announcingWrites(ctx, id, openDriver(connectionConfig(ctx, row)));
  drivers.set(id, { fingerprint, driver });
  if (cached) closeQuietly(cached.driver);
  return driver;
}

/** What a source tells about itself without reading its data: dialect, tables, columns, its own parse of a statement. */
export type SourceMetadata = Pick<Driver, 'type' | 'info' | 'dialect' | 'defaultSchema' | 'listTables' | 'listColumns' | 'inspectSql'>;

/**
 * The source's metadata (404 数据源不存在 when unknown). Modules other than the read module and
 * file tables get this, never the driver's query method: warehouse data is read through
 * modules/read (the boundary check enforces it).
 */
export function getSourceMetadata(ctx: AppContext, id: number): Promise<SourceMetadata> {
  return getDataSourceDriver(ctx, id);
}

/** What a module that fills tables of a source needs (connected-platform pulls): loading and swapping tables, no query method. */
export type SourceWriter = Pick<Driver, 'type' | 'bulkLoad' | 'tableExists' | 'renameTable' | 'dropTable'>;

/** The source's table writer (404 数据源不存在 when unknown); its data is still read through modules/read. */
export function getSourceWriter(ctx: AppContext, id: number): Promise<SourceWriter> {
  return getDataSourceDriver(ctx, id);
}

// ---------------------------------------------------------------------------------------

interface CachedDriver {
  /** The connection settings the driver was opened with. */
  fingerprint: string;
  driver: Driver;
}

const registries = new WeakMap<AppContext, Map<number, CachedDriver>>();

function driversOf(ctx: AppContext): Map<number, CachedDriver> {
  let drivers = registries.get(ctx);
  if (!drivers) {
    drivers = new Map();
    registries.set(ctx, drivers);
  }
  return drivers;
}

/**
 * Loads, appends, deletes, renames and drops through the driver change the source's data: each publishes the read
 * topic keyed by the source before and after it runs, so the read cache (modules/read/cache.ts)
 * of every process counts the source's data version up and serves no answer read before or
 * during the change (issue 26). Patched on the instance: the drivers keep private state.
 */
function announcingWrites(ctx: AppContext, id: number, driver: Driver): Driver {
  const changed = () => publish(ctx, 'read', String(id));
  const writes = driver as unknown as Record<string, ((...args: unknown[]) => Promise<unknown>) | undefined>;
  for (const name of ['bulkLoad', 'bulkLoadCsvFile', 'bulkLoadSelect', 'appendRows', 'deleteRows', 'renameTable', 'dropTable'] as const) {
    const write = writes[name];
    if (!write) continue;
    writes[name] = async (...args: unknown[]) => {
      changed();
      try {
        return await write.apply(driver, args);
      } finally {
        changed();
      }
    };
  }
  return driver;
}

function fingerprintOf(row: DataSourceRow): string {
  return JSON.stringify([row.type, row.host, row.port, row.database, row.username, row.passwordEncrypted, row.path]);
}

function closeQuietly(driver: Driver): Promise<void> {
  return driver.close().catch(() => undefined);
}

/**
 * Closes the cached driver of a source (after an edit or a delete has committed); the next
 * call opens a new one. Every process forgets its kept rows (they reopen on a changed row).
 */
export async function evictDataSourceDriver(ctx: AppContext, id: number): Promise<void> {
  publish(ctx, 'datasource');
  const drivers = driversOf(ctx);
  const cached = drivers.get(id);
  drivers.delete(id);
  if (cached) await closeQuietly(cached.driver);
}

/** Closes every cached driver: the app's onClose hook. */
export async function closeDataSourceDrivers(ctx: AppContext): Promise<void> {
  const drivers = driversOf(ctx);
  const all = [...drivers.values()];
  drivers.clear();
  await Promise.all(all.map((c) => closeQuietly(c.driver)));
}

/** Additional data bound to every stored data-source password. */
const PASSWORD_CONTEXT = 'shutu:data_source.password';

export function encryptPassword(ctx: AppContext, password: string): string {
  return encryptSecret(resolveSecretKey(ctx.config), password, PASSWORD_CONTEXT);
}

export function decryptPassword(ctx: AppContext, stored: string): string {
  try {
    return decryptSecret(resolveSecretKey(ctx.config), stored, PASSWORD_CONTEXT);
  } catch (error) {
    if (error instanceof DecryptError) throw new AppError(500, zhCN.dsPasswordUnreadable);
    throw error;
  }
}

/** What the connector needs: the row's settings with the password decrypted. */
export function connectionConfig(
  ctx: AppContext,
  row: Pick<DataSourceRow, 'type' | 'host' | 'port' | 'database' | 'username' | 'passwordEncrypted' | 'path'>,
): DataSourceConfig {
  // Embedded DuckDB runs on this machine (in its engine process, or inside the server): its engine
  // limits are the server's settings; it may write CSV files into one private directory (the
  // order-data export, docs/order-export.md).
  if (row.type === 'duckdb') {
    const config: DataSourceConfig = {
      type: 'duckdb',
      path: row.path ?? '',
      memoryLimit: ctx.config.duckdbMemoryLimit,
      csvOutput: true,
      engineProcess: ctx.config.duckdbEngineProcess,
    };
    if (ctx.config.duckdbThreads) config.threads = ctx.config.duckdbThreads;
    return config;
  }
  const config: DataSourceConfig = { type: row.type };
  if (row.host) config.host = row.host;
  if (row.port) config.port = row.port;
  if (row.database) config.database = row.database;
  if (row.username) config.user = row.username;
  if (row.passwordEncrypted) config.password = decryptPassword(ctx, row.passwordEncrypted);
  return config;
}

export function toDataSource(row: DataSourceRow): DataSource {
  return {
    id: row.id,
    dsDb: row.dsName,
    type: row.type,
    dsTypeSyl: DATA_SOURCE_TYPE_LABELS[row.type],
    host: row.host,
    port: row.port,
    database: row.database,
    username: row.username,
    hasPassword: row.passwordEncrypted !== null,
    path: row.path,
    remark: row.remark,
    isBuiltin: row.isBuiltin,
    createTime: new Date(row.createTime).toISOString(),
    updateTime: new Date(row.updateTime).toISOString(),
  };
}
