import { randomBytes } from 'node:crypto';
import { QueryError, type Dialect } from '@shutu/query';
import { connectorError, ConnectorError } from './errors.ts';
import type { LoadColumn, LoadColumnType, LoadRow, LoadValue, TableInfo } from './types.ts';

/** Names of new tables and columns: at most 63 UTF-8 bytes (PostgreSQL's limit, the smallest). */
export const MAX_IDENTIFIER_BYTES = 63;

/** A loaded value in its canonical form: numbers, 'YYYY-MM-DD[ HH:mm:ss[.ffffff]]' text, strings. */
export type CanonicalValue = string | number | null;

/** Quotes a new table's or column's name, refusing names that do not fit every engine. */
export function newIdentifier(dialect: Dialect, name: string): string {
  const bad = () => connectorError('invalid', 'identifierInvalid', { name: name.slice(0, 80), max: MAX_IDENTIFIER_BYTES });
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (name.trim() !== name || name === '' || Buffer.byteLength(name) > MAX_IDENTIFIER_BYTES || /[\u0000-\u001f\u007f]/.test(name)) throw bad();
  try {
    return dialect.quoteIdentifier(name);
  } catch (error) {
    if (error instanceof QueryError) throw bad();
    throw error;
  }
}

/** Checks the column list of a new table; returns the quoted names. */
export function checkColumns(dialect: Dialect, columns: readonly LoadColumn[]): string[] {
  if (columns.length === 0) throw connectorError('invalid', 'columnsMissing');
  const seen = new Set<string>();
  return columns.map((c) => {
    const key = c.name.toLowerCase();
    if (seen.has(key)) throw connectorError('invalid', 'columnDuplicate', { name: c.name });
    seen.add(key);
    return newIdentifier(dialect, c.name);
  });
}

const NUMBER_TEXT = /^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const DATE_TEXT =
  /^(\d{4})(?:[-/.年](\d{1,2})[-/.月](\d{1,2})日?|(\d{2})(\d{2}))(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function dateTimeText(date: Date): string {
  const ms = date.getUTCMilliseconds();
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}${ms ? `.${pad(ms, 3)}` : ''}`;
}

/**
 * A date-time from text ('2024-03-05', '2024/3/5 8:30', '20240305', '2024年3月5日',
 * ISO with 'Z' or an offset: converted to UTC) or a Date (its UTC reading).
 */
export function parseDateTime(value: string | Date): string | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : dateTimeText(value);
  const m = DATE_TEXT.exec(value.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2] ?? m[4]), Number(m[3] ?? m[5])];
  const [h, mi, s] = [Number(m[6] ?? 0), Number(m[7] ?? 0), Number(m[8] ?? 0)];
  const probe = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  const frac = (m[9] ?? '').slice(0, 6).replace(/0+$/, '');
  if (m[10]) {
    const sign = m[10].startsWith('-') ? -1 : 1;
    const digits = m[10].replace(/[^0-9]/g, '');
    const offset = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || 0));
    const utc = new Date(probe.getTime() - offset * 60_000);
    return `${dateTimeText(utc).slice(0, 19)}${frac ? `.${frac}` : ''}`;
  }
  return `${pad(y, 4)}-${pad(mo)}-${pad(d)} ${pad(h)}:${pad(mi)}:${pad(s)}${frac ? `.${frac}` : ''}`;
}

function coerce(type: LoadColumnType, value: LoadValue, where: () => { row: number; column: string }): CanonicalValue {
  if (value === null || value === undefined) return null;
  const shown = () => String(value instanceof Date ? value.toISOString() : value).slice(0, 50);
  switch (type) {
    case 'STRING':
      return value instanceof Date ? (parseDateTime(value) ?? '') : String(value);
    case 'NUMBER':
    case 'INTEGER': {
      if (typeof value === 'string' && value.trim() === '') return null;
      let n: number | bigint | null = null;
      if (typeof value === 'number') n = Number.isFinite(value) ? value : null;
      else if (typeof value === 'bigint') n = value;
      else if (typeof value === 'boolean') n = value ? 1 : 0;
      else if (typeof value === 'string' && NUMBER_TEXT.test(value.trim()) && /\d/.test(value)) {
        const text = value.trim().replace(/,/g, '');
        n = type === 'INTEGER' && /^[+-]?\d+$/.test(text) && !Number.isSafeInteger(Number(text)) ? BigInt(text) : Number(text);
      }
      if (n === null) throw connectorError('invalid', 'valueNumber', { ...where(), value: shown() });
      if (type === 'INTEGER') {
        if (typeof n === 'bigint') return Number.isSafeInteger(Number(n)) ? Number(n) : n.toString();
        if (!Number.isInteger(n)) throw connectorError('invalid', 'valueInteger', { ...where(), value: shown() });
        return n;
      }
      return Number(n);
    }
    case 'DATETIME':
    case 'DATE': {
      if (typeof value === 'string' && value.trim() === '') return null;
      const text = typeof value === 'string' || value instanceof Date ? parseDateTime(value) : null;
      if (text === null) throw connectorError('invalid', 'valueDate', { ...where(), value: shown() });
      return type === 'DATE' ? text.slice(0, 10) : text;
    }
  }
}

const CANONICAL_DATETIME = /^([1-9]\d{3})-(\d{2})-(\d{2}) (?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** 'YYYY-MM-DD HH:mm:ss' of a real day (year from 1000): what parseDateTime returns unchanged. */
function isCanonicalDateTime(text: string): boolean {
  const m = CANONICAL_DATETIME.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > MONTH_DAYS[mo - 1]!) return false;
  return !(mo === 2 && d === 29 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)));
}

/** Checks and converts one row; `rowNumber` is 1-based (for messages). */
export function canonicalRow(columns: readonly LoadColumn[], row: LoadRow, rowNumber: number): CanonicalValue[] {
  if (row.length !== columns.length) throw connectorError('invalid', 'rowLength', { row: rowNumber, actual: row.length, expected: columns.length });
  const out: CanonicalValue[] = new Array(columns.length);
  for (let i = 0; i < columns.length; i++) {
    const type = columns[i]!.type;
    const value = row[i];
    // Values already in canonical form (what coerce would return unchanged) skip it: the hot path of file tables.
    if (value === null || value === undefined) out[i] = null;
    else if (type === 'STRING' && typeof value === 'string') out[i] = value;
    else if (type === 'NUMBER' && typeof value === 'number' && Number.isFinite(value)) out[i] = value;
    else if (type === 'DATETIME' && typeof value === 'string' && isCanonicalDateTime(value)) out[i] = value;
    else out[i] = coerce(type, value, () => ({ row: rowNumber, column: columns[i]!.name }));
  }
  return out;
}

/** Canonical rows in batches of `size`. */
export async function* batches(
  columns: readonly LoadColumn[],
  rows: AsyncIterable<LoadRow> | Iterable<LoadRow>,
  size: number,
  signal?: AbortSignal,
): AsyncGenerator<CanonicalValue[][]> {
  let batch: CanonicalValue[][] = [];
  let n = 0;
  for await (const row of rows) {
    if (signal?.aborted) throw connectorError('cancelled', 'cancelled');
    batch.push(canonicalRow(columns, row, ++n));
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** Wraps a non-ConnectorError failure of a load. */
export function loadFailed(error: unknown): ConnectorError {
  if (error instanceof ConnectorError) return error;
  return connectorError('query', 'loadFailed', { detail: (error instanceof Error ? error.message : String(error)).slice(0, 500) }, null, error);
}

/** What a driver supplies to load rows into a new table. */
export interface LoadSteps {
  exists(): Promise<boolean>;
  create(): Promise<void>;
  insert(batch: CanonicalValue[][]): Promise<void>;
  /** Flushes whatever the driver buffers (DuckDB's appender). */
  finish?(): Promise<void>;
  /** Drops the half-loaded table after a failure. */
  drop(): Promise<void>;
}

/** The shared load flow: refuse an existing table, create, insert batch by batch, drop on failure. */
export async function runLoad(
  table: string,
  columns: readonly LoadColumn[],
  rows: AsyncIterable<LoadRow> | Iterable<LoadRow>,
  batchSize: number,
  steps: LoadSteps,
  signal?: AbortSignal,
): Promise<{ rows: number }> {
  if (await steps.exists()) throw connectorError('tableExists', 'tableExists', { name: table });
  await steps.create().catch((error: unknown) => {
    throw loadFailed(error);
  });
  let count = 0;
  try {
    for await (const batch of batches(columns, rows, batchSize, signal)) {
      await steps.insert(batch);
      count += batch.length;
    }
    await steps.finish?.();
    return { rows: count };
  } catch (error) {
    await steps.drop().catch(() => undefined);
    throw loadFailed(error);
  }
}

/**
 * Private names of tables being loaded: a load writes `__shutu_staging_<16 hex>` and renames it
 * to the real name in one step at the end, so a crash never leaves a half-loaded table under a
 * name anyone sees. Every driver's `listTables` hides these names (no file-table name can start
 * with `_`); whoever recorded the name drops the table when the load does not finish.
 */
export const STAGING_TABLE_PREFIX = '__shutu_staging_';

/** A new private staging name (random: sources shared by several metadata stores never clash). */
export function stagingTableName(): string {
  return `${STAGING_TABLE_PREFIX}${randomBytes(8).toString('hex')}`;
}

export function isStagingTable(name: string): boolean {
  return name.toLowerCase().startsWith(STAGING_TABLE_PREFIX);
}

/** A table listing without staging tables. */
export function withoutStagingTables(tables: TableInfo[]): TableInfo[] {
  return tables.filter((t) => !isStagingTable(t.name));
}

/** What a driver supplies to rename a table. */
export interface RenameSteps {
  exists(name: string): Promise<boolean>;
  /** The engine's atomic rename (it refuses an existing target itself). */
  rename(): Promise<void>;
}

/** The shared rename flow: refuse a taken target or a missing source with our messages, then rename. */
export async function runRename(from: string, to: string, steps: RenameSteps): Promise<void> {
  if (await steps.exists(to)) throw connectorError('tableExists', 'tableExists', { name: to });
  if (!(await steps.exists(from))) throw connectorError('tableNotFound', 'tableNotFound', { name: from });
  try {
    await steps.rename();
  } catch (error) {
    // Taken between the check and the rename: the engine refused, `from` is still there.
    if ((await steps.exists(to).catch(() => false)) && (await steps.exists(from).catch(() => false))) {
      throw connectorError('tableExists', 'tableExists', { name: to }, null, error);
    }
    throw error;
  }
}
