import type { Board, Chart, ChartDataResult, ChartLink, ChartType } from '@shutu/contracts';
import { makeChart } from '../../../shared/charts/test-fixtures.ts';
import { board as listItem } from '../test-fixtures.ts';

/** Boards and chart-data answers of the preview tests. */

type Site = Partial<Chart['site']>;

export function chartAt(key: string, name: ChartType, title: string, site: Site = {}, ext: Partial<Chart['ext']> = {}): Chart {
  const base = makeChart(name, { key, title });
  return {
    ...base,
    dataconfig: name === 'text' || name === 'image' ? null : base.dataconfig,
    site: { ...base.site, ...site },
    ext: { filterList: [], ...ext },
  };
}

export const link = (linkFrom: string, linkKey: number, extra: Partial<ChartLink> = {}): ChartLink => ({
  linkFrom,
  linkKey,
  linkSet: true,
  linkFlag: true,
  beginFlag: false,
  ...extra,
});

export function makeBoard(charts: Chart[], content: Partial<Board['content']> = {}, extra: Partial<Board> = {}): Board {
  return {
    ...listItem(5, '销售驾驶舱'),
    content: { type: 'screen', layout: [], width: 1920, height: 1080, editSwitch: false, ...content },
    charts,
    ...extra,
  };
}

/** Sales by province (d0 → field 1) and amount (m0 → field 100). */
export function salesData(rows: [string, number][]): ChartDataResult {
  return {
    fieldDict: [
      { alias: 'd0', fieldId: 1, title: '省份', viewDataType: 'STRING', kind: 'dimension', aggregation: null, granularity: null },
      { alias: 'm0', fieldId: 100, title: '金额', viewDataType: 'NUMBER', kind: 'measure', aggregation: 'SUM', granularity: null },
    ],
    dataList: rows.map(([d0, m0]) => ({ d0, m0 })),
    total: null,
    elapsedMs: 1,
    shared: false,
  };
}
