import { boardMessages, formatMessage, STATIC_CHART_TYPES, type ChartDataConfigParsed, type ChartLink, type ChartType } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { fieldError } from '../../platform/http/errors.ts';
import { cubeRestriction, keyOf, treeFieldKeys, listFields } from '../dataset/index.ts';
import type { Caller } from '../perm/index.ts';
import { parseDataConfig, toChart } from './model.ts';
import { findCharts } from './repo.ts';

/**
 * Nobody publishes a column they may not see (docs/permissions.md): saving a board, a
 * slideshow or a subscription is refused (400) when one of the charts it shows reads a
 * column hidden from the author by their permission filters, with the chart and the column
 * named. Reads check again at query time, for what changed since (dataset/access.ts).
 */

/** What a chart reads, as saved or as sent by an editor. */
export interface ChartReads {
  title: string;
  key: string;
  name: ChartType;
  dataconfig?: ChartDataConfigParsed | null | undefined;
  ext: { filterList: readonly ChartLink[] };
}

/** The keys of the fields a data chart reads: dimensions, measures, sort, its filter and its links. */
export function fieldKeysReadBy(chart: ChartReads): string[] {
  const config = chart.dataconfig;
  if (!config || STATIC_CHART_TYPES.includes(chart.name)) return [];
  return [
    ...config.rowParamList.map((d) => keyOf(d.fieldId)),
    ...config.columnParamList.map((d) => keyOf(d.fieldId)),
    ...config.indexParamList.map((m) => keyOf(m.fieldId)),
    ...config.sortList.map((s) => keyOf(s.fieldId)),
    ...treeFieldKeys(config.filter),
    ...chart.ext.filterList.map((l) => keyOf(l.linkKey)),
  ];
}

/** Per dataset: the titles of its fields by key, and the keys hidden from one author. */
export type HiddenColumns = (cubeId: number) => Promise<{ titles: Map<string, string>; hidden: Set<string> }>;

export function hiddenColumnsOf(ctx: AppContext, author: Caller): HiddenColumns {
  const cache = new Map<number, ReturnType<HiddenColumns>>();
  return (cubeId) => {
    let entry = cache.get(cubeId);
    if (!entry) {
      entry = (async () => ({
        titles: new Map((await listFields(ctx.db, cubeId)).map((f) => [keyOf(f.id), f.columnTitle])),
        hidden: new Set((await cubeRestriction(ctx, author, cubeId)).permissions.excludedColumnIds.map(keyOf)),
      }))();
      cache.set(cubeId, entry);
    }
    return entry;
  };
}

/** 400 图表【x】使用了你无权查看的字段【y】 for the first chart reading a column hidden from the author. */
export async function assertNoHiddenColumns(
  ctx: AppContext,
  author: Caller,
  charts: readonly ChartReads[],
  columns = hiddenColumnsOf(ctx, author),
): Promise<void> {
  if (author.isAdministrator) return;
  for (const chart of charts) {
    const keys = fieldKeysReadBy(chart);
    if (keys.length === 0 || !chart.dataconfig) continue;
    const { titles, hidden } = await columns(chart.dataconfig.cubeId);
    const excluded = keys.find((key) => hidden.has(key));
    if (excluded !== undefined) {
      throw fieldError('charts', formatMessage(boardMessages.chartFieldExcluded, { title: chart.title || chart.key, name: titles.get(excluded) ?? excluded }));
    }
  }
}

/** The same for saved boards a slideshow or subscription shows. */
export async function assertBoardsShowNoHiddenColumns(ctx: AppContext, author: Caller, boardIds: readonly number[]): Promise<void> {
  if (author.isAdministrator) return;
  const columns = hiddenColumnsOf(ctx, author);
  for (const boardId of boardIds) {
    const charts = (await findCharts(ctx.db, boardId)).map((row) => ({ ...toChart(row), dataconfig: parseDataConfig(row.dataconfig) }));
    await assertNoHiddenColumns(ctx, author, charts, columns);
  }
}
