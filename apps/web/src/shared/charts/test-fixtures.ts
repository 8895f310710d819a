import type { Chart, ChartDataResult, ChartType } from '@shutu/contracts';
import type { CubeCell } from './format.ts';

/** Fixtures of the chart renderer tests. */

type Field = ChartDataResult['fieldDict'][number];

export function dim(alias: string, title: string, fieldId: number, viewDataType: Field['viewDataType'] = 'STRING'): Field {
  return { alias, fieldId, title, viewDataType, kind: 'dimension', aggregation: null, granularity: null };
}

export function measure(alias: string, title: string, fieldId: number): Field {
  return { alias, fieldId, title, viewDataType: 'NUMBER', kind: 'measure', aggregation: 'SUM', granularity: null };
}

export function makeData(fieldDict: Field[], dataList: Record<string, CubeCell>[], total: number | null = null): ChartDataResult {
  return { fieldDict, dataList, total, elapsedMs: 1, shared: false };
}

export function makeChart(name: ChartType, overrides: Partial<Chart> & { rows?: number; cols?: number } = {}): Chart {
  const { rows = 1, cols = 0, ...rest } = overrides;
  const ids = (n: number, from: number) => Array.from({ length: n }, (_, i) => ({ fieldId: from + i }));
  return {
    id: 1,
    key: 'c1',
    name,
    title: '销售额',
    dataconfig: {
      cubeId: 1,
      rowParamList: ids(rows, 1),
      columnParamList: ids(cols, 10),
      indexParamList: [{ fieldId: 100 }],
      sortList: [],
    },
    option: {},
    modalSet: null,
    site: { x: 0, y: 0, w: 8, h: 6, isDiglog: false, isFilexd: false, isSimple: false, zIndex: 0 },
    ext: { filterList: [] },
    ...rest,
  };
}

/** Sales by region (d0), product (d1, a column dimension when cols=1), amount (m0) and count (m1). */
export const salesFields = [dim('d0', '区域', 1), dim('d1', '产品', 10), measure('m0', '金额', 100), measure('m1', '数量', 101)];
export const salesRows: Record<string, CubeCell>[] = [
  { d0: '华东', d1: 'A', m0: 1200.5, m1: 3 },
  { d0: '华东', d1: 'B', m0: '800', m1: 2 },
  { d0: '华北', d1: 'A', m0: 500, m1: 1 },
  { d0: null, d1: 'B', m0: 100, m1: null },
];
