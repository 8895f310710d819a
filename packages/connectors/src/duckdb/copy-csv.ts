import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, StatementType, type DuckDBConnection } from '@duckdb/node-api';
import { getDialect } from '@shutu/query';
import { connectorError, errorText, queryFailed, readOnlyError } from '../errors.ts';
import type { ParamValue } from '../types.ts';

/**
 * The engine writing a SELECT's rows as a CSV file itself (capability `writesCsvFile`, the
 * order-data export: no JS value per row, DuckDB's COPY streams with bounded memory).
 *
 * A data source's DuckDB is locked down (no file access at all, DUCKDB_LOCKED_DOWN). An instance
 * opened with `csvOutput` is locked down the same way, except for ONE directory: a private one of
 * this process (mkdtemp, mode 0700, random name) that DuckDB may write into (allowed_directories).
 * DuckDB cannot take that list at creation (its C API refuses list settings), so such an instance
 * is created without the lock options and locked by SET GLOBAL before anything else uses it;
 * lock_configuration then stops any later SET. User SQL never reaches the directory: the SQL guard
 * refuses COPY, read_* and glob, and only a checked SELECT is wrapped in COPY here.
 */

const dialect = getDialect('duckdb');
let outputDir: string | null = null;

const OUTPUT_PREFIX = 'shutu-duckdb-csv-';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // another user's live process
  }
}

/**
 * Removes the private directories of processes that are gone (killed mid-export: their part files
 * would stay in the temp directory for ever). A directory carries its process's id in its name.
 */
export function sweepDeadCsvOutputDirs(tmp = os.tmpdir()): string[] {
  const removed: string[] = [];
  for (const name of fs.readdirSync(tmp)) {
    const pid = /^shutu-duckdb-csv-(\d+)-/.exec(name)?.[1];
    if (!pid || Number(pid) === process.pid || alive(Number(pid))) continue;
    fs.rmSync(path.join(tmp, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/** This process's private directory the engine may write CSV files into (created on first use, removed at exit). */
export function duckdbCsvOutputDir(): string {
  if (outputDir) return outputDir;
  try {
    sweepDeadCsvOutputDirs();
  } catch {
    // best effort: a directory we cannot list or remove is not ours to fail on
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${OUTPUT_PREFIX}${process.pid}-`));
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  outputDir = dir;
  return dir;
}

const LOCK_STATEMENTS = () => [
  `SET GLOBAL allowed_directories = [${dialect.escapeString(`${duckdbCsvOutputDir()}/`)}]`,
  'SET GLOBAL enable_external_access = false',
  'SET GLOBAL lock_configuration = true',
];

async function settings(c: DuckDBConnection): Promise<{ locked: boolean; external: boolean }> {
  const row = (await c.runAndReadAll("SELECT current_setting('lock_configuration'), current_setting('enable_external_access')")).getRows()[0]!;
  return { locked: row[0] === true, external: row[1] === true };
}

/** Locks an instance opened without the lock options: file access only to the output directory. */
async function lockWithCsvOutput(instance: DuckDBInstance): Promise<void> {
  const c = await instance.connect();
  try {
    if (!(await settings(c)).locked) {
      // Another driver of this process may be locking the same (cached) instance right now: its
      // SETs win and ours are refused, which the check below accepts.
      for (const sql of LOCK_STATEMENTS()) await c.run(sql).catch(() => undefined);
    }
    const now = await settings(c);
    if (!now.locked || now.external) throw new Error('DuckDB instance could not be locked down');
  } finally {
    c.closeSync();
  }
}

/**
 * The (process-wide, cached) instance of a database file with a data source's options. With
 * `csvOutput`, created without the lock options and locked to the output directory (above); the
 * options passed to the cache must then be the same for every opener of that file in this process.
 */
export async function openDuckDBInstance(
  file: string,
  options: { memoryLimit?: string; threads?: number; csvOutput?: boolean },
  lockedDown: Readonly<Record<string, string>>,
): Promise<DuckDBInstance> {
  const engine: Record<string, string> = options.csvOutput ? {} : { ...lockedDown };
  if (options.memoryLimit) engine.memory_limit = options.memoryLimit;
  if (options.threads) engine.threads = String(options.threads);
  const instance = file === ':memory:' ? await DuckDBInstance.create(':memory:', engine) : await DuckDBInstance.fromCache(file, engine);
  if (options.csvOutput) await lockWithCsvOutput(instance);
  return instance;
}

export interface CopyCsvOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** A first line of the SELECT's column names (as they are: the caller names them). */
  header?: boolean;
}

/**
 * Runs `select` (one read-only SELECT, its values bound) as `COPY (…) TO <new file> (FORMAT csv)`:
 * RFC 4180 fields (quoted when they hold a comma, quote or line break, quotes doubled; NULL empty),
 * CRLF lines, a header only when asked. The file is a new one in the output directory; the caller moves or reads
 * it and removes it. Rows as the engine counts them.
 */
export async function copySelectToCsv(
  connection: DuckDBConnection,
  select: { sql: string; params: readonly ParamValue[] },
  options: CopyCsvOptions,
): Promise<{ file: string; rows: number }> {
  const probe = await connection.prepare(select.sql).catch((error: unknown) => {
    if (/multiple statements/i.test(errorText(error))) throw connectorError('readOnly', 'singleStatement', {}, errorText(error), error);
    throw queryFailed(error);
  });
  if (probe.statementType !== StatementType.SELECT) throw readOnlyError();
  probe.destroySync();
  const file = path.join(duckdbCsvOutputDir(), `${randomUUID()}.csv`);
  const interrupt = () => connection.interrupt();
  options.signal?.addEventListener('abort', interrupt, { once: true });
  let timedOut = false;
  const timer =
    options.timeoutMs && options.timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          interrupt();
        }, options.timeoutMs)
      : null;
  try {
    options.signal?.throwIfAborted();
    const copy = await connection.prepare(
      `COPY (${select.sql}) TO ${dialect.escapeString(file)} (FORMAT csv, HEADER ${options.header === true}, NEW_LINE '\\r\\n', NULLSTR '')`,
    );
    if (select.params.length > 0) copy.bind([...select.params]);
    const result = await copy.run();
    return { file, rows: Number(result.rowsChanged) };
  } catch (error) {
    await fs.promises.rm(file, { force: true });
    if (timedOut) throw connectorError('timeout', 'timeout', { seconds: Math.round(options.timeoutMs! / 1000) }, errorText(error), error);
    if (options.signal?.aborted) throw connectorError('cancelled', 'cancelled', {}, errorText(error), error);
    throw queryFailed(error);
  } finally {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener('abort', interrupt);
  }
}
