import type { CubeQueryRequestParsed, TimeUnit } from '@shutu/contracts';
import { granularityForSpan } from '@shutu/query';
import type { AppContext } from '../../context.ts';
import { keyOf } from '../dataset/index.ts';
import { readPage, type OpenRead } from '../read/index.ts';
import type { ChartFieldInfo } from './chart-request.ts';

/**
 * The default granularity of an aggregated chart's time dimensions (docs/board-chart-config.md
 * "Time axes"): a DATETIME dimension the user gave no granularity is grouped by the unit that
 * suits the span of its values under the chart's filters, links and the reader's permissions
 * (granularityForSpan: hours, days, weeks, months or years). It is worked out per query, so it
 * follows the data, and the answer's fieldDict reports it: the editor shows it as 自动（月）.
 */

type Dimension = CubeQueryRequestParsed['dimensions'][number];

/** Positions of the DATETIME dimensions without a granularity. */
export function ungroupedTimeDimensions(request: Pick<CubeQueryRequestParsed, 'dimensions'>, fields: ReadonlyMap<string, ChartFieldInfo>): number[] {
  return request.dimensions.flatMap((d, i) => (!d.granularity && fields.get(keyOf(d.fieldId))?.viewDataType === 'DATETIME' ? [i] : []));
}

/** The first and last value of each field, in one query: MIN and MAX of each, under `where`. */
export function spanRequest(dimensions: readonly Dimension[], where: CubeQueryRequestParsed['where']): CubeQueryRequestParsed {
  return {
    dimensions: [],
    measures: dimensions.flatMap((d) => [
      { fieldId: d.fieldId, aggregation: 'MIN' as const },
      { fieldId: d.fieldId, aggregation: 'MAX' as const },
    ]),
    detail: false,
    where,
    having: null,
    sort: [],
    limit: 1,
    withTotal: false,
  };
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The request with a granularity on every time dimension (unchanged when none lacks one). */
export async function withDefaultGranularity(
  ctx: AppContext,
  read: OpenRead,
  request: CubeQueryRequestParsed,
  fields: ReadonlyMap<string, ChartFieldInfo>,
): Promise<CubeQueryRequestParsed> {
  const positions = ungroupedTimeDimensions(request, fields);
  if (positions.length === 0) return request;
  const open = positions.map((i) => request.dimensions[i]!);
  const span = await readPage(ctx, read, spanRequest(open, request.where));
  const row = span.answer.value.dataList[0] ?? {};
  const units = new Map<number, TimeUnit>(positions.map((position, n) => [position, granularityForSpan(text(row[`m${2 * n}`]), text(row[`m${2 * n + 1}`]))]));
  return { ...request, dimensions: request.dimensions.map((d, i) => (units.has(i) ? { ...d, granularity: units.get(i)! } : d)) };
}
