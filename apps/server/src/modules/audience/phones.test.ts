import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as XLSX from '@e965/xlsx';
import { normalisePhone, parsePhoneFile } from './phones.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-phones-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let seq = 0;
const write = (bytes: Buffer | string, extension: string) => {
  const file = path.join(dir, `p${++seq}.${extension}`);
  fs.writeFileSync(file, bytes);
  return file;
};
const book = (rows: unknown[][], bookType: 'xlsx' | 'biff8', options: XLSX.WritingOptions = {}) =>
  XLSX.write(XLSX.utils.book_new(XLSX.utils.aoa_to_sheet(rows)), { type: 'buffer', bookType, ...options }) as Buffer;
const limits = 10 * 1024 * 1024;
const read = async (file: string, extension: string, l = limits) => {
  const parsed = await parsePhoneFile(file, extension, l);
  return { phones: [...parsed.phones].map(String), valid: parsed.valid, invalid: parsed.invalid, duplicate: parsed.duplicate };
};

const ROWS: unknown[][] = [[13800000002], ['138-0000-0001'], ['+86 139 0000 0003'], [null], ['不是号码'], [13800000002], ['12345']];
const EXPECTED = { phones: ['13800000001', '13800000002', '13900000003'], valid: 3, invalid: 2, duplicate: 1 };

describe('phone files of 新建导入人群', () => {
  it('reads the first column of an xlsx by streaming, numbers and text alike, as it reads the same sheet as xls and txt', async () => {
    expect(await read(write(book(ROWS, 'xlsx'), 'xlsx'), 'xlsx')).toEqual(EXPECTED);
    expect(await read(write(book(ROWS, 'xlsx', { bookSST: true, compression: true }), 'xlsx'), 'xlsx')).toEqual(EXPECTED);
    expect(await read(write(book(ROWS, 'biff8'), 'xls'), 'xls')).toEqual(EXPECTED);
    // Other columns (names, notes, wider than a file table may be) are not read.
    const noted = ROWS.map(([phone], i) => [phone, `备注${i}`, ...Array(600).fill(null), i]);
    expect(await read(write(book(noted, 'xlsx'), 'xlsx'), 'xlsx')).toEqual(EXPECTED);
    const txt = ROWS.map(([v]) => (v === null ? '' : String(v))).join('\n');
    expect(await read(write(txt, 'txt'), 'txt')).toEqual(EXPECTED);
  });

  it('reads a long list without holding a workbook', async () => {
    const rows = Array.from({ length: 30_000 }, (_, i) => [13_000_000_000 + i * 7]);
    const parsed = await read(write(book(rows, 'xlsx', { compression: true }), 'xlsx'), 'xlsx');
    expect([parsed.valid, parsed.invalid, parsed.duplicate]).toEqual([30_000, 0, 0]);
    expect(parsed.phones.at(-1)).toBe(String(13_000_000_000 + 29_999 * 7));
  });

  it('refuses a file that is no workbook, and one that unpacks to too much, with Chinese messages', async () => {
    const refusal = (file: string, extension: string, l = limits) =>
      read(file, extension, l).then(
        () => 'read',
        (error: Error) => error.message,
      );
    const good = book(ROWS, 'xlsx');
    expect(await refusal(write(good.subarray(0, good.length - 200), 'xlsx'), 'xlsx')).toBe('只支持导入xlsx、xls或txt文件');
    expect(await refusal(write('plain text', 'xls'), 'xls')).toBe('read'); // SheetJS reads text as a one-column sheet, as before
    const long = book(
      Array.from({ length: 20_000 }, () => [13800000000]),
      'xlsx',
      { compression: true },
    );
    expect(await refusal(write(long, 'xlsx'), 'xlsx', 8 * 1024)).toBe('文件解压后超过 160 KB，请拆分后再上传');
    // An xls is read whole: it has the cap of workbooks read whole.
    const xls = book(
      Array.from({ length: 2_000 }, () => [13800000000]),
      'biff8',
    );
    expect(await refusal(write(xls, 'xls'), 'xls', 8 * 1024)).toBe('文件大小不能超过 8 KB');
    expect(await refusal(write(xls, 'xls'), 'xls')).toBe('read');
  });

  it('normalises the forms people write numbers in', () => {
    expect(['13800000001', '138 0000 0001', '(138)0000-0001', '8613800000001', '008613800000001', '13800000001\r'].map(normalisePhone)).toEqual(
      Array(6).fill('13800000001'),
    );
    expect(['23800000001', '1380000000', '', '１３８'].map(normalisePhone)).toEqual([null, null, null, null]);
  });
});
