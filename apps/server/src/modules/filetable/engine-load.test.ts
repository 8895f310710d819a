import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { collect, DuckDBDriver, type Driver, type LoadColumn, type LoadRow } from '@shutu/connectors';
import type { FileColumn, ViewDataType } from '@shutu/contracts';
import { Utf8Check, type UploadedFile } from '../../platform/files/upload.ts';
import { AppError } from '../../platform/http/errors.ts';
import { rowConverter } from './columns.ts';
import { engineLoad, hasLoneCr } from './engine-load.ts';
import { openTableFile } from './readers.ts';

/**
 * The engine's own load of a CSV must give exactly the row path's table, or refuse (null) so
 * the row path loads it: each file here is loaded both ways into a DuckDB file and compared —
 * once by an instance that reads its private directory itself (csvOutput, as the server opens
 * its DuckDB sources), once by a locked-down one (a private reader appends the chunks).
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-engine-load-'));
let driver: Driver;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let seq = 0;
async function uploaded(bytes: Buffer): Promise<UploadedFile> {
  const file = path.join(dir, `f${++seq}.csv`);
  const check = new Utf8Check();
  check.write(bytes);
  check.end();
  fs.writeFileSync(file, bytes);
  return { path: file, fileName: path.basename(file), extension: 'csv', size: bytes.length, utf8: check.valid };
}

const rowsOf = async (table: string) => (await collect(driver.query(`SELECT * FROM "${table}"`))).rows;

/** Loads the file both ways; the engine's table (null when it refused), the row path's table or its error. */
async function both(bytes: Buffer, types: ViewDataType[]) {
  const file = await uploaded(bytes);
  const columns: FileColumn[] = types.map((t, i) => ({ comment: `列${i + 1}`, columnName: `c${i + 1}`, columnType: t }));
  const loadColumns: LoadColumn[] = columns.map((c) => ({ name: c.columnName, type: c.columnType }));
  // The row path's reading; a malformed line (the row path's 400) ends it.
  const table = await openTableFile(file, { spreadsheetMaxBytes: 1 << 20 });
  const sample = [];
  let readError: string | null = null;
  try {
    for await (const batch of table.batches) sample.push(...batch);
  } catch (error) {
    readError = (error as Error).message;
  }
  table.close();
  const fields = Math.max(table.header.length, types.length, ...sample.map((r) => r.values.length));
  const engineTable = `e${seq}`;
  const reopened = await openTableFile(file, { spreadsheetMaxBytes: 1 << 20 });
  const byEngine = await engineLoad(
    driver,
    file,
    reopened,
    { name: engineTable, columns: loadColumns, comment: '', fields },
    { rows: sample.length, complete: true },
  );
  reopened.close();
  const convert = rowConverter(columns);
  let rowPath: Record<string, unknown>[] | string;
  try {
    if (readError !== null) throw new Error(readError);
    const rows: LoadRow[] = sample.map(convert);
    await driver.bulkLoad(`r${seq}`, loadColumns, rows);
    rowPath = await rowsOf(`r${seq}`);
  } catch (error) {
    rowPath = error instanceof AppError ? error.message : String(error);
  }
  return { byEngine, engine: byEngine === null ? null : await rowsOf(engineTable), rowPath, engineTableLeft: await driver.tableExists(engineTable) };
}

describe.each([
  ['the data source’s instance reads the file itself', true],
  ['a private reader appends its chunks (instance without file access)', false],
])('engine load of a CSV: %s', (_, csvOutput) => {
  beforeAll(() => {
    driver = new DuckDBDriver({ type: 'duckdb', path: path.join(dir, `w-${csvOutput}.duckdb`), csvOutput });
  });
  afterAll(() => driver.close());

  it('loads plain files exactly as the row path does: numbers, thousands, dates, quotes, blank rows, BOM, CRLF, GBK, ; and tabs', async () => {
    const cases: [Buffer, ViewDataType[]][] = [
      [
        Buffer.from('金额,名称,时间\n12.5,"上海, 浦东",2024-03-05 08:30:00\n" 1,234.5 ","say ""hi""",2024-02-29\n\n-0.5,,\n+3,a b ,\n', 'utf8'),
        ['NUMBER', 'STRING', 'DATETIME'],
      ],
      [Buffer.from('\ufeffa,b\r\n1,"x\r\ny"\r\n,\r\n2,z\r\n', 'utf8'), ['NUMBER', 'STRING']],
      [iconv.encode('省份;金额\n北京;1\n广东;2.25\n', 'gbk'), ['STRING', 'NUMBER']],
      [Buffer.from('a\tb\tc\n1\t2\n3\t\t\n', 'utf8'), ['NUMBER', 'NUMBER', 'STRING']],
      [Buffer.from('a,b,,\n1,x,,\n2,y\n', 'utf8'), ['NUMBER', 'STRING']],
      [Buffer.from('a,b\n1,\u3000\n\u3000, \t\n2,x\n', 'utf8'), ['NUMBER', 'STRING']],
      // first fields at the edges of the printable ASCII fast path, and past it (blank or not)
      [Buffer.from('名称,说明\n!x,1\n~,2\n\u007f,3\n 中,4\n\u3000,5\n中文,6\n\u00a0,\n \t, \n,\n\u2003a,7\n', 'utf8'), ['STRING', 'STRING']],
    ];
    for (const [bytes, types] of cases) {
      const { byEngine, engine, rowPath } = await both(bytes, types);
      expect(byEngine, bytes.toString()).not.toBeNull();
      expect(engine).toEqual(rowPath);
      expect(byEngine).toBe((rowPath as unknown[]).length);
    }
  });

  it('refuses, leaving nothing, what only the row path reads or rejects: bad values, other date forms, lone CR, stray quotes, long rows', async () => {
    const cases: [string, ViewDataType[]][] = [
      ['a,b\n1,x\nabc,y\n', ['NUMBER', 'STRING']],
      ['a,b\n2024/3/5,x\n', ['DATETIME', 'STRING']],
      ['a,b\n2024-02-30 00:00:00,x\n', ['DATETIME', 'STRING']],
      ['a,b\n2024-03-05T08:00:00Z,x\n', ['DATETIME', 'STRING']],
      ['a,b\n1e999,x\n', ['NUMBER', 'STRING']],
      ['a,b\n1,x\r2,y\n', ['NUMBER', 'STRING']],
      // past the first chunk the row path reads before loading: only its later reading finds it
      [`a,b\n${'1,x\n'.repeat(100_000)}1,"x"y\n`, ['NUMBER', 'STRING']],
      ['a,b\n1,x,z\n', ['NUMBER', 'STRING']],
      ['a,b\n 1 ,x\n\u00a01,y\n', ['NUMBER', 'STRING']],
      // padded, the row path reads the trimmed value's grouped form, where '1.' is no number
      ['a,b\n" 1.",x\n', ['NUMBER', 'STRING']],
      ['a,b\n"1.e5 ",x\n', ['NUMBER', 'STRING']],
      ['\na,b\n1,x\n', ['NUMBER', 'STRING']],
    ];
    for (const [text, types] of cases) {
      const { byEngine, engineTableLeft } = await both(Buffer.from(text, 'utf8'), types);
      expect(byEngine, text).toBeNull();
      expect(engineTableLeft).toBe(false);
    }
  });

  it('reads a stray quote inside an unquoted value as the row path does, or refuses it', async () => {
    for (const text of ['a,b\n1,x"y\n2,"z"\n', 'a,b\n1,"x\ny"\n2\n']) {
      const { byEngine, engine, rowPath } = await both(Buffer.from(text, 'utf8'), ['NUMBER', 'STRING']);
      if (byEngine !== null) expect(engine, text).toEqual(rowPath);
    }
  });

  it('finds a lone CR, also at the end of a read chunk', async () => {
    expect(await hasLoneCr((await uploaded(Buffer.from('a\nb\n'))).path)).toBe(false);
    expect(await hasLoneCr((await uploaded(Buffer.from('a\r\nb\r\n'))).path)).toBe(false);
    expect(await hasLoneCr((await uploaded(Buffer.from('a\rb'))).path)).toBe(true);
    expect(await hasLoneCr((await uploaded(Buffer.from('a\r'))).path)).toBe(true);
    expect(await hasLoneCr((await uploaded(Buffer.concat([Buffer.alloc((1 << 20) - 1, 97), Buffer.from('\r\nb')]))).path)).toBe(false);
    expect(await hasLoneCr((await uploaded(Buffer.concat([Buffer.alloc((1 << 20) - 1, 97), Buffer.from('\rb')]))).path)).toBe(true);
  });

  it('leaves a file mixing LF and CRLF to the row path', async () => {
    const { byEngine, rowPath } = await both(Buffer.from('a,b\r\n1,x\n2,y\r\n'), ['NUMBER', 'STRING']);
    expect(byEngine).toBeNull();
    expect(rowPath).toEqual([
      { c1: 1, c2: 'x' },
      { c1: 2, c2: 'y' },
    ]);
  });
});
