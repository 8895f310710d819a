import { describe, expect, it } from 'vitest';
import { CHART_MAX_ROWS, chartDataConfigSchema, chartLinkValueSchema, type ChartDataConfig, type ChartLinkValue, type FilterFunction } from '@shutu/contracts';
import { AppError } from '../../platform/http/errors.ts';
import { buildChartRequest, chartWhere, type ChartFieldInfo, type ChartRequestInput } from './chart-request.ts';

/** Fields: 1 province, 2 channel, 3 amount (SUM), 4 order time, 5 age (AVG), 6 computed that aggregates. */
const fields = new Map<string, ChartFieldInfo>([
  ['1', { aggregationType: 'SUM', selfAggregating: false }],
  ['2', { aggregationType: 'SUM', selfAggregating: false }],
  ['3', { aggregationType: 'SUM', selfAggregating: false }],
  ['4', { aggregationType: 'SUM', selfAggregating: false }],
  ['5', { aggregationType: 'AVG', selfAggregating: false }],
  ['6', { aggregationType: 'SUM', selfAggregating: true }],
]);

const input = (
  dataconfig: Omit<ChartDataConfig, 'cubeId'>,
  extra: Partial<Omit<ChartRequestInput, 'dataconfig' | 'links'>> & { links?: ChartLinkValue[] } = {},
): ChartRequestInput => ({
  title: '图表一',
  mode: 'aggregate',
  current: 1,
  size: null,
  ...extra,
  links: (extra.links ?? []).map((l) => chartLinkValueSchema.parse(l)),
  dataconfig: chartDataConfigSchema.parse({ cubeId: 9, ...dataconfig }),
});

const item = (id: number, fn: FilterFunction, values: (string | number)[]) => ({
  cubeColumnId: id,
  connectType: 'and' as const,
  conditions: [{ function: fn, values }],
});

const refusal = (fn: () => unknown): AppError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('chart request: aggregate', () => {
  it('rows and columns are the dimensions with granularity; measures take their aggregation or the field default', () => {
    const request = buildChartRequest(
      input({
        rowParamList: [{ fieldId: 4, granularity: 'MONTH' }, { fieldId: 1 }],
        columnParamList: [{ fieldId: 2 }],
        indexParamList: [{ fieldId: 3 }, { fieldId: 3, aggregation: 'COUNT' }, { fieldId: 5 }, { fieldId: 6, aggregation: 'SUM' }],
      }),
      fields,
    );
    expect(request).toMatchObject({
      dimensions: [
        { fieldId: 4, granularity: 'MONTH' },
        { fieldId: 1, granularity: null },
        { fieldId: 2, granularity: null },
      ],
      measures: [
        { fieldId: 3, aggregation: 'SUM' },
        { fieldId: 3, aggregation: 'COUNT' },
        { fieldId: 5, aggregation: 'AVG' },
        { fieldId: 6, aggregation: null },
      ],
      detail: false,
      where: null,
      sort: [],
      limit: CHART_MAX_ROWS,
      withTotal: false,
    });
  });

  it('sort and limit come from the chart; a computed field that aggregates sorts without aggregation', () => {
    const request = buildChartRequest(
      input({
        rowParamList: [{ fieldId: 1 }],
        indexParamList: [{ fieldId: 3 }, { fieldId: 6 }],
        sortList: [{ fieldId: 3, aggregation: 'SUM', direction: 'DESC' }, { fieldId: 6, aggregation: 'SUM' }, { fieldId: 1 }],
        limit: 5,
      }),
      fields,
    );
    expect(request.sort).toEqual([
      { fieldId: 3, aggregation: 'SUM', direction: 'DESC' },
      { fieldId: 6, aggregation: null, direction: 'ASC' },
      { fieldId: 1, aggregation: null, direction: 'ASC' },
    ]);
    expect(request.limit).toBe(5);
  });

  it('a time axis is ordered by time unless the chart names a sort; a clicked bucket keeps its granularity', () => {
    const timed = new Map(fields).set('4', { aggregationType: 'SUM', selfAggregating: false, viewDataType: 'DATETIME' });
    const config = {
      rowParamList: [{ fieldId: 1 }, { fieldId: 4, granularity: 'MONTH' as const }],
      columnParamList: [{ fieldId: 4 }],
      indexParamList: [{ fieldId: 3 }],
    };
    const link = { fieldId: 4, values: ['2026-09-01T00:00:00'], granularity: 'MONTH' as const };
    const request = buildChartRequest(input(config, { links: [link] }), timed);
    expect(request.sort).toEqual([{ fieldId: 4, aggregation: null, direction: 'ASC' }]);
    expect(request.where).toEqual({
      relation: 'AND',
      conditions: [{ cubeColumnId: 4, connectType: 'and', conditions: [{ function: 'in', values: ['2026-09-01T00:00:00'], granularity: 'MONTH' }] }],
      filters: [],
    });
    const chosen = buildChartRequest(input({ ...config, sortList: [{ fieldId: 3, aggregation: 'SUM', direction: 'DESC' }] }), timed);
    expect(chosen.sort).toEqual([{ fieldId: 3, aggregation: 'SUM', direction: 'DESC' }]);
  });

  it('needs a dimension or a measure', () => {
    const error = refusal(() => buildChartRequest(input({}), fields));
    expect(error.status).toBe(400);
    expect(error.message).toBe('图表【图表一】请至少选择一个维度或指标');
  });

  it('refuses a field that is not in the dataset, wherever the chart uses it', () => {
    const unknown = (dataconfig: Omit<ChartDataConfig, 'cubeId'>, links: ChartLinkValue[] = []) =>
      refusal(() => buildChartRequest(input(dataconfig, { links }), fields));
    expect(unknown({ rowParamList: [{ fieldId: 77 }] }).message).toBe('图表【图表一】使用的字段【77】不在数据集中');
    expect(unknown({ indexParamList: [{ fieldId: 78 }] }).message).toContain('【78】');
    expect(unknown({ rowParamList: [{ fieldId: 1 }], sortList: [{ fieldId: 79 }] }).message).toContain('【79】');
    expect(unknown({ rowParamList: [{ fieldId: 1 }], filter: { conditions: [item(80, 'eq', ['x'])] } as never }).message).toContain('【80】');
    expect(unknown({ rowParamList: [{ fieldId: 1 }] }, [{ fieldId: 81, values: ['x'] }]).message).toContain('【81】');
  });
});

describe('chart request: detail', () => {
  it('raw rows of the row dimensions and the measures’ fields, paged, with the total', () => {
    const request = buildChartRequest(
      input(
        {
          rowParamList: [{ fieldId: 1 }, { fieldId: 4, granularity: 'DAY' }],
          indexParamList: [{ fieldId: 3 }, { fieldId: 1 }, { fieldId: 6 }, { fieldId: 3 }],
          pageSize: 50,
        },
        { mode: 'detail', current: 3, size: 10 },
      ),
      fields,
    );
    expect(request).toMatchObject({
      dimensions: [
        { fieldId: 1, granularity: null },
        { fieldId: 4, granularity: 'DAY' },
        { fieldId: 3, granularity: null },
      ],
      measures: [],
      detail: true,
      limit: 10,
      offset: 20,
      withTotal: true,
    });
  });

  it('the page size defaults to the chart’s, then 20; sort has no aggregation', () => {
    const chart = input(
      { rowParamList: [{ fieldId: 1 }], pageSize: 50, sortList: [{ fieldId: 1, aggregation: 'COUNT', direction: 'DESC' }] },
      { mode: 'detail' },
    );
    expect(buildChartRequest(chart, fields)).toMatchObject({ limit: 50, offset: 0, sort: [{ fieldId: 1, aggregation: null, direction: 'DESC' }] });
    expect(buildChartRequest(input({ rowParamList: [{ fieldId: 1 }] }, { mode: 'detail', current: 2 }), fields)).toMatchObject({ limit: 20, offset: 20 });
  });

  it('needs a column', () => {
    expect(refusal(() => buildChartRequest(input({ indexParamList: [{ fieldId: 6 }] }, { mode: 'detail' }), fields)).status).toBe(400);
  });
});

describe('chart request: values', () => {
  it('the distinct values of the first row dimension, sorted, at most 1000', () => {
    const request = buildChartRequest(
      input(
        { rowParamList: [{ fieldId: 2 }, { fieldId: 1 }], indexParamList: [{ fieldId: 3 }], sortList: [{ fieldId: 3, direction: 'DESC' }] },
        { mode: 'values' },
      ),
      fields,
    );
    expect(request).toEqual({
      dimensions: [{ fieldId: 2, granularity: null }],
      measures: [],
      detail: false,
      where: null,
      sort: [{ fieldId: 2, direction: 'ASC' }],
      limit: 1000,
      withTotal: false,
    });
  });

  it('needs a row dimension', () => {
    expect(refusal(() => buildChartRequest(input({ indexParamList: [{ fieldId: 3 }] }, { mode: 'values' }), fields)).message).toBe(
      '图表【图表一】请至少选择一个维度或指标',
    );
  });
});

describe('chart request: filter and links', () => {
  const base = { rowParamList: [{ fieldId: 1 }], indexParamList: [{ fieldId: 3 }] };

  it('links with values are ANDed conditions; links without values are ignored', () => {
    const request = buildChartRequest(
      input(base, {
        links: [
          { fieldId: 1, values: ['广东', '北京'] },
          { fieldId: 2, function: 'eq', values: [] },
          { fieldId: 4, function: 'between', values: ['2024-01-01', '2024-01-31'] },
        ],
      }),
      fields,
    );
    expect(request.where).toEqual({
      relation: 'AND',
      conditions: [item(1, 'in', ['广东', '北京']), item(4, 'between', ['2024-01-01', '2024-01-31'])],
      filters: [],
    });
  });

  it('the chart’s filter is the where tree; links join an AND root', () => {
    const request = buildChartRequest(
      input({ ...base, filter: { relation: 'AND', conditions: [item(2, 'eq', ['线上'])] } as never }, { links: [{ fieldId: 1, values: ['广东'] }] }),
      fields,
    );
    expect(request.where).toMatchObject({ relation: 'AND', conditions: [{ cubeColumnId: 2 }, item(1, 'in', ['广东'])], filters: [] });
  });

  it('without links the chart’s filter is used as it is (parameters resolved)', () => {
    const request = buildChartRequest(
      input({
        ...base,
        filter: {
          relation: 'OR',
          conditions: [item(2, 'eq', ['线上']), { cubeColumnId: 1, conditions: [{ function: 'eq', useParam: true, paramKey: 'p' }] }],
        } as never,
      }),
      fields,
    );
    expect(request.where).toMatchObject({ relation: 'OR', conditions: [{ cubeColumnId: 2 }], filters: [] });
  });

  it('an OR root keeps its meaning: a group under AND, or distributed when it has groups', () => {
    const a = item(1, 'eq', ['a']);
    const b = item(2, 'eq', ['b']);
    const c = item(3, 'gt', [1]);
    const d = item(5, 'lt', [2]);
    const link = item(4, 'in', ['x']);
    expect(chartWhere({ relation: 'OR', conditions: [a, b] } as never, [link])).toEqual({
      relation: 'AND',
      conditions: [link],
      filters: [{ relation: 'OR', conditions: [a, b] }],
    });
    expect(
      chartWhere(
        {
          relation: 'OR',
          conditions: [a],
          filters: [
            { relation: 'AND', conditions: [b, c] },
            { relation: 'OR', conditions: [c, d] },
            { relation: 'AND', conditions: [] },
          ],
        } as never,
        [link],
      ),
    ).toEqual({
      relation: 'OR',
      conditions: [],
      filters: [
        { relation: 'AND', conditions: [a, link] },
        { relation: 'AND', conditions: [b, c, link] },
        { relation: 'AND', conditions: [c, link] },
        { relation: 'AND', conditions: [d, link] },
      ],
    });
    expect(chartWhere(null, [])).toBeNull();
    expect(chartWhere({ relation: 'AND', conditions: [], filters: [] } as never, [])).toBeNull();
  });
});
