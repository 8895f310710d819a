import type { ChartDataBody, ChartDataResult, DatasetField, TimeUnit } from '@shutu/contracts';
import { useChartData } from '../../../../shared/charts/useChartData.ts';
import type { DataConfig } from './rules.ts';

/**
 * The granularity the server chose for each time dimension the user left on 自动 (it groups
 * by the data's span and reports the unit in the answer's fieldDict; docs/board-chart-config.md
 * "Time axes"), so the editor shows it as the current choice: 自动（月）.
 */

export interface AutoUnits {
  rows: (TimeUnit | null)[];
  columns: (TimeUnit | null)[];
}

const NONE: AutoUnits = { rows: [], columns: [] };

/** Some dimension of the chart is a date left on 自动. */
export function hasAutoTime(config: DataConfig | null, fields: readonly DatasetField[] | undefined): boolean {
  if (!config || !fields) return false;
  const isDate = (id: number) => fields.some((f) => f.id === id && f.viewDataType === 'DATETIME');
  return [...config.rowParamList, ...config.columnParamList].some((d) => !d.granularity && isDate(d.fieldId));
}

/**
 * The unit of each row and column dimension left on 自动, read from a chart-data answer (its
 * dimensions are the rows, then the columns); null where the user chose one, or where the
 * answer is of another configuration (a previous answer shown while the new one loads).
 */
export function autoUnits(config: DataConfig | null, data: Pick<ChartDataResult, 'fieldDict'> | null): AutoUnits {
  if (!config || !data) return NONE;
  const dims = data.fieldDict.filter((f) => f.kind === 'dimension');
  const unit = (d: DataConfig['rowParamList'][number], position: number): TimeUnit | null => {
    const f = dims[position];
    return !d.granularity && f && String(f.fieldId) === String(d.fieldId) ? f.granularity : null;
  };
  return {
    rows: config.rowParamList.map((d, i) => unit(d, i)),
    columns: config.columnParamList.map((d, i) => unit(d, config.rowParamList.length + i)),
  };
}

/**
 * The editor's chart-data answer for `input` (the live chart's own request: same key, so no
 * second request) when a time dimension is on 自动, and the units it reports.
 */
export function useAutoUnits(input: ChartDataBody | null, config: DataConfig | null, fields: readonly DatasetField[] | undefined): AutoUnits {
  const enabled = hasAutoTime(config, fields);
  const { data } = useChartData(enabled ? input : null);
  return enabled ? autoUnits(config, data) : NONE;
}
