import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { DuckDBInstance, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api';
import { getDialect } from '@shutu/query';
import { connectorError, errorText } from './errors.ts';
import type { CsvFileSource, LoadColumn, LoadColumnType } from './types.ts';

/**
 * An engine reading a CSV file of this machine itself (capability `loadsLocalCsv`): DuckDB's
 * parallel read_csv, the values converted in SQL, into the new table. Two ways, by what the
 * data source's instance may read:
 * - an instance opened with `csvOutput` may read and write its one private directory
 *   (duckdb/copy-csv.ts; user SQL never reaches it): the file is linked (or copied) in there and
 *   the instance runs `INSERT INTO … SELECT … FROM read_csv(…)` itself — parallel, compressed
 *   as it is written, no row through JS (`insertCsvFile`);
 * - a fully locked-down instance (no file access at all): a private in-memory instance reads the
 *   file and its data chunks go into the table's appender (copied natively, never as JS values),
 *   the next chunk read while one is appended (`appendCsvFile`).
 *
 * Accepted values are a strict subset of what the row path accepts, with the same results:
 * anything else (and any CSV the reader finds malformed) fails with `csvRefused`, and the
 * caller loads through the row path instead, which names the row and column of a bad value.
 */

const duck = getDialect('duckdb');

/** JS String.prototype.trim's whitespace: a row of only these is blank (the row path skips it). */
const JS_SPACE = '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';
/** The row path's plain number (no spaces: a padded value is the row path's trimmed, grouped form below, where '1.' is refused). */
const PLAIN_NUMBER = String.raw`[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?`;
const GROUPED_NUMBER = String.raw` *[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][+-]?\d+)? *`;
/** 'YYYY-MM-DD[ HH:mm:ss]' with a four-digit year from 1000: the row path's canonical forms. */
const DATE_TIME = String.raw`[1-9]\d{3}-\d{2}-\d{2}(?: (?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d)?`;

const lit = (text: string) => duck.escapeString(text);

/** read_csv's buffer: the longest line the engine path reads (the row path's limit is 4 Mi characters). */
const CSV_BUFFER_BYTES = 4 * 1024 * 1024;

/** The converted value of raw field `c` (not NULL), NULL when it does not convert. */
function converted(type: LoadColumnType, c: string): string {
  switch (type) {
    case 'STRING':
      return c;
    case 'NUMBER':
    case 'INTEGER': {
      const number = `CASE WHEN regexp_full_match(${c}, ${lit(PLAIN_NUMBER)}) THEN TRY_CAST(${c} AS DOUBLE)
        WHEN regexp_full_match(${c}, ${lit(GROUPED_NUMBER)}) AND regexp_matches(${c}, '\\d') THEN TRY_CAST(replace(trim(${c}), ',', '') AS DOUBLE) END`;
      return type === 'INTEGER' ? `TRY_CAST(${number} AS BIGINT)` : number;
    }
    case 'DATETIME':
    case 'DATE': {
      const ts = `CASE WHEN regexp_full_match(${c}, ${lit(DATE_TIME)}) THEN TRY_CAST(${c} AS TIMESTAMP) END`;
      return type === 'DATE' ? `CAST(${ts} AS DATE)` : ts;
    }
  }
}

const SQL_TYPES: Record<LoadColumnType, string> = { STRING: 'VARCHAR', NUMBER: 'DOUBLE', INTEGER: 'BIGINT', DATETIME: 'TIMESTAMP', DATE: 'DATE' };

/**
 * The statement reading and converting the file; it raises an error at the first value it
 * cannot convert. Each value is converted once, in the projection, above the filter that
 * skips blank rows (a blank row holding spaces in a number column is refused, not skipped:
 * the row path then loads that file).
 */
export function csvFileSelect(columns: readonly LoadColumn[], file: CsvFileSource, parallel = true): string {
  if (file.fields < columns.length) throw new Error('fields < columns');
  const raw = Array.from({ length: file.fields }, (_, i) => `c${i + 1}`);
  const spec = `{${raw.map((c) => `'${c}': 'VARCHAR'`).join(', ')}}`;
  const options = [
    `columns = ${spec}`,
    'header = false',
    `skip = ${Math.max(0, Math.floor(file.skipLines))}`,
    `delim = ${lit(file.delimiter)}`,
    `quote = '"'`,
    `escape = '"'`,
    'auto_detect = false',
    'null_padding = true',
    'strict_mode = true',
    'allow_quoted_nulls = true',
    // DuckDB's default (32 MB per buffer) held ≈ 60 MB more at peak for a 78 MB file; a longer line
    // than this fails the read and the row path loads the file.
    `buffer_size = ${CSV_BUFFER_BYTES}`,
    // The reader finds line ends itself (\n or \r\n; its new_line option silently reads no rows from a CRLF file given '\n').
    `parallel = ${parallel}`,
  ];
  // '' is NULL (as in the row path); the fields past the columns must be empty.
  const v = raw.map((c) => `NULLIF(${c}, '')`);
  const refuse = (i: number) => `error('csv value refused: column ${i + 1}')`;
  const out = columns.map((col, i) =>
    col.type === 'STRING'
      ? `${v[i]} AS o${i + 1}`
      : `CAST(CASE WHEN ${v[i]} IS NULL THEN NULL ELSE coalesce(${converted(col.type, v[i]!)}, ${refuse(i)}) END AS ${SQL_TYPES[col.type]}) AS o${i + 1}`,
  );
  const extras = v.slice(columns.length).map((x, k) => `CASE WHEN ${x} IS NOT NULL THEN ${refuse(columns.length + k)} END`);
  // Most values start with another character: ascii() (the first code point) settles them before the regular expression.
  const spaceCodes = [...JS_SPACE].map((ch) => ch.codePointAt(0)).join(', ');
  const spaces = lit(`[${[...JS_SPACE].map((ch) => `\\x{${ch.codePointAt(0)!.toString(16)}}`).join('')}]*`);
  const blank = raw.map((c) => `(${c} IS NULL OR (ascii(${c}) IN (${spaceCodes}) AND regexp_full_match(${c}, ${spaces})))`).join(' AND ');
  const source = `read_csv(${lit(file.path)}, ${options.join(', ')})`;
  // A first field starting with a printable ASCII character settles most rows at once (no
  // whitespace code point lies in 33–159): the full test above cost ≈ 1/6 of a load.
  const kept = `ascii(${raw[0]}) BETWEEN 33 AND 159 OR NOT (${blank})`;
  const checked = `SELECT ${[...out, ...extras.map((e, k) => `${e} AS x${k + 1}`)].join(', ')} FROM ${source} WHERE ${kept}`;
  return extras.length === 0
    ? checked
    : `SELECT ${out.map((_, i) => `o${i + 1}`).join(', ')} FROM (${checked}) WHERE ${extras.map((_, k) => `x${k + 1} IS NULL`).join(' AND ')}`;
}

/** Numbers too large for a double (1e999) are the row path's to refuse: the loaded table must have none. */
export function nonFiniteCheck(table: string, columns: readonly LoadColumn[], names: readonly string[]): string | null {
  const checks = columns.flatMap((c, i) => (c.type === 'NUMBER' ? [`NOT isfinite(${names[i]})`] : []));
  return checks.length === 0 ? null : `SELECT count(*) FROM ${table} WHERE ${checks.join(' OR ')}`;
}

/** The parallel reader cannot pad short lines of a file with line breaks in quoted values: read it again serially. */
export class SerialReadNeeded extends Error {}

/**
 * Reads the file with a private instance and appends every converted row to `appender`
 * (a table with exactly `columns`). Returns the row count; throws `csvRefused` when the
 * reader or a conversion refused something.
 */
export async function appendCsvFile(
  appender: DuckDBAppender,
  columns: readonly LoadColumn[],
  file: CsvFileSource,
  options: { parallel: boolean; signal?: AbortSignal | undefined },
): Promise<number> {
  const { signal } = options;
  const sql = csvFileSelect(columns, file, options.parallel);
  const reader = await DuckDBInstance.create(':memory:', { threads: '2', memory_limit: '256MB' });
  const connection = await reader.connect();
  try {
    const onAbort = () => connection.interrupt();
    signal?.addEventListener('abort', onAbort);
    let rows = 0;
    try {
      const result = await connection.stream(sql);
      // The reader's threads fetch the next chunk while this thread appends the last one.
      let next = result.fetchChunk();
      try {
        for (let chunk = await next; chunk && chunk.rowCount > 0; chunk = await next) {
          next = result.fetchChunk();
          if (signal?.aborted) throw connectorError('cancelled', 'cancelled');
          appender.appendDataChunk(chunk);
          rows += chunk.rowCount;
        }
      } finally {
        // Never close the reader while a fetch still runs on it.
        await next.catch(() => null);
      }
    } catch (error) {
      throw readFailure(error, options);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    return rows;
  } finally {
    connection.closeSync();
    reader.closeSync();
  }
}

/** What a failed read means: cancelled, to be read again serially, or refused (the row path loads the file). */
function readFailure(error: unknown, options: { parallel: boolean; signal?: AbortSignal | undefined }): Error {
  if (options.signal?.aborted) return connectorError('cancelled', 'cancelled');
  if (options.parallel && /null_padding/.test(errorText(error))) return new SerialReadNeeded();
  return connectorError('invalid', 'csvRefused', {}, errorText(error).slice(0, 500), error);
}

/**
 * The file as a path inside `dir` (the directory the instance may read) for the time of `work`:
 * a hard link (no copy) on the same file system, else a copy; removed afterwards.
 */
export async function withFileIn<T>(dir: string, file: string, work: (readable: string) => Promise<T>): Promise<T> {
  const readable = path.join(dir, `load-${randomUUID()}.csv`);
  try {
    await fs.promises.link(file, readable).catch(() => fs.promises.copyFile(file, readable, fs.constants.COPYFILE_EXCL));
    return await work(readable);
  } finally {
    await fs.promises.rm(readable, { force: true });
  }
}

/**
 * The instance itself reads the file (a path it may read: `withFileIn`) into `qualified`, a
 * new table with exactly `columns`, in one statement. Returns the row count; throws `csvRefused`
 * when the reader or a conversion refused something (the statement's rows are then discarded).
 */
export async function insertCsvFile(
  connection: DuckDBConnection,
  qualified: string,
  columns: readonly LoadColumn[],
  file: CsvFileSource,
  options: { parallel: boolean; signal?: AbortSignal | undefined },
): Promise<number> {
  const onAbort = () => connection.interrupt();
  options.signal?.addEventListener('abort', onAbort);
  try {
    options.signal?.throwIfAborted();
    const result = await connection.run(`INSERT INTO ${qualified} ${csvFileSelect(columns, file, options.parallel)}`);
    return Number(result.rowsChanged);
  } catch (error) {
    throw readFailure(error, options);
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}
