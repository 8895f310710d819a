import { ConnectorError, errorText, type ConnectorErrorKind } from '../errors.ts';
import type { DataSourceConfig, LoadRow, ParamValue, ResultColumn, Row } from '../types.ts';

/**
 * Messages between the server and its DuckDB engine process (advanced serialization: Dates,
 * bigints and byte arrays cross as they are). Every request carries an id; a reply names it.
 */

/** Driver methods answered with one value: their arguments cross as they are, minus any AbortSignal. */
export const UNARY_METHODS = [
  'info',
  'listTables',
  'listColumns',
  'inspectSql',
  'bulkLoadCsvFile',
  'bulkLoadSelect',
  'copySelectToCsvFile',
  'appendRows',
  'deleteRows',
  'tableExists',
  'renameTable',
  'dropTable',
] as const;
export type UnaryMethod = (typeof UNARY_METHODS)[number];

/** Batches the engine may send ahead of the server's reading (back-pressure of a query). */
export const QUERY_WINDOW = 4;
/** Rows per message of a query's result. */
export const QUERY_BATCH_ROWS = 2048;
/** Batches of a load the server may send ahead of the engine's reading. */
export const LOAD_WINDOW = 2;

export type ToEngine =
  | { t: 'open'; config: DataSourceConfig }
  | { t: 'call'; id: number; method: UnaryMethod; args: unknown[]; cancellable: boolean }
  | { t: 'query'; id: number; sql: string; params: readonly ParamValue[]; timeoutMs: number | undefined; rawBytes: boolean; rowLimit?: number }
  | { t: 'pull'; id: number }
  | { t: 'load'; id: number; table: string; columns: unknown; options: Record<string, unknown> }
  | { t: 'chunk'; id: number; rows: LoadRow[] }
  | { t: 'chunkEnd'; id: number }
  | { t: 'cancel'; id: number }
  | { t: 'close' };

export interface WireError {
  /** A ConnectorError's kind; absent for any other error. */
  kind?: ConnectorErrorKind;
  message: string;
  detail: string | null;
}

/** An error as it crosses: a ConnectorError keeps its kind, message and detail; any other its text. */
export function toWire(error: unknown): WireError {
  if (error instanceof ConnectorError) return { kind: error.kind, message: error.message, detail: error.detail };
  return { message: errorText(error), detail: null };
}

export function fromWire(error: WireError): Error {
  if (error.kind) return new ConnectorError(error.kind, error.message, error.detail);
  return new Error(error.message);
}

export type FromEngine =
  | { t: 'ready' }
  | { t: 'result'; id: number; value: unknown }
  | { t: 'error'; id: number; error: WireError }
  /**
   * A query's result as a run of these: the first carries the columns, the last says so. A
   * result of one batch (most answers) is one message: each message wakes the other process,
   * which costs more than the rows' own copying (docs/board-speed.md "Per-request overhead").
   */
  | { t: 'rows'; id: number; rows: Row[]; columns?: ResultColumn[]; last: boolean }
  | { t: 'need'; id: number }
  | { t: 'closed' };
