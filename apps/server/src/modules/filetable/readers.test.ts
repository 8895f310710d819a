import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import * as XLSX from '@e965/xlsx';
import { Utf8Check, type UploadedFile } from '../../platform/files/upload.ts';
import { describeColumns, detectType, physicalNames, rowConverter } from './columns.ts';
import { detectDelimiter } from './csv.ts';
import { openTableFile, SheetDate, type DataRow } from './readers.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-readers-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let seq = 0;
/** Writes `bytes` as a temp upload, checking UTF-8 the way the upload path does. */
async function upload(bytes: Buffer, extension: string): Promise<UploadedFile> {
  const file = path.join(dir, `f${++seq}.${extension}`);
  const check = new Utf8Check();
  // One byte at a time: every multi-byte character is split across chunks.
  const chunks = [...bytes].map((b) => Buffer.from([b]));
  await new Promise<void>((resolve, reject) => Readable.from(chunks).pipe(check).pipe(fs.createWriteStream(file)).on('finish', resolve).on('error', reject));
  return { path: file, fileName: path.basename(file), extension, size: bytes.length, utf8: check.valid };
}

async function readAll(file: UploadedFile): Promise<{ header: string[]; rows: DataRow[]; encoding: string | null }> {
  const table = await openTableFile(file, { spreadsheetMaxBytes: 10 * 1024 * 1024 });
  const rows: DataRow[] = [];
  for await (const batch of table.batches) rows.push(...batch);
  return { header: table.header, rows, encoding: table.encoding };
}

const CSV = '姓名,城市,金额\n张三,北京,12.5\n李四,"上海, 浦东",3\n';

describe('file readers', () => {
  it('reads UTF-8, UTF-8 with BOM and GBK CSV alike, even split byte by byte', async () => {
    for (const [bytes, encoding] of [
      [Buffer.from(CSV, 'utf8'), 'UTF-8'],
      [Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(CSV, 'utf8')]), 'UTF-8'],
      [iconv.encode(CSV, 'gbk'), 'GBK'],
    ] as const) {
      const { header, rows, encoding: detected } = await readAll(await upload(bytes, 'csv'));
      expect(detected).toBe(encoding);
      expect(header).toEqual(['姓名', '城市', '金额']);
      expect(rows).toEqual([
        { row: 2, values: ['张三', '北京', '12.5'] },
        { row: 3, values: ['李四', '上海, 浦东', '3'] },
      ]);
    }
  });

  it('finds the delimiter from the header line', async () => {
    expect(detectDelimiter('a;b;c')).toBe(';');
    expect(detectDelimiter('a\tb\tc')).toBe('\t');
    expect(detectDelimiter('"x;y",b,c')).toBe(',');
    expect(detectDelimiter('single')).toBe(',');
    const { rows } = await readAll(await upload(Buffer.from('a\tb\n1\t2\n'), 'csv'));
    expect(rows[0]!.values).toEqual(['1', '2']);
  });

  it('reads the first sheet of xlsx and xls with numbers and dates', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([
      ['日期', '数量', '名称'],
      [new Date(2024, 2, 5, 8, 30), 3, '甲'],
    ]);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, '第一页');
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['other']]), '第二页');
    for (const [bookType, extension] of [
      ['xlsx', 'xlsx'],
      ['biff8', 'xls'],
    ] as const) {
      const { header, rows } = await readAll(await upload(XLSX.write(book, { type: 'buffer', bookType }) as Buffer, extension));
      expect(header).toEqual(['日期', '数量', '名称']);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.values[0]).toBeInstanceOf(SheetDate);
      expect((rows[0]!.values[0] as SheetDate).text).toBe('2024-03-05 08:30:00');
      expect(rows[0]!.values.slice(1)).toEqual([3, '甲']);
    }
  });

  it('refuses empty, header-only and corrupted files with clear messages', async () => {
    const message = async (bytes: Buffer, extension: string) =>
      readAll(await upload(bytes, extension)).then(
        () => 'read',
        (error: Error) => error.message,
      );
    expect(await message(Buffer.alloc(0), 'csv')).toBe('文件内容为空');
    expect(await message(Buffer.from('\n\n  \n'), 'csv')).toBe('文件内容为空');
    expect(await message(Buffer.from('a,b\n'), 'csv')).toBe('文件只有表头，没有数据行');
    expect(await message(Buffer.from('a,b\n,\n'), 'csv')).toBe('文件只有表头，没有数据行');
    expect(await message(Buffer.from('a,b\n"x,1\n'), 'csv')).toMatch(/^文件第 \d+ 行格式有误：引号没有闭合$/);
    expect(await message(Buffer.from('not a workbook at all'), 'xlsx')).toBe('文件已损坏或不是有效的 xlsx 文件');
    expect(await message(Buffer.from('not a workbook at all'), 'xls')).toBe('文件已损坏或不是有效的 xls 文件');
    const good = XLSX.write(XLSX.utils.book_new(XLSX.utils.aoa_to_sheet([['a'], [1]])), { type: 'buffer', bookType: 'xlsx' }) as Buffer;
    expect(await message(good.subarray(0, good.length - 100), 'xlsx')).toBe('文件已损坏或不是有效的 xlsx 文件');
    const headerOnly = XLSX.write(XLSX.utils.book_new(XLSX.utils.aoa_to_sheet([['a', 'b']])), { type: 'buffer', bookType: 'xlsx' }) as Buffer;
    expect(await message(headerOnly, 'xlsx')).toBe('文件只有表头，没有数据行');
  });
});

describe('column detection', () => {
  it('names ASCII headers after themselves and the others by position', () => {
    expect(physicalNames(['Order ID', '姓名', '', '2023', 'amount (元)', 'order id', 'A'.repeat(40)])).toEqual([
      'order_id',
      'col_2',
      'col_3',
      'col_4',
      'col_5',
      'order_id_2',
      'a'.repeat(30),
    ]);
    expect(physicalNames(['col_2', '姓名'])).toEqual(['col_2', 'col_2_2']);
  });

  it('detects NUMBER, DATETIME and STRING from the sample', () => {
    expect(detectType(['1', '2.5', '-3', '1,234.5', null, ''])).toBe('NUMBER');
    expect(detectType([1, 2])).toBe('NUMBER');
    expect(detectType(['2024-03-05', '2024/3/6 08:30', '2024年3月7日'])).toBe('DATETIME');
    expect(detectType([new SheetDate('2024-03-05 00:00:00')])).toBe('DATETIME');
    expect(detectType(['0012', '0013'])).toBe('STRING');
    expect(detectType(['1234567890123456789'])).toBe('STRING');
    expect(detectType(['1', 'x'])).toBe('STRING');
    expect(detectType(['2024-03-05', '5'])).toBe('STRING');
    expect(detectType([null, null])).toBe('STRING');
  });

  it('keeps as many columns as header and sample reach', () => {
    const rows: DataRow[] = [{ row: 2, values: ['1', '2', 'extra', null] }];
    expect(describeColumns(['a', 'b', '', ''], rows).map((c) => [c.comment, c.columnName])).toEqual([
      ['a', 'a'],
      ['b', 'b'],
      ['列3', 'col_3'],
    ]);
  });

  it('converts values by the chosen type and names row and column when one does not fit', () => {
    const convert = rowConverter([
      { comment: '金额', columnName: 'amount', columnType: 'NUMBER' },
      { comment: '日期', columnName: 'day', columnType: 'DATETIME' },
      { comment: '名称', columnName: 'name', columnType: 'STRING' },
    ]);
    expect(convert({ row: 2, values: ['1,234.5', '2024/3/5', 12] })).toEqual([1234.5, '2024-03-05 00:00:00', '12']);
    expect(convert({ row: 3, values: [null, '', true] })).toEqual([null, null, 'TRUE']);
    expect(() => convert({ row: 7, values: ['abc', null, null] })).toThrow('第 7 行【金额】的值“abc”不是数字');
    expect(() => convert({ row: 8, values: [1, '昨天', null] })).toThrow('第 8 行【日期】的值“昨天”不是有效的日期时间');
    expect(() => convert({ row: 9, values: [1, null, 'x', 'y'] })).toThrow('第 9 行有 4 列，多于表头的 3 列');
  });
});
