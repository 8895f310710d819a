import type { BulkLoadResult, LoadColumn, LoadRow, RowCondition } from '@shutu/connectors';
import type { AppContext } from '../../context.ts';
import { localOwnerOf } from './local-owner.ts';
import { getDataSourceDriver } from './registry.ts';
import { findBuiltinRow } from './repo.ts';

/**
 * The append side of the built-in warehouse (docs/heatmap.md "Tracked clicks in the
 * warehouse"): event ingestion adds rows to a table of its own there and deletes expired ones.
 * Narrow on purpose — no query method (warehouse data is read through modules/read), no table
 * other than the one named by the caller touched. Only the process that owns the warehouse file
 * may write it (DuckDB allows one writer process; local-owner.ts): elsewhere this is null and
 * the caller keeps its rows for the owner.
 */
export interface WarehouseAppender {
  datasourceId: number;
  appendRows(table: string, columns: readonly LoadColumn[], rows: readonly LoadRow[]): Promise<BulkLoadResult>;
  deleteRows(table: string, where: readonly RowCondition[]): Promise<BulkLoadResult>;
}

/** The built-in warehouse's appender when this process owns it and its engine appends; null otherwise. */
export async function builtinWarehouseAppender(ctx: AppContext): Promise<WarehouseAppender | null> {
  const row = await findBuiltinRow(ctx.db);
  if (!row || (row.localOwner && row.localOwner !== localOwnerOf(ctx.config))) return null;
  const driver = await getDataSourceDriver(ctx, row.id);
  const { appendRows, deleteRows } = driver;
  if (!appendRows || !deleteRows) return null;
  return {
    datasourceId: row.id,
    appendRows: (table, columns, rows) => appendRows.call(driver, table, columns, rows),
    deleteRows: (table, where) => deleteRows.call(driver, table, where),
  };
}
