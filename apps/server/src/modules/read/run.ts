import { CUBE_PREVIEW_TIMEOUT_MS, type CubePreviewResult } from '@shutu/contracts';
import type { Driver, ParamValue, Row } from '@shutu/connectors';
import type { RenderedSql } from '@shutu/query';
import type { CompiledPreview } from './compile.ts';

/**
 * Running compiled reads on a driver: a page (its rows and, beside them, its count), every
 * row as a stream (exports), or all rows of a small query (totals). Engine failures are the
 * driver's ConnectorErrors (status, Chinese message, engine text in data.detail).
 */

/** A page: its rows up to the limit and its count query side by side. */
export async function runPreview(driver: Driver, compiled: CompiledPreview): Promise<CubePreviewResult> {
  const started = performance.now();
  // One failing query cancels the other instead of leaving it to run until its timeout.
  const abort = new AbortController();
  try {
    const [dataList, total] = await Promise.all([
      readRows(driver, compiled, compiled.limit, { timeoutMs: CUBE_PREVIEW_TIMEOUT_MS, signal: abort.signal }),
      compiled.count ? readCount(driver, compiled.count, { timeoutMs: CUBE_PREVIEW_TIMEOUT_MS, signal: abort.signal }) : null,
    ]);
    return { dataList, fieldDict: compiled.fields, total, elapsedMs: Math.round(performance.now() - started) };
  } catch (error) {
    abort.abort();
    throw error;
  }
}

export interface RunOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

/** The first `max` rows (a row beyond them leaves the loop, which cancels the rest of the query). */
export async function readRows(driver: Driver, query: RenderedSql, max: number, options: RunOptions): Promise<Row[]> {
  const rows: Row[] = [];
  // By the driver's batches: one await per batch rather than per row (docs/board-speed.md "Per-request overhead").
  const stream = driver.query(query.sql, query.params as ParamValue[], { ...options, ...(query.rowLimit === undefined ? {} : { rowLimit: query.rowLimit }) });
  read: for await (const batch of stream.batches())
    for (const row of batch) {
      if (rows.length >= max) break read;
      rows.push(row);
    }
  return rows;
}

/** The single number a count query answers (0 without a row). */
export async function readCount(driver: Driver, query: RenderedSql, options: RunOptions): Promise<number> {
  for await (const row of driver.query(query.sql, query.params as ParamValue[], options)) {
    // Beyond 2^53 the connector gives decimal text; a count is fine as a number here.
    return Number(Object.values(row)[0] ?? 0);
  }
  return 0;
}

/** Every row, as the driver streams them. */
export function streamRows(driver: Driver, query: RenderedSql, options: RunOptions): AsyncIterable<Row> {
  return driver.query(query.sql, query.params as ParamValue[], options);
}
