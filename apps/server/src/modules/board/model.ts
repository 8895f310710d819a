import { z } from 'zod';
import {
  boardContentSchema,
  chartDataConfigSchema,
  chartExtSchema,
  chartSiteSchema,
  CHART_TYPES,
  type Board,
  type BoardContentParsed,
  type BoardListItem,
  type Chart,
  type ChartDataConfigParsed,
  type ChartSaveParsed,
} from '@shutu/contracts';
import type { Caller } from '../perm/index.ts';
import type { BoardRow, ChartRow, ChartValues } from './repo.ts';

/** Pure helpers: stored JSON text ⇄ values, rows → API shapes. */

function parseJson<T>(text: string | null, schema: z.ZodType<T>, fallback: T): T {
  if (text === null || text === '') return fallback;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
}

const DEFAULT_CONTENT: BoardContentParsed = boardContentSchema.parse({});
const recordSchema = z.record(z.string(), z.unknown());

export const parseContent = (text: string): BoardContentParsed => parseJson(text, boardContentSchema, DEFAULT_CONTENT);
export const parseDataConfig = (text: string | null): ChartDataConfigParsed | null =>
  parseJson<ChartDataConfigParsed | null>(text, chartDataConfigSchema, null);

const iso = (d: Date) => new Date(d).toISOString();

/** Administrators and the creator may change and delete a board. */
export function mayEditBoard(caller: Caller, board: { createUserId: number | null }): boolean {
  return caller.isAdministrator || (board.createUserId !== null && board.createUserId === caller.userId);
}

export function toListItem(row: BoardRow, caller: Caller): BoardListItem {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    categoryId: row.categoryId,
    categoryName: row.categoryName,
    backgroundUrl: row.backgroundUrl,
    type: parseContent(row.content).type,
    publicStatus: row.publicStatus,
    sortNum: row.sortNum,
    createUserId: row.createUserId,
    createUserName: row.createUserName,
    createTime: iso(row.createTime),
    updateTime: iso(row.updateTime),
    editable: mayEditBoard(caller, row),
  };
}

export function toChart(row: ChartRow): Chart {
  const name = (CHART_TYPES as readonly string[]).includes(row.name) ? (row.name as Chart['name']) : 'text';
  return {
    id: row.id,
    key: row.chartKey,
    name,
    title: row.title,
    dataconfig: parseDataConfig(row.dataconfig),
    option: parseJson(row.option, recordSchema, {}),
    modalSet: parseJson<Record<string, unknown> | null>(row.modalSet, recordSchema, null),
    site: parseJson(row.site, chartSiteSchema, chartSiteSchema.parse({})),
    ext: parseJson(row.ext, chartExtSchema, { filterList: [] }),
  };
}

export function toBoard(row: BoardRow, charts: readonly ChartRow[], caller: Caller): Board {
  return { ...toListItem(row, caller), content: parseContent(row.content), charts: charts.map(toChart) };
}

/** A chart of a save as its row values. */
export function chartValues(chart: ChartSaveParsed): ChartValues {
  return {
    chartKey: chart.key,
    name: chart.name,
    title: chart.title,
    dataconfig: chart.dataconfig ? JSON.stringify(chart.dataconfig) : null,
    option: JSON.stringify(chart.option),
    modalSet: chart.modalSet ? JSON.stringify(chart.modalSet) : null,
    site: JSON.stringify(chart.site),
    ext: JSON.stringify(chart.ext),
  };
}

/** A stored chart copied as row values (the copy of a board). */
export function copiedChartValues(row: ChartRow): ChartValues {
  const { chartKey, name, title, dataconfig, option, modalSet, site, ext } = row;
  return { chartKey, name, title, dataconfig, option, modalSet, site, ext };
}
