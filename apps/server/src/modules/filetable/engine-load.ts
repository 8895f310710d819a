import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import iconv from 'iconv-lite';
import { connectorMessages, ConnectorError, type CsvFileSource, type Driver, type LoadColumn } from '@shutu/connectors';
import { LoneCrScan, type UploadedFile } from '../../platform/files/upload.ts';
import type { TableFile } from './readers.ts';

/**
 * The engine's own load of an uploaded CSV (issue 26): a source whose engine reads local
 * files (capability `loadsLocalCsv`: DuckDB) loads the stored file itself with the confirmed
 * column types, many times faster than rows through the driver. Used only where the result is
 * the row path's: a CSV whose header is its first line and that has no lone CR; a GBK
 * file is converted to UTF-8 once, streamed. The engine refuses (`csvRefused`) anything outside
 * the plain forms it converts, and the caller then loads through the row path, which keeps
 * every check and message (row and column of a bad value) as they were.
 */

/**
 * Whether a CR stands alone (not before a LF): the row path ends a record there, DuckDB's
 * reader does not. (A file mixing LF and CRLF makes the reader fail, and the row path loads it.)
 * (LoneCrScan, as while an upload arrives.) One buffer is read into again
 * and again: a stream's new 1 MiB buffer per read left ≈ 40–50 MiB of garbage on a 78 MiB file,
 * still held while DuckDB's load ran after it (issue 26, upload RSS), and took 3–9× as long.
 */
export async function hasLoneCr(file: string): Promise<boolean> {
  const handle = await fs.promises.open(file, 'r');
  const buffer = Buffer.allocUnsafe(1 << 20);
  const scan = new LoneCrScan();
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) return scan.end();
      scan.push(buffer.subarray(0, bytesRead));
      if (scan.found) return true;
    }
  } finally {
    await handle.close();
  }
}

/** A GBK file as a UTF-8 copy beside it (removed by the returned function). */
async function utf8Copy(file: UploadedFile): Promise<{ path: string; remove: () => Promise<void> }> {
  const target = path.join(path.dirname(file.path), `${path.basename(file.path)}.${randomBytes(4).toString('hex')}.utf8.csv`);
  const remove = () => fs.promises.rm(target, { force: true });
  try {
    await pipeline(
      fs.createReadStream(file.path, { highWaterMark: 1 << 20 }),
      iconv.decodeStream('gb18030'),
      iconv.encodeStream('utf8'),
      fs.createWriteStream(target),
    );
  } catch (error) {
    await remove();
    throw error;
  }
  return { path: target, remove };
}

export function isCsvRefused(error: unknown): boolean {
  return error instanceof ConnectorError && error.kind === 'invalid' && error.message === connectorMessages.csvRefused;
}

/**
 * Loads the file by the engine into the new table `table`: the row count, or null when this
 * file or driver cannot be loaded so (nothing was left behind; load through the row path).
 */
export async function engineLoad(
  driver: Driver,
  file: UploadedFile,
  table: TableFile,
  target: { name: string; columns: readonly LoadColumn[]; comment: string; fields: number },
  sample: { rows: number; complete: boolean },
): Promise<number | null> {
  if (!driver.bulkLoadCsvFile || table.fileType !== 'csv' || !table.delimiter) return null;
  if (!(await driver.info()).capabilities.loadsLocalCsv) return null;
  // The header must be exactly the first line (no blank lines before it, no line break inside).
  if (table.headerRow !== 1 || table.header.some((h) => /[\r\n]/.test(h))) return null;
  if (file.loneCr ?? (await hasLoneCr(file.path))) return null;
  const copy = file.utf8 ? null : await utf8Copy(file);
  try {
    const source: CsvFileSource = { path: copy?.path ?? file.path, delimiter: table.delimiter, skipLines: 1, fields: target.fields };
    const { rows } = await driver.bulkLoadCsvFile(target.name, target.columns, source, { comment: target.comment });
    // A check against the row path's own reading: the engine saw at least the sampled rows, exactly them when the sample was the whole file.
    if (rows < sample.rows || (sample.complete && rows !== sample.rows)) {
      await driver.dropTable(target.name);
      return null;
    }
    return rows;
  } catch (error) {
    if (isCsvRefused(error)) return null;
    throw error;
  } finally {
    await copy?.remove();
  }
}
