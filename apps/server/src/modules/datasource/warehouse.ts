import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDemoWarehouse } from '@shutu/connectors';
import { BUILTIN_WAREHOUSE_NAME } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../platform/http/errors.ts';
import { findBuiltinRow, findLocalRow, insertDataSource, nameTaken, updateDataSource, type DataSourceRow } from './repo.ts';
import { localOwnerOf, ownerOnThisHost, warehouseFile } from './local-owner.ts';
import { evictDataSourceDriver } from './registry.ts';

export const BUILTIN_WAREHOUSE_REMARK = '内置 DuckDB 数据仓库，存放示例数据与上传的文件表';

export interface WarehouseResult {
  id: number;
  path: string;
  /** Whether this start registered the built-in data source. */
  registered: boolean;
  /** What happened to the demo data: generated now, or kept from an earlier start. */
  demo: 'generated' | 'kept';
}

/**
 * Fills the warehouse file with the generated demo tables (packages/connectors/src/demo):
 * generated on first start, kept afterwards unless the generator version, seed or scale
 * changed; tables that are not the generator's (file tables) are never touched. It opens its
 * own DuckDB instance and closes it again, so it must run before anything else in this
 * process opens the file: two instances on one file must never be open at once.
 */
async function fillDemoWarehouse(file: string, options: { scale?: number | undefined }): Promise<WarehouseResult['demo']> {
  const result = await ensureDemoWarehouse(file, options.scale ? { scale: options.scale } : {});
  return result.action;
}

/**
 * Start-up: makes sure dataDir/warehouse.duckdb exists and holds the demo data, and that it is
 * registered as a data source, one row per physical warehouse (its owner: this host and file,
 * local-owner.ts). Only the owning process opens the file (DuckDB allows one writer process).
 *
 * - The first process registers the built-in source 示例数据仓库 (cannot be deleted).
 * - On the embedded PGlite store there is one process: the built-in row follows a moved data
 *   directory.
 * - On PostgreSQL several processes may share the store: a process never rewrites another's
 *   path. A row whose file is gone from this host is adopted (the data directory moved); a row
 *   of a file that still exists, or of another host, stays, and this process registers its own
 *   warehouse as a local source of its own (示例数据仓库（host …）) that no other process opens.
 */
export async function ensureBuiltinWarehouse(ctx: AppContext): Promise<WarehouseResult> {
  const file = warehouseFile(ctx.config);
  const owner = localOwnerOf(ctx.config);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const demo = await fillDemoWarehouse(file, { scale: ctx.config.demoScale });

  const existing = await findBuiltinRow(ctx.db);
  if (existing) {
    if (existing.path === file && existing.localOwner === owner) return { id: existing.id, path: file, registered: false, demo };
    if (ctx.store.kind === 'pglite' || mayAdopt(existing, file)) {
      await updateDataSource(ctx.db, existing.id, { path: file, localOwner: owner });
      await evictDataSourceDriver(ctx, existing.id);
      return { id: existing.id, path: file, registered: false, demo };
    }
    return ensureOwnLocalSource(ctx, file, owner, demo);
  }
  // A user's source may already carry the name (a store restored without its built-in row).
  const name = (await nameTaken(ctx.db, BUILTIN_WAREHOUSE_NAME)) ? `${BUILTIN_WAREHOUSE_NAME}（内置）` : BUILTIN_WAREHOUSE_NAME;
  try {
    const id = await insertDataSource(ctx.db, { ...warehouseValues(name, file), isBuiltin: true, localOwner: owner });
    return { id, path: file, registered: true, demo };
  } catch (error) {
    // Another process registered it first: this one keeps its own file as its own source.
    const winner = isUniqueViolation(error) ? await findBuiltinRow(ctx.db) : undefined;
    if (!winner) throw error;
    if (winner.localOwner === owner) return { id: winner.id, path: file, registered: false, demo };
    return ensureOwnLocalSource(ctx, file, owner, demo);
  }
}

/**
 * On a shared store: the built-in row may be taken over only when it is this very file (a row
 * from before owners were recorded) or a file on this host that no longer exists (the data
 * directory moved). Another process's live file is never rewritten.
 */
function mayAdopt(row: DataSourceRow, file: string): boolean {
  if (row.path === file) return true;
  const ownerFile = row.localOwner ? ownerOnThisHost(row.localOwner) : (row.path ?? undefined);
  return ownerFile !== undefined && !fs.existsSync(ownerFile);
}

function warehouseValues(dsName: string, file: string) {
  return {
    dsName,
    type: 'duckdb' as const,
    host: null,
    port: null,
    database: null,
    username: null,
    passwordEncrypted: null,
    path: file,
    remark: BUILTIN_WAREHOUSE_REMARK,
  };
}

/** This process's warehouse as a source of its own, found by its owner on a later start. */
async function ensureOwnLocalSource(ctx: AppContext, file: string, owner: string, demo: WarehouseResult['demo']): Promise<WarehouseResult> {
  const mine = await findLocalRow(ctx.db, owner);
  if (mine) return { id: mine.id, path: file, registered: false, demo };
  const base = `${BUILTIN_WAREHOUSE_NAME}（${os.hostname()} ${path.dirname(file)}）`;
  const name = (await nameTaken(ctx.db, base)) ? `${base} ${owner.length}` : base;
  const id = await insertDataSource(ctx.db, { ...warehouseValues(name, file), localOwner: owner });
  return { id, path: file, registered: true, demo };
}

/**
 * The embedded warehouse this process reads for the features that run on the built-in DuckDB
 * only (the order-data export): the built-in row when this process owns it (or one process runs),
 * else this process's own local source — several processes, each with its own DuckDB file of the
 * same demo (issue 27, docs/deploy.md) — else the built-in row (refused with its reason).
 */
export async function findOwnWarehouseRow(ctx: AppContext): Promise<DataSourceRow | undefined> {
  const builtin = await findBuiltinRow(ctx.db);
  const owner = localOwnerOf(ctx.config);
  if (!builtin || !builtin.localOwner || builtin.localOwner === owner) return builtin;
  return (await findLocalRow(ctx.db, owner)) ?? builtin;
}
