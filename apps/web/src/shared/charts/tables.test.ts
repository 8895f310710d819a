import { describe, expect, it } from 'vitest';
import { tupleKey } from './model.ts';
import {
  buildCard,
  buildDetailTable,
  buildPivotTable,
  buildSummaryTable,
  cellText,
  filterOptions,
  leafColumns,
  memberTree,
  hiddenLeaves,
  TOTAL_ROW_KEY,
  type TableColumnSpec,
} from './tables.ts';
import { dim, makeChart, makeData, measure, salesFields, salesRows } from './test-fixtures.ts';

const titles = (cols: TableColumnSpec[]): unknown[] => cols.map((c) => (c.children ? { [c.title]: titles(c.children) } : c.title));

describe('summary and detail tables', () => {
  it("summary: dimension columns then measure columns, the server's 合计", () => {
    const chart = makeChart('table', { cols: 1, option: { showTotal: true, formats: { '100': '#,##0.00' } } });
    // The server's totals (e.g. an average and a distinct count over every row), not the sums of the rows shown.
    const data = { ...makeData(salesFields, salesRows), totals: { grand: { m0: '650.125', m1: 2 }, byColumn: [] } };
    const { columns, rows } = buildSummaryTable(chart, data);
    expect(titles(columns)).toEqual(['区域', '产品', '金额', '数量']);
    expect(columns.map((c) => c.align)).toEqual(['left', 'left', 'right', 'right']);
    expect(rows).toHaveLength(5);
    const total = rows[4]!;
    expect(total.key).toBe(TOTAL_ROW_KEY);
    expect(total.d0).toBe('合计');
    expect(cellText(columns[2]!, total.m0)).toBe('650.13');
    expect(cellText(columns[3]!, total.m1)).toBe('2');
    expect(cellText(columns[0]!, rows[3]!.d0)).toBe('(空)');
  });

  it('summary: no 合计 row unless the style shows it and the server sent totals', () => {
    const totals = { grand: { m0: 1, m1: 1 }, byColumn: [] };
    const rowsOf = (option: Record<string, unknown>, withTotals: boolean) =>
      buildSummaryTable(makeChart('table', { cols: 1, option }), { ...makeData(salesFields, salesRows), ...(withTotals ? { totals } : {}) }).rows;
    expect(rowsOf({}, true)).toHaveLength(4);
    expect(rowsOf({ showTotal: true }, false)).toHaveLength(4);
    expect(rowsOf({ showTotal: true }, true)).toHaveLength(5);
  });

  it('detail: every column, NUMBER columns formatted', () => {
    const data = makeData([dim('d0', '订单号', 1), dim('d1', '金额', 2, 'NUMBER')], [{ d0: 'x1', d1: 12345.678 }], 120);
    const { columns, rows } = buildDetailTable(makeChart('detail'), data);
    expect(columns.map((c) => [c.title, c.kind])).toEqual([
      ['订单号', 'dimension'],
      ['金额', 'measure'],
    ]);
    expect(cellText(columns[1]!, rows[0]!.d1)).toBe('12,345.68');
  });

  it('dates read yyyy-MM-dd, date-times yyyy-MM-dd HH:mm:ss, one form per column', () => {
    const fields = [dim('d0', '下单日期', 1, 'DATETIME'), dim('d1', '下单时间', 2, 'DATETIME')];
    const data = makeData(fields, [
      { d0: '2026-01-01T00:00:00', d1: '2026-09-22T16:25:59' },
      { d0: '2026-01-02', d1: '2026-09-23T00:00:00' },
      { d0: null, d1: null },
    ]);
    const { columns, rows } = buildDetailTable(makeChart('detail'), data);
    const text = (c: number, r: number) => cellText(columns[c]!, rows[r]![columns[c]!.dataIndex!]);
    expect([text(0, 0), text(0, 1), text(0, 2)]).toEqual(['2026-01-01', '2026-01-02', '(空)']);
    expect([text(1, 0), text(1, 1)]).toEqual(['2026-09-22 16:25:59', '2026-09-23 00:00:00']);
    // A summary table grouped by day keeps its truncation.
    const byDay = makeData([{ ...fields[0]!, granularity: 'DAY' }, measure('m0', '金额', 100)], [{ d0: '2026-05-04T00:00:00', m0: 1 }]);
    const summary = buildSummaryTable(makeChart('table'), byDay);
    expect(cellText(summary.columns[0]!, summary.rows[0]!.d0)).toBe('2026-05-04');
  });
});

describe('field titles', () => {
  it("the chart's own titles replace the dataset's", () => {
    const chart = makeChart('table');
    chart.dataconfig!.rowParamList[0]!.title = '大区';
    chart.dataconfig!.indexParamList[0]!.title = '销售额';
    const data = makeData([salesFields[0]!, salesFields[2]!], [{ d0: '华东', m0: 1 }]);
    expect(buildSummaryTable(chart, data).columns.map((c) => c.title)).toEqual(['大区', '销售额']);
    expect(buildDetailTable(chart, data).columns.map((c) => c.title)).toEqual(['大区', '金额']);
  });
});

describe('pivot table', () => {
  // rows: region; columns: year × product (nested); measures: amount, count
  const fields = [dim('d0', '区域', 1), dim('d1', '年份', 10), dim('d2', '产品', 11), measure('m0', '金额', 100), measure('m1', '数量', 101)];
  const rows = [
    { d0: '华东', d1: 2023, d2: 'A', m0: 10, m1: 1 },
    { d0: '华东', d1: 2023, d2: 'B', m0: 20, m1: 2 },
    { d0: '华东', d1: 2024, d2: 'A', m0: 30, m1: 3 },
    { d0: '华北', d1: 2024, d2: 'A', m0: 40, m1: 4 },
  ];
  const chart = makeChart('pivot', { cols: 2 });
  const data = makeData(fields, rows);

  it('nests the column dimensions as header groups with the measures under each leaf', () => {
    const model = buildPivotTable(chart, data);
    expect(titles(model.columns)).toEqual(['区域', { '2023': [{ A: ['金额', '数量'] }, { B: ['金额', '数量'] }] }, { '2024': [{ A: ['金额', '数量'] }] }]);
    expect(model.rows).toHaveLength(2);
    const leaves = leafColumns(model.columns);
    expect(leaves).toHaveLength(7);
    const east = model.rows[0]!;
    expect(leaves.map((c) => (c.dataIndex ? (east[c.dataIndex] ?? null) : null))).toEqual(['华东', 10, 1, 20, 2, 30, 3]);
    const north = model.rows[1]!;
    expect(leaves.map((c) => (c.dataIndex ? (north[c.dataIndex] ?? null) : null))).toEqual(['华北', null, null, null, null, 40, 4]);
  });

  it('a single measure sits in the leaf header itself', () => {
    const one = makeData(
      fields.filter((f) => f.alias !== 'm1'),
      rows,
    );
    const model = buildPivotTable(chart, one);
    expect(titles(model.columns)).toEqual(['区域', { '2023': ['A', 'B'] }, { '2024': ['A'] }]);
  });

  it('without column dimensions it is a table of the row dimensions and measures', () => {
    const flat = makeData(
      [fields[0]!, fields[3]!],
      [
        { d0: '华东', m0: 1 },
        { d0: '华北', m0: 2 },
      ],
    );
    const model = buildPivotTable(makeChart('pivot'), flat);
    expect(titles(model.columns)).toEqual(['区域', '金额']);
    expect(model.rows.map((r) => r.m0)).toEqual([1, 2]);
  });

  // The server's totals per column combination (keyed as the rows), e.g. averages: not the sums of the cells.
  const totals = {
    grand: { m0: 25, m1: 4 },
    byColumn: [
      { d1: 2024, d2: 'A', m0: 35, m1: 2 },
      { d1: 2023, d2: 'A', m0: 10, m1: 1 },
      { d1: 2023, d2: 'B', m0: 20, m1: 1 },
    ],
  };

  it("the 合计 row shows the server's total under each column", () => {
    const model = buildPivotTable(makeChart('pivot', { cols: 2, option: { showTotal: true } }), { ...data, totals });
    const total = model.rows.at(-1)!;
    expect(total.key).toBe(TOTAL_ROW_KEY);
    expect(total.d0).toBe('合计');
    const leaves = leafColumns(model.columns);
    expect(leaves.slice(1).map((c) => total[c.dataIndex!])).toEqual([10, 1, 20, 1, 35, 2]);
  });

  it('the 合计 row keeps the totals of the visible columns; hidden rows do not change it', () => {
    const model = buildPivotTable(
      makeChart('pivot', { cols: 2, option: { showTotal: true } }),
      { ...data, totals },
      {
        hiddenRows: [tupleKey(['华北'])],
        hiddenColumns: [tupleKey([2023, 'B'])],
      },
    );
    const total = model.rows.at(-1)!;
    expect(model.rows.map((r) => r.d0)).toEqual(['华东', '合计']);
    expect(
      leafColumns(model.columns)
        .slice(1)
        .map((c) => total[c.dataIndex!]),
    ).toEqual([10, 1, 35, 2]);
  });

  // The server's totals per row across every column (keyed as the rows), e.g. averages: not the sums of the cells.
  const byRow = [
    { d0: '华北', m0: 40, m1: 4 },
    { d0: '华东', m0: 18, m1: 6 },
  ];
  const pivotWithTotals = (option: Record<string, unknown> = { showTotal: true }) => makeChart('pivot', { cols: 2, option });

  it("the 合计 column: each row's server total per measure, the grand total where it meets the 合计 row", () => {
    const model = buildPivotTable(pivotWithTotals(), { ...data, totals: { ...totals, byRow } });
    expect(titles(model.columns)).toEqual([
      '区域',
      { '2023': [{ A: ['金额', '数量'] }, { B: ['金额', '数量'] }] },
      { '2024': [{ A: ['金额', '数量'] }] },
      { 合计: ['金额', '数量'] },
    ]);
    const totalLeaves = leafColumns(model.columns).slice(-2);
    expect(totalLeaves.every((c) => c.total && c.kind === 'measure')).toBe(true);
    const cells = model.rows.map((r) => [r.d0, ...totalLeaves.map((c) => r[c.dataIndex!])]);
    expect(cells).toEqual([
      ['华东', 18, 6],
      ['华北', 40, 4],
      ['合计', 25, 4],
    ]);
  });

  it("the 合计 column keeps each row's total over every column, hidden ones included; one measure: a single 合计 leaf", () => {
    const model = buildPivotTable(pivotWithTotals(), { ...data, totals: { ...totals, byRow } }, { hiddenRows: [], hiddenColumns: [tupleKey([2023, 'B'])] });
    const east = model.rows[0]!;
    expect(
      leafColumns(model.columns)
        .slice(-2)
        .map((c) => east[c.dataIndex!]),
    ).toEqual([18, 6]);

    const one = makeData(
      fields.filter((f) => f.alias !== 'm1'),
      rows,
    );
    const single = buildPivotTable(pivotWithTotals(), { ...one, totals: { ...totals, byRow } });
    expect(titles(single.columns).at(-1)).toBe('合计');
    expect(single.rows.map((r) => r[leafColumns(single.columns).at(-1)!.dataIndex!])).toEqual([18, 40, 25]);
  });

  it('no 合计 column unless the style shows it, the pivot has column dimensions and the server totalled its rows', () => {
    const lastTitle = (model: { columns: TableColumnSpec[] }) => titles(model.columns).at(-1);
    expect(lastTitle(buildPivotTable(pivotWithTotals({}), { ...data, totals: { ...totals, byRow } }))).toEqual({ '2024': [{ A: ['金额', '数量'] }] });
    expect(lastTitle(buildPivotTable(pivotWithTotals(), { ...data, totals }))).toEqual({ '2024': [{ A: ['金额', '数量'] }] });
    expect(lastTitle(buildPivotTable(pivotWithTotals(), data))).toEqual({ '2024': [{ A: ['金额', '数量'] }] });
    const flat = makeData([fields[0]!, fields[3]!], [{ d0: '华东', m0: 1 }]);
    const flatModel = buildPivotTable(makeChart('pivot', { option: { showTotal: true } }), { ...flat, totals: { grand: { m0: 1 }, byColumn: [], byRow: [] } });
    expect(titles(flatModel.columns)).toEqual(['区域', '金额']);
  });

  it('without column dimensions the 合计 row is the grand total; without server totals there is none', () => {
    const flat = makeData(
      [fields[0]!, fields[3]!],
      [
        { d0: '华东', m0: 1 },
        { d0: '华北', m0: 2 },
      ],
    );
    const chart = makeChart('pivot', { option: { showTotal: true } });
    expect(buildPivotTable(chart, { ...flat, totals: { grand: { m0: 1.5 }, byColumn: [] } }).rows.map((r) => [r.d0, r.m0])).toEqual([
      ['华东', 1],
      ['华北', 2],
      ['合计', 1.5],
    ]);
    expect(buildPivotTable(chart, flat).rows).toHaveLength(2);
  });

  it('member trees for the structure filter', () => {
    const model = buildPivotTable(chart, data);
    expect(model.rowMembers).toEqual([
      { key: tupleKey(['华东']), title: '华东' },
      { key: tupleKey(['华北']), title: '华北' },
    ]);
    expect(model.columnMembers).toEqual([
      {
        key: tupleKey([2023]),
        title: '2023',
        children: [
          { key: tupleKey([2023, 'A']), title: 'A' },
          { key: tupleKey([2023, 'B']), title: 'B' },
        ],
      },
      { key: tupleKey([2024]), title: '2024', children: [{ key: tupleKey([2024, 'A']), title: 'A' }] },
    ]);
    expect(model.columnKeys).toEqual([tupleKey([2023, 'A']), tupleKey([2023, 'B']), tupleKey([2024, 'A'])]);
    expect(memberTree([[null]])).toEqual([{ key: '[null]', title: '(空)' }]);
  });

  it('the structure filter hides unticked rows and columns', () => {
    const model = buildPivotTable(chart, data, { hiddenRows: [tupleKey(['华东'])], hiddenColumns: [tupleKey([2023, 'A'])] });
    expect(model.rows.map((r) => r.d0)).toEqual(['华北']);
    expect(titles(model.columns)).toEqual(['区域', { '2023': [{ B: ['金额', '数量'] }] }, { '2024': [{ A: ['金额', '数量'] }] }]);
  });

  it('ticked tree keys → hidden leaves', () => {
    const all = ['a', 'b', 'c'];
    expect(hiddenLeaves(['p', 'a', 'b', 'c'], all)).toEqual([]);
    expect(hiddenLeaves(['p', 'a'], all)).toEqual(['b', 'c']);
    expect(hiddenLeaves([], all)).toEqual(all);
  });
});

describe('indicator card and filter values', () => {
  it('the first measure big, the second as comparison', () => {
    const data = makeData([measure('m0', '本月', 100), measure('m1', '上月', 101)], [{ m0: 1500, m1: '1000' }]);
    const card = buildCard(makeChart('card', { rows: 0, option: { formats: { '101': '#,##0.00' } } }), data);
    expect(card).toEqual({ title: '本月', value: '1,500', compare: { title: '上月', value: '1,000.00', rate: 0.5 } });
  });

  it('no rows: no card', () => {
    expect(buildCard(makeChart('card'), makeData([measure('m0', '本月', 100)], []))).toBeNull();
  });

  it('filter options: the first dimension, distinct, without NULL', () => {
    const data = makeData([dim('d0', '区域', 1)], [{ d0: '华东' }, { d0: '华北' }, { d0: '华东' }, { d0: null }, { d0: 3 }]);
    expect(filterOptions(data)).toEqual([
      { label: '华东', value: '华东' },
      { label: '华北', value: '华北' },
      { label: '3', value: 3 },
    ]);
    expect(filterOptions(null)).toEqual([]);
  });
});
