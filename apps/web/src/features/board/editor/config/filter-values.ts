import type { ChartDataConfig } from '@shutu/contracts';
import { chartDataBody, fetchChartData } from '../../../../shared/charts/useChartData.ts';
import type { DistinctValues, PickOption } from '../../../dataset/filter/pick-list.ts';
import type { DataConfig } from './rules.ts';

/**
 * A field's own values for the chart filter's pick-list (enumSource 1, issue 28): the chart's
 * dataset read in `values` mode for that one field — the board's chart-data call, through the
 * read module under the editor's permissions.
 */
export function boardDistinctValues(config: DataConfig): DistinctValues {
  return async (cubeColumnId) => {
    const dataconfig = {
      ...(config as ChartDataConfig),
      rowParamList: [{ fieldId: Number(cubeColumnId) }],
      columnParamList: [],
      indexParamList: [],
      filter: null,
      sortList: [],
    } as ChartDataConfig;
    const result = await fetchChartData(chartDataBody({ dataconfig, mode: 'values' }));
    const alias = result.fieldDict[0]?.alias;
    if (!alias) return [];
    return result.dataList.flatMap((row): PickOption[] => {
      const value = row[alias];
      return value === null || value === undefined || value === '' ? [] : [{ value: String(value), label: String(value) }];
    });
  };
}
