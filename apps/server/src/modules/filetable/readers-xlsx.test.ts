import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import yazl from 'yazl';
import type { UploadedFile } from '../../platform/files/upload.ts';
import { SheetDate, type CellValue, type DataRow } from '../../platform/files/sheet-cells.ts';
import { openTableFile } from './readers.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-xlsx-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let seq = 0;
function upload(bytes: Buffer, extension: string): UploadedFile {
  const file = path.join(dir, `f${++seq}.${extension}`);
  fs.writeFileSync(file, bytes);
  return { path: file, fileName: path.basename(file), extension, size: bytes.length, utf8: false };
}

const read = async (file: UploadedFile, spreadsheetMaxBytes = 10 * 1024 * 1024) => {
  const table = await openTableFile(file, { spreadsheetMaxBytes });
  const rows: DataRow[] = [];
  for await (const batch of table.batches) rows.push(...batch);
  return { header: table.header, rows };
};
const failure = (file: UploadedFile, spreadsheetMaxBytes?: number) =>
  read(file, spreadsheetMaxBytes).then(
    () => 'read',
    (error: Error) => error.message,
  );

/** Trailing empty cells do not matter to a load (fileWidth, checkWidth). */
const trimmed = (rows: DataRow[]) =>
  rows.map(({ row, values }) => {
    const v = [...values];
    while (v.length > 0 && v[v.length - 1] === null) v.pop();
    return { row, values: v.map((c) => (c instanceof SheetDate ? `date:${c.text}` : c)) };
  });

/** A zip of the given parts, in the given order. */
async function zipOf(parts: [string, string][]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, text] of parts) zip.addBuffer(Buffer.from(text, 'utf8'), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const rels = (items: [string, string, string][]) =>
  `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items
    .map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`)
    .join('')}</Relationships>`;

/**
 * A workbook as some generators write it: tags with a namespace prefix, the first sheet in
 * sheet2.xml and stored before the shared strings, styles by id only (Chinese date formats),
 * rich and phonetic shared strings, inline, formula, boolean and error cells, cells without
 * references, a 1904 date system.
 */
async function handWritten(options: { sheet?: string; date1904?: boolean; extra?: [string, string][] } = {}): Promise<Buffer> {
  const sheet =
    options.sheet ??
    `<x:worksheet xmlns:x="${NS}"><x:dimension ref="B1:H4"/><x:sheetData>
      <x:row r="1"><x:c r="B1" t="s"><x:v>0</x:v></x:c><x:c r="C1" t="s"><x:v>1</x:v></x:c><x:c r="D1" t="inlineStr"><x:is><x:t>数量</x:t></x:is></x:c>
        <x:c t="str"><x:f>"备"&amp;"注"</x:f><x:v>备注</x:v></x:c><x:c t="inlineStr"><x:is><x:t>有效</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t>时间</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t>错</x:t></x:is></x:c></x:row>
      <x:row r="2"><x:c r="B2" s="1"><x:v>45356</x:v></x:c><x:c r="C2" t="s"><x:v>2</x:v></x:c><x:c r="D2"><x:v>-12.5</x:v></x:c><x:c r="E2" t="s"><x:v>3</x:v></x:c><x:c r="F2" t="b"><x:v>1</x:v></x:c><x:c r="G2" s="3"><x:v>45356.5</x:v></x:c><x:c r="H2" t="e"><x:v>#N/A</x:v></x:c></x:row>
      <x:row r="4"><x:c r="B4" s="2"><x:v>45357</x:v></x:c><x:c r="D4" s="4"><x:v>1e21</x:v></x:c><x:c r="E4" t="s"><x:v>4</x:v></x:c><x:c r="F4" t="b"><x:v>0</x:v></x:c><x:c r="G4" t="d"><x:v>2024-03-07T09:15:00</x:v></x:c></x:row>
    </x:sheetData></x:worksheet>`;
  return zipOf([
    ['_rels/.rels', rels([['rId1', 'officeDocument', 'xl/workbook.xml']])],
    [
      'xl/workbook.xml',
      `<workbook xmlns="${NS}" xmlns:r="${REL}"><workbookPr date1904="${options.date1904 ? 1 : 0}"/><sheets><sheet name="数据" sheetId="2" r:id="rId2"/><sheet name="旧" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      rels([
        ['rId1', 'worksheet', 'worksheets/sheet1.xml'],
        ['rId2', 'worksheet', '/xl/worksheets/sheet2.xml'],
        ['rId3', 'sharedStrings', 'sharedStrings.xml'],
        ['rId4', 'styles', 'styles.xml'],
      ]),
    ],
    [
      'xl/worksheets/sheet1.xml',
      `<worksheet xmlns="${NS}"><sheetData><row r="1"><c t="inlineStr"><is><t>不是这一页</t></is></c></row></sheetData></worksheet>`,
    ],
    ['xl/worksheets/sheet2.xml', sheet],
    [
      'xl/sharedStrings.xml',
      `<sst xmlns="${NS}"><si><t>日期</t></si><si><r><t>客户</t></r><r><rPr><b/></rPr><t xml:space="preserve">名称</t></r></si>` +
        `<si><t>张三&amp;李四</t><rPh sb="0" eb="2"><t>ちょう</t></rPh></si><si><t>第一行_x000D_\n第二行</t></si><si><t></t></si></sst>`,
    ],
    [
      'xl/styles.xml',
      `<styleSheet xmlns="${NS}"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy&quot;年&quot;m&quot;月&quot;d&quot;日&quot; hh:mm"/><numFmt numFmtId="165" formatCode="#,##0.00"/></numFmts>` +
        `<cellXfs count="5"><xf numFmtId="0"/><xf numFmtId="31"/><xf numFmtId="58"/><xf numFmtId="164"/><xf numFmtId="165"/></cellXfs></styleSheet>`,
    ],
    ...(options.extra ?? []),
  ]);
}

describe('xlsx by streaming', () => {
  it('reads what SheetJS reads of the same workbook (the xls path still goes through SheetJS)', async () => {
    const rows: unknown[][] = [
      ['名称', '数量', '日期', '有效', '备注'],
      ['甲', 3, new Date(Date.UTC(2024, 2, 5, 8, 30)), true, null],
      ['乙', -0.125, new Date(Date.UTC(1999, 11, 31)), false, '空格 在中间 '],
      [null, null, null, null, null],
      ['丙&<>"', 1234567.891, null, null, '=1+1'],
      ['', 1e-7, new Date(Date.UTC(2024, 1, 29, 23, 59, 59)), null, '长'.repeat(200)],
    ];
    const sheet = XLSX.utils.aoa_to_sheet(rows, { cellDates: true, dateNF: 'yyyy-mm-dd hh:mm:ss', origin: 'B2' } as XLSX.AOA2SheetOpts);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, '第一页');
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['other']]), '第二页');
    const streamed = await read(upload(XLSX.write(book, { type: 'buffer', bookType: 'xlsx', cellDates: false }) as Buffer, 'xlsx'));
    const whole = await read(upload(XLSX.write(book, { type: 'buffer', bookType: 'biff8' }) as Buffer, 'xls'));
    // SheetJS's sheet starts at A1 whatever the origin, so both reads begin with column A.
    expect(streamed.header).toEqual(['', '名称', '数量', '日期', '有效', '备注']);
    expect(streamed.header).toEqual(whole.header);
    expect(trimmed(streamed.rows)).toEqual(trimmed(whole.rows));
    expect(trimmed(streamed.rows)[0]).toEqual({ row: 3, values: [null, '甲', 3, 'date:2024-03-05 08:30:00', true] });
    expect(streamed.rows).toHaveLength(4);
  });

  it('reads a workbook written by exceljs (shared strings, styles with date formats)', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('订单');
    sheet.addRow(['订单号', '金额', '下单时间']);
    sheet.addRow(['A-001', 99.5, new Date(Date.UTC(2024, 5, 1, 12, 0, 0))]);
    sheet.addRow(['A-002', 0, new Date(Date.UTC(2024, 5, 2))]);
    sheet.getColumn(3).numFmt = 'yyyy-mm-dd hh:mm:ss';
    const { header, rows } = await read(upload(Buffer.from(await book.xlsx.writeBuffer()), 'xlsx'));
    expect(header).toEqual(['订单号', '金额', '下单时间']);
    expect(trimmed(rows)).toEqual([
      { row: 2, values: ['A-001', 99.5, 'date:2024-06-01 12:00:00'] },
      { row: 3, values: ['A-002', 0, 'date:2024-06-02 00:00:00'] },
    ]);
  });

  it('finds the first sheet through the workbook, reads prefixed tags, rich text, Chinese date formats by id and every cell type', async () => {
    const { header, rows } = await read(upload(await handWritten(), 'xlsx'));
    expect(header).toEqual(['日期', '客户名称', '数量', '备注', '有效', '时间', '错']);
    const expected: CellValue[][] = [
      ['date:2024-03-05 00:00:00', '张三&李四', -12.5, '第一行\r\n第二行', true, 'date:2024-03-05 12:00:00'],
      ['date:2024-03-06 00:00:00', null, 1e21, null, false, 'date:2024-03-07 09:15:00'],
    ] as never;
    expect(trimmed(rows)).toEqual([
      { row: 2, values: expected[0] },
      { row: 4, values: expected[1] },
    ]);
  });

  it('counts dates from 1904 when the workbook says so', async () => {
    const { rows } = await read(upload(await handWritten({ date1904: true }), 'xlsx'));
    expect((rows[0]!.values[0] as SheetDate).text).toBe('2028-03-06 00:00:00');
  });

  it('gives many rows in batches and stops reading when closed', async () => {
    const count = 25_000;
    const aoa = [['编号', '名称'], ...Array.from({ length: count }, (_, i) => [i, `名称${i % 97}`])];
    const file = upload(
      XLSX.write(XLSX.utils.book_new(XLSX.utils.aoa_to_sheet(aoa)), { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer,
      'xlsx',
    );
    const table = await openTableFile(file, { spreadsheetMaxBytes: 10 * 1024 * 1024 });
    let seen = 0;
    let batches = 0;
    for await (const batch of table.batches) {
      for (const r of batch) expect(r.values).toEqual([r.row - 2, `名称${(r.row - 2) % 97}`]);
      seen += batch.length;
      batches++;
    }
    expect([seen, batches > 10]).toEqual([count, true]);
    const partial = await openTableFile(file, { spreadsheetMaxBytes: 10 * 1024 * 1024 });
    const first = await partial.batches[Symbol.asyncIterator]().next();
    expect((first.value as DataRow[]).length).toBeLessThan(count);
    partial.close();
  });

  it('refuses broken workbooks and parts that unpack to too much, with the Chinese messages', async () => {
    const broken = (sheet: string) => handWritten({ sheet: `<worksheet xmlns="${NS}"><sheetData>${sheet}</sheetData></worksheet>` });
    const header = '<row r="1"><c t="inlineStr"><is><t>a</t></is></c></row>';
    expect(await failure(upload(await broken(`${header}<row r="2"><c t="s"><v>99</v></c></row>`), 'xlsx'))).toBe('文件已损坏或不是有效的 xlsx 文件');
    expect(await failure(upload(await broken(`${header}<row r="2"><c><v>1</v></row>`), 'xlsx'))).toBe('文件已损坏或不是有效的 xlsx 文件');
    expect(await failure(upload(await zipOf([['a.txt', 'not a workbook']]), 'xlsx'))).toBe('文件已损坏或不是有效的 xlsx 文件');
    // A workbook with ten thousand parts more is none (its directory alone could fill memory).
    const parts = (n: number) => Array.from({ length: n }, (_, i): [string, string] => [`customXml/p${i}.xml`, '']);
    expect(await failure(upload(await handWritten({ extra: parts(9_000) }), 'xlsx'))).toBe('read');
    expect(await failure(upload(await handWritten({ extra: parts(10_000) }), 'xlsx'))).toBe('文件已损坏或不是有效的 xlsx 文件');
    // Shared strings over 10 times the workbook cap, the whole zip over 20 times it.
    const strings = XLSX.utils.aoa_to_sheet([['a'], ...Array.from({ length: 400 }, (_, i) => [`文字${i}`.repeat(5)])]);
    const many = XLSX.write(XLSX.utils.book_new(strings), { type: 'buffer', bookType: 'xlsx', bookSST: true, compression: true }) as Buffer;
    expect(await failure(upload(many, 'xlsx'), 2 * 1024)).toBe('文件解压后超过 20 KB，请拆分后再上传');
    const numbers = XLSX.utils.aoa_to_sheet([['a'], ...Array.from({ length: 20_000 }, () => [1])]);
    const long = XLSX.write(XLSX.utils.book_new(numbers), { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
    expect(await failure(upload(long, 'xlsx'), 8 * 1024)).toBe('文件解压后超过 160 KB，请拆分后再上传');
    expect(await failure(upload(long, 'xlsx'), 1024 * 1024)).toBe('read');
  });

  it('drops empty cells far to the right, refuses a value past 500 columns and a cell no spreadsheet writes', async () => {
    const sheet = (rows: string) => handWritten({ sheet: `<worksheet xmlns="${NS}"><sheetData>${rows}</sheetData></worksheet>` });
    const row = (r: number, cells: string) => `<row r="${r}"><c r="B${r}" t="inlineStr"><is><t>值${r}</t></is></c>${cells}</row>`;
    // A styled, empty cell in column XFD (16 384) on every row: the rows stay as wide as their values (A, B).
    const stray = await read(upload(await sheet([1, 2, 3].map((r) => row(r, `<c r="XFD${r}" s="4"/>`)).join('')), 'xlsx'));
    expect(stray.rows.map((r) => r.values.length)).toEqual([2, 2]);
    expect(stray.rows[0]!.values).toEqual([null, '值2']);
    // Typed cells without a value are empty, not the first shared string or false.
    const valueless = await read(upload(await sheet(row(1, '') + row(2, '<c r="C2" t="s" s="1"/><c r="D2" t="b"/><c r="E2" t="s"><v></v></c>')), 'xlsx'));
    expect(valueless.rows[0]!.values).toEqual([null, '值2', null, null, null]);
    const wide = await sheet(row(1, '') + row(2, '<c r="SH2"><v>1</v></c>'));
    expect(await failure(upload(wide, 'xlsx'))).toBe('文件列数不能超过 500 列');
    const huge = await sheet(row(1, '') + row(2, `<c r="C2" t="inlineStr"><is><t>${'长'.repeat((1 << 20) + 1)}</t></is></c>`));
    expect(await failure(upload(huge, 'xlsx'))).toBe('文件已损坏或不是有效的 xlsx 文件');
  });
});
