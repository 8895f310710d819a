import fs from 'node:fs';
import path from 'node:path';
import { ensureDemoWarehouse } from '@shutu/connectors';
import { BUILTIN_WAREHOUSE_FILE, BUILTIN_WAREHOUSE_NAME } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../platform/http/errors.ts';
import { findBuiltinRow, insertDataSource, nameTaken, updateDataSource } from './repo.ts';
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
 * Start-up: makes sure dataDir/warehouse.duckdb exists and holds the demo data, and that it
 * is registered, once, as the built-in data source 示例数据仓库 (DuckDB, cannot be deleted).
 * Only the serving process owns the file (DuckDB allows one writer process); its driver is
 * opened through the registry like any other source's.
 */
export async function ensureBuiltinWarehouse(ctx: AppContext): Promise<WarehouseResult> {
  const file = path.join(path.resolve(ctx.config.dataDir), BUILTIN_WAREHOUSE_FILE);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const demo = await fillDemoWarehouse(file, { scale: ctx.config.demoScale });

  const existing = await findBuiltinRow(ctx.db);
  if (existing) {
    // The data directory moved: the built-in source follows it.
    if (existing.path !== file) {
      await updateDataSource(ctx.db, existing.id, { path: file });
      await evictDataSourceDriver(ctx, existing.id);
    }
    return { id: existing.id, path: file, registered: false, demo };
  }
  // A user's source may already carry the name (a store restored without its built-in row).
  const name = (await nameTaken(ctx.db, BUILTIN_WAREHOUSE_NAME)) ? `${BUILTIN_WAREHOUSE_NAME}（内置）` : BUILTIN_WAREHOUSE_NAME;
  try {
    const id = await insertDataSource(ctx.db, {
      dsName: name,
      type: 'duckdb',
      host: null,
      port: null,
      database: null,
      username: null,
      passwordEncrypted: null,
      path: file,
      remark: BUILTIN_WAREHOUSE_REMARK,
      isBuiltin: true,
    });
    return { id, path: file, registered: true, demo };
  } catch (error) {
    // Another process registered it first.
    const winner = isUniqueViolation(error) ? await findBuiltinRow(ctx.db) : undefined;
    if (!winner) throw error;
    return { id: winner.id, path: file, registered: false, demo };
  }
}
