import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import * as XLSX from '@e965/xlsx';
import { afterAll, describe, expect, it } from 'vitest';
import { dateSerial, StreamingSheet, type SheetColumn, type SheetRow } from './workbook.ts';
import { columnLetters, XLSX_MAX_CELL_TEXT, xmlText } from './xlsx-writer.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-xlsx-writer-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const columns: SheetColumn[] = [
  { alias: 'province', title: '省份', type: 'STRING' },
  { alias: 'day', title: '订购日期', type: 'DATETIME', granularity: 'DAY' },
  { alias: 'time', title: '订购时间', type: 'DATETIME' },
  { alias: 'month', title: '月份', type: 'DATETIME', granularity: 'MONTH' },
  { alias: 'amount', title: '金额', type: 'NUMBER' },
  { alias: 'note', title: '备注', type: 'STRING' },
];

/** Writes rows (and 合计 rows) through the export's sheet into a file, and loads it with exceljs. */
async function roundTrip(name: string, rows: SheetRow[], totals: SheetRow[] = []) {
  const file = path.join(dir, name);
  const sheet = new StreamingSheet(file, columns);
  for (const row of rows) await sheet.add(row);
  for (const row of totals) await sheet.addTotal(row);
  await sheet.finish();
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  return { file, sheet: book.worksheets[0]! };
}

const values = (row: ExcelJS.Row) => (row.values as unknown[]).slice(1);

describe('streamed xlsx writer', () => {
  it('writes a sheet Excel readers open: Chinese headers, typed cells, dates, the bold 合计 row', async () => {
    const rows: SheetRow[] = [
      { province: '广东', day: '2026-05-03', time: '2026-05-03T08:09:10', month: '2026-05-01T00:00:00', amount: 12.5, note: '首单' },
      { province: '北京', day: null, time: '2026-05-04T23:59:59.250', month: '2026-06-01T00:00:00', amount: '1234.50', note: true },
    ];
    const { file, sheet } = await roundTrip('typed.xlsx', rows, [{ province: '合计', amount: 1247 }]);
    expect(sheet.rowCount).toBe(4);
    expect(values(sheet.getRow(1))).toEqual(['省份', '订购日期', '订购时间', '月份', '金额', '备注']);
    expect(sheet.getRow(1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(values(sheet.getRow(2))).toEqual(['广东', new Date(Date.UTC(2026, 4, 3)), new Date(Date.UTC(2026, 4, 3, 8, 9, 10)), '2026-05', 12.5, '首单']);
    expect(sheet.getCell('B2').numFmt).toBe('yyyy-mm-dd');
    expect(sheet.getCell('C2').numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    // A number column's numeric text is a number; an empty cell stays empty.
    expect(sheet.getCell('E3').value).toBe(1234.5);
    expect(sheet.getCell('B3').value).toBeNull();
    expect((sheet.getCell('C3').value as Date).toISOString()).toBe('2026-05-04T23:59:59.250Z');
    expect(sheet.getCell('F3').value).toBe(true);
    expect(values(sheet.getRow(4))).toEqual(['合计', undefined, undefined, undefined, 1247]);
    expect(['A4', 'E4'].map((ref) => sheet.getCell(ref).font?.bold)).toEqual([true, true]);
    expect(sheet.getCell('A2').font?.bold).not.toBe(true);
    // Column widths from the titles and the first rows: CJK counts double.
    expect(sheet.getColumn(3).width).toBe(21);

    // A second, independent reader (SheetJS) reads the same cells with the same types.
    const book = XLSX.read(fs.readFileSync(file), { cellDates: true });
    const grid = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[book.SheetNames[0]!]!, { header: 1, raw: true });
    expect(grid[0]).toEqual(['省份', '订购日期', '订购时间', '月份', '金额', '备注']);
    expect(grid[1]![4]).toBe(12.5);
    expect(grid[1]![1]).toBeInstanceOf(Date);
    expect(grid.length).toBe(4);
  });

  it('keeps XML specials, emoji and edge spaces, and drops characters XML cannot carry instead of corrupting the file', async () => {
    const nasty = [
      'a<b & "c" > d\'e',
      '点赞👍🏽 中文 🇨🇳',
      'bell\u0007 null\u0000 vt\u000b esc\u001b end',
      'tab\tline\nbreak\r\n',
      '  padded  ',
      'lone \ud83d surrogate \ude00 end',
      'literal _x0041_ stays',
      '</t></is></c><c>',
      '=1+2',
    ];
    const { file, sheet } = await roundTrip(
      'nasty.xlsx',
      nasty.map((note, i) => ({ province: `省${i}`, amount: i, note })),
    );
    const read = nasty.map((_, i) => sheet.getCell(`F${i + 2}`).value);
    expect(read).toEqual([
      'a<b & "c" > d\'e',
      '点赞👍🏽 中文 🇨🇳',
      'bell null vt esc end',
      'tab\tline\nbreak\r\n',
      '  padded  ',
      'lone \ufffd surrogate \ufffd end',
      // exceljs does not decode Excel's _xHHHH_ escapes in inline strings; Excel and SheetJS do (below).
      'literal _x005F_x0041_ stays',
      '</t></is></c><c>',
      '=1+2',
    ]);
    const book = XLSX.read(fs.readFileSync(file));
    expect(book.Sheets[book.SheetNames[0]!]!['F8']?.v).toBe('literal _x0041_ stays');
    // Text stays text (no formula), numbers stay numbers.
    expect(sheet.getCell('F10').type).toBe(ExcelJS.ValueType.String);
    expect(sheet.getCell('E10').value).toBe(8);
  });

  it('cuts text at Excel’s 32,767 characters a cell', async () => {
    const { sheet } = await roundTrip('long.xlsx', [{ province: '广东', note: '长'.repeat(40_000) }]);
    expect(String(sheet.getCell('F2').value).length).toBe(XLSX_MAX_CELL_TEXT);
  });

  it('streams many rows through in order with every row and a sheet of nothing but a header', async () => {
    const count = 20_000;
    const rows = Array.from({ length: count }, (_, i) => ({ province: `省${i % 31}`, time: '2026-01-02T03:04:05', amount: i, note: `订单${i}` }));
    const { sheet } = await roundTrip('many.xlsx', rows);
    expect(sheet.rowCount).toBe(count + 1);
    expect(values(sheet.getRow(count + 1))).toEqual([
      `省${(count - 1) % 31}`,
      undefined,
      new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
      undefined,
      count - 1,
      `订单${count - 1}`,
    ]);
    let sum = 0;
    sheet.eachRow((row, n) => n > 1 && (sum += row.getCell(5).value as number));
    expect(sum).toBe((count * (count - 1)) / 2);

    const empty = await roundTrip('empty.xlsx', []);
    expect(empty.sheet.rowCount).toBe(1);
    expect(values(empty.sheet.getRow(1))[0]).toBe('省份');
  });

  it('waits while its target does not take more (memory stays flat) and stops with the target’s error', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let received = 0;
    const blocked = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        received += chunk.length;
        void released.then(() => callback());
      },
    });
    const sheet = new StreamingSheet(blocked, columns);
    const total = 300_000;
    let added = 0;
    const writing = (async () => {
      for (; added < total; added++) await sheet.add({ province: '广东', note: `订单${added}`, amount: added });
      await sheet.finish();
    })();
    // Wait until the writer stops taking rows (the zip works on other threads, so no fixed time).
    for (let last = -1, still = 0; still < 5;) {
      await new Promise((r) => setTimeout(r, 50));
      still = added === last ? still + 1 : 0;
      last = added;
    }
    expect(added).toBeLessThan(total / 2);
    release();
    await writing;
    expect(added).toBe(total);
    expect(received).toBeGreaterThan(0);

    const failing = new Writable({
      write(_chunk, _encoding, callback) {
        callback(new Error('磁盘已满'));
      },
    });
    const broken = new StreamingSheet(failing, columns);
    const write = async () => {
      for (let i = 0; i < total; i++) await broken.add({ province: '广东', note: `订单${i}`, amount: i });
      await broken.finish();
    };
    await expect(write()).rejects.toThrow('磁盘已满');
  });

  it('reads the connectors’ dates and timestamps as Excel serials, and nothing else', () => {
    expect(dateSerial('1970-01-01')).toBe(25_569);
    expect(dateSerial('2026-05-03')).toBe(46_145);
    expect(dateSerial('2026-05-03T12:00:00')).toBe(46_145.5);
    expect(dateSerial('2026-05-03T12:00:00.500Z')).toBeCloseTo(46_145.5 + 0.5 / 86_400, 10);
    expect(dateSerial('2026-05-03T12:00:00Z')).toBe(46_145.5);
    for (const text of ['2026-05', '2026/05/03', '2026-05-03 12:00:00', '2026-05-03T12:00', '2026-05-03T12:00:00+08:00', '订单2026-05-03', '2026-05-0x']) {
      expect(dateSerial(text)).toBeNull();
    }
  });

  it('names columns past Z and escapes text for XML', () => {
    expect([0, 25, 26, 51, 52, 701, 702].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']);
    expect(xmlText('a&b<c>d')).toBe('a&amp;b&lt;c&gt;d');
    expect(xmlText('x_x00A0_y')).toBe('x_x005F_x00A0_y');
    expect(xmlText('普通文本')).toBe('普通文本');
  });
});
