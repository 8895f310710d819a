import type { Chart, ChartType, DatasetField } from '@shutu/contracts';

/** Fixtures of the chart configuration panel tests. */

export function configField(id: number, columnTitle: string, extra: Partial<DatasetField> = {}): DatasetField {
  return {
    id,
    cubeId: 7,
    columnName: `c${id}`,
    columnTitle,
    columnComment: null,
    columnAttr: 'NORMAL',
    columnFormula: null,
    tableName: 'orders',
    tableAliasName: 'o',
    dimensionType: 'WEIDU',
    viewDataType: 'STRING',
    oldViewDataType: null,
    hiddenStatus: 0,
    sortNum: id,
    numberDataFormat: 'AUTO',
    timeDataFormat: 'yyyy_MM_ddhh$mm$ss',
    aggregationType: 'SUM',
    virtualAggregationStatus: 0,
    isExtra: 0,
    ...extra,
  };
}

export function configChart(name: ChartType, overrides: Partial<Chart> = {}): Chart {
  return {
    id: 0,
    key: 'c1',
    name,
    title: '',
    dataconfig: null,
    option: {},
    modalSet: null,
    site: { x: 0, y: 0, w: 8, h: 6, isDiglog: false, isFilexd: false, isSimple: false, zIndex: 0 },
    ext: { filterList: [] },
    ...overrides,
  };
}
