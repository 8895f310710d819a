import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, ok } from '../../../../test/fetch-mock.ts';
import { boardDistinctValues } from './filter-values.ts';
import { emptyConfig } from './rules.ts';

afterEach(() => vi.unstubAllGlobals());

describe("the chart filter's field values", () => {
  it("reads the chart's dataset in values mode for that one field, without the chart's own filter", async () => {
    const calls = mockFetch(() =>
      ok({ dataList: [{ d0: '广东' }, { d0: null }, { d0: '浙江' }], fieldDict: [{ alias: 'd0', fieldId: 5, title: '省份', viewDataType: 'STRING' }] }),
    );
    const config = { ...emptyConfig(12), rowParamList: [{ fieldId: 1 }], filter: { relation: 'AND' as const, conditions: [], filters: [] } };
    const options = await boardDistinctValues(config)(5);
    expect(options).toEqual([
      { value: '广东', label: '广东' },
      { value: '浙江', label: '浙江' },
    ]);
    expect(calls[0]!.url).toBe('/api/board/chart-data');
    expect(calls[0]!.body).toMatchObject({ mode: 'values', dataconfig: { cubeId: 12, rowParamList: [{ fieldId: 5 }], filter: null } });
  });
});
