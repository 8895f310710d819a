import type { CompiledQuery } from '@shutu/query';
import { chartTotals } from '../board/index.ts';
import { type OpenRead, readCount, readRows } from '../read/index.ts';

/** Reads of an export beside its rows: the count and the 合计 queries (through the read module). */

/** Statement timeout of an export's query (its rows are read while the file is written). */
export const EXPORT_QUERY_TIMEOUT_MS = 30 * 60_000;

/** Every row of a totals query (one for the grand total, one per column or row combination for a pivot's). */
export async function totalsRows(read: OpenRead, compiled: CompiledQuery) {
  const rows = await readRows(read.driver, compiled, Number.MAX_SAFE_INTEGER, { timeoutMs: EXPORT_QUERY_TIMEOUT_MS });
  return { rows: rows as Parameters<typeof chartTotals>[0]['rows'], fields: compiled.fields };
}

export async function countRows(read: OpenRead, count: CompiledQuery['count']): Promise<number | null> {
  return count ? readCount(read.driver, count, { timeoutMs: EXPORT_QUERY_TIMEOUT_MS }) : null;
}
