import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { pivotLayout, type ResultField } from '@shutu/contracts';
import { pivotGrid, writePivotCsv, writePivotXlsx } from './pivot-sheet.ts';

/** The cross-tab of an exported pivot (pivot-sheet.ts) from the layout the screen draws. */
const field = (alias: string, title: string, kind: ResultField['kind']): ResultField => ({
  alias,
  fieldId: alias,
  title,
  kind,
  viewDataType: kind === 'measure' ? 'NUMBER' : 'STRING',
  aggregation: kind === 'measure' ? 'SUM' : null,
  granularity: null,
});
const rowDims = [field('d0', '大区', 'dimension'), field('d1', '省份', 'dimension')];
const colDims = [field('d2', '渠道', 'dimension')];
const measures = [field('m0', '金额', 'measure'), field('m1', '订单数', 'measure')];
const dataList = [
  { d0: '华南', d1: '广东', d2: '线上', m0: 10, m1: 1 },
  { d0: '华南', d1: '广东', d2: '线下', m0: 5, m1: 2 },
  { d0: '华南', d1: '广西', d2: '线上', m0: 7, m1: 1 },
  { d0: '华北', d1: '北京', d2: '线下', m0: '3.5', m1: 1 },
];
const totals = {
  grand: { m0: 25.5, m1: 5 },
  byColumn: [
    { d2: '线上', m0: 17, m1: 2 },
    { d2: '线下', m0: 8.5, m1: 3 },
  ],
  byRow: [
    { d0: '华南', d1: '广东', m0: 15, m1: 3 },
    { d0: '华南', d1: '广西', m0: 7, m1: 1 },
    { d0: '华北', d1: '北京', m0: 3.5, m1: 1 },
  ],
};
const fields = { rowDims, colDims, measures };
const layout = pivotLayout({ ...fields, dataList, totals, showTotal: true });

describe('pivot export grid', () => {
  it('lays out the headers, rows and 合计 of the screen, with merged headers and row titles', () => {
    const grid = pivotGrid(layout, fields);
    expect(grid.headerRows).toBe(2);
    expect(grid.cells).toEqual([
      ['大区', '省份', '线上', '线上', '线下', '线下', '合计', '合计'],
      ['大区', '省份', '金额', '订单数', '金额', '订单数', '金额', '订单数'],
      ['华南', '广东', 10, 1, 5, 2, 15, 3],
      ['华南', '广西', 7, 1, null, null, 7, 1],
      ['华北', '北京', null, null, 3.5, 1, 3.5, 1],
      ['合计', null, 17, 2, 8.5, 3, 25.5, 5],
    ]);
    expect(grid.merges).toEqual(
      expect.arrayContaining([
        { top: 0, left: 0, bottom: 1, right: 0 },
        { top: 0, left: 1, bottom: 1, right: 1 },
        { top: 0, left: 2, bottom: 0, right: 3 },
        { top: 0, left: 4, bottom: 0, right: 5 },
        { top: 0, left: 6, bottom: 0, right: 7 },
        // 华南 over its two provinces; the 合计 row is never merged into the rows above.
        { top: 2, left: 0, bottom: 3, right: 0 },
      ]),
    );
    expect(grid.merges).toHaveLength(6);
    expect([...grid.boldRows]).toEqual([5]);
    expect([...grid.boldColumns]).toEqual([6, 7]);
  });

  it('writes Excel merged cells and a CSV with every label repeated, after a UTF-8 BOM', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pivot-sheet-'));
    try {
      const grid = pivotGrid(layout, fields);
      await writePivotXlsx(path.join(dir, 'p.xlsx'), grid);
      const book = new ExcelJS.Workbook();
      await book.xlsx.readFile(path.join(dir, 'p.xlsx'));
      const sheet = book.worksheets[0]!;
      expect([...sheet.model.merges].sort()).toEqual(['A1:A2', 'A3:A4', 'B1:B2', 'C1:D1', 'E1:F1', 'G1:H1']);
      expect(sheet.getCell('C1').value).toBe('线上');
      expect(sheet.getCell('A6').value).toBe('合计');
      expect(sheet.getCell('A6').font?.bold).toBe(true);
      expect(sheet.getCell('G3').font?.bold).toBe(true);
      expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 2, xSplit: 2 });

      await writePivotCsv(path.join(dir, 'p.csv'), grid);
      const csv = fs.readFileSync(path.join(dir, 'p.csv'), 'utf8');
      expect(csv.startsWith('\ufeff')).toBe(true);
      expect(csv.slice(1).split('\r\n').slice(0, 3)).toEqual([
        '大区,省份,线上,线上,线下,线下,合计,合计',
        '大区,省份,金额,订单数,金额,订单数,金额,订单数',
        '华南,广东,10,1,5,2,15,3',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a single measure: the column value stands for it; no column dimensions: one header row of measures', () => {
    const one = { rowDims, colDims, measures: [measures[0]!] };
    const grid = pivotGrid(pivotLayout({ ...one, dataList, totals, showTotal: false }), one);
    expect(grid.cells.slice(0, 1)).toEqual([['大区', '省份', '线上', '线下']]);
    const flat = { rowDims, colDims: [], measures };
    const plain = pivotGrid(pivotLayout({ ...flat, dataList, showTotal: false }), flat);
    expect(plain.cells[0]).toEqual(['大区', '省份', '金额', '订单数']);
    expect(plain.headerRows).toBe(1);
  });
});
