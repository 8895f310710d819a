import type { ChartDataBatchChart, ChartDataBatchChartInput } from './board-batch.ts';
import type { Board, Chart, ChartDataBody, ChartDataRequest, ChartDataResult, ChartLinkValue, ChartType } from './board.ts';
import type { FilterFunction, TimeUnit } from './cube.ts';

/**
 * Linkage (联动) of a board, pure, shared by the page and the server (which answers a board's
 * first data from the board alone: `boardFirstRequests`): which values the driving charts currently apply to the
 * charts they drive. A link lives on the DRIVEN chart (`ext.filterList`): `linkFrom` names the
 * driver, `linkKey` the driven chart's field. Drivers are filter controls (their chosen values
 * or date range) and charts whose clicks filter (bar, line, pie, summary and pivot tables: the
 * clicked row's first dimension value). Filter controls also apply board-wide by default
 * (`effectiveLinks`): to the charts of their dataset, with no link on those charts.
 */

type LinkValue = string | number | null;
/** One value of a chart's answer row, as a click reports it. */
type CubeCell = ChartDataResult['dataList'][number][string];

/** What a driver applies: a filter function and its values. */
export interface Selection {
  function: FilterFunction;
  values: LinkValue[];
  /** A click on a time-grouped point: the unit of its bucket (the link filters the whole bucket). */
  granularity?: TimeUnit;
  /**
   * A click on a chart of several dimensions: the further dimensions' values as conditions on
   * the driver's own fields; they apply to the driven charts of the driver's dataset.
   */
  also?: ChartLinkValue[];
}

/**
 * The user's selections by driver key (null: the user cleared that driver, so its default no
 * longer applies either) and whether the drivers' defaults (`beginFlag` links) still apply.
 */
export interface LinkageState {
  selections: Readonly<Record<string, Selection | null>>;
  defaults: boolean;
}

/** At first load: nothing chosen, defaults on. */
export const initialLinkage: LinkageState = { selections: {}, defaults: true };

/** Chart types whose clicks select a value (ChartView reports their clicked row dimensions). */
export const CLICK_DRIVER_TYPES: readonly ChartType[] = ['bar', 'line', 'pie', 'table', 'pivot'];

const cell = (v: CubeCell | undefined): LinkValue => (v === undefined || v === null ? null : typeof v === 'number' || typeof v === 'string' ? v : String(v));

/**
 * A filter control's value as a selection: a select's values → `in`; a date range [from, to]
 * (yyyy-MM-dd) → `between` (the engine reads each bound as a whole day, so both ends are
 * included). Empty (cleared) → null.
 */
export function filterSelection(type: ChartType, values: readonly (string | number)[] | null | undefined): Selection | null {
  if (!values || values.length === 0) return null;
  if (type === 'filterDate') return values.length >= 2 ? { function: 'between', values: [values[0]!, values[1]!] } : null;
  return { function: 'in', values: [...values] };
}

/** The field and grouping of a clicked dimension value (the chart data's fieldDict entry). */
export type ClickedField = Pick<ChartDataResult['fieldDict'][number], 'fieldId' | 'granularity'>;

/** One clicked value as a condition: `in` the value (its whole time bucket when grouped by time); NULL selects the empty rows. */
function clickedCondition(v: CubeCell | undefined, field: ClickedField | undefined): Selection {
  const value = cell(v);
  if (value === null) return { function: 'isnull', values: [null] };
  return field?.granularity ? { function: 'in', values: [value], granularity: field.granularity } : { function: 'in', values: [value] };
}

/**
 * A click on a bar / point / slice / row: its first dimension value drives the link (its
 * bucket when the chart groups that dimension by time: a month, a week …); with `fields`, each
 * further dimension value becomes a condition on its own field (`also`, docs/board-preview.md).
 */
export function clickSelection(dimensionValues: readonly CubeCell[], fields: readonly ClickedField[] = []): Selection | null {
  if (dimensionValues.length === 0) return null;
  const first = clickedCondition(dimensionValues[0], fields[0]);
  const also: ChartLinkValue[] = [];
  for (let i = 1; i < dimensionValues.length; i++) {
    const fieldId = Number(fields[i]?.fieldId);
    if (!Number.isSafeInteger(fieldId) || fieldId <= 0) continue;
    also.push({ fieldId, ...clickedCondition(dimensionValues[i], fields[i]) });
  }
  return also.length > 0 ? { ...first, also } : first;
}

/**
 * The link values a selection gives one link: the selection on the link's field, then (a
 * driven chart of the driver's dataset only) the further clicked dimensions on their own fields.
 */
export function selectionLinks(selection: Selection, linkKey: number, sameDataset: boolean): ChartLinkValue[] {
  const { also, ...own } = selection;
  return [{ fieldId: linkKey, ...own, values: [...own.values] }, ...(sameDataset && also ? also : [])];
}

// Selections are plain data (values, bucket, further dimensions): equal when their JSON is.
const sameSelection = (a: Selection | null | undefined, b: Selection | null | undefined) => !!a && !!b && JSON.stringify(a) === JSON.stringify(b);

/** A driver's new value (a filter control changed). */
export function select(state: LinkageState, driverKey: string, selection: Selection | null): LinkageState {
  return { ...state, selections: { ...state.selections, [driverKey]: selection } };
}

/** A click: selects the value, or clears it when the same value is clicked again. */
export function toggleClick(state: LinkageState, driverKey: string, selection: Selection | null): LinkageState {
  const current = state.selections[driverKey];
  return select(state, driverKey, sameSelection(current, selection) ? null : selection);
}

/**
 * 清除联动: every selection goes and the defaults stay off until the page is loaded again
 * (otherwise clearing would bring the default filters straight back).
 */
export function clearLinkage(): LinkageState {
  return { selections: {}, defaults: false };
}

/** The default a filter control applies at first load (its ext.defaultValue), or null. */
export function defaultSelection(driver: Pick<Chart, 'name' | 'ext'> | undefined): Selection | null {
  if (!driver || (driver.name !== 'filterSelect' && driver.name !== 'filterDate')) return null;
  return filterSelection(driver.name, driver.ext.defaultValue);
}

/** The links that are configured and on (linkSet && linkFlag), never from the chart itself. */
export function activeLinks(chart: Pick<Chart, 'key' | 'ext'>): Chart['ext']['filterList'] {
  return chart.ext.filterList.filter((l) => l.linkSet && l.linkFlag && l.linkFrom !== chart.key);
}

// ---------------------------------------------------------------------------------------
// Board-wide filters: a filter control applies by default to the charts of its dataset (and of
// the datasets it maps a field of), without a link on them (docs/board-preview.md).

/** A chart as linkage reads it (without dataconfig: reads no dataset, so no board-wide filter applies). */
type LinkChart = Pick<Chart, 'key' | 'name' | 'ext'> & Partial<Pick<Chart, 'dataconfig'>>;
type Link = Chart['ext']['filterList'][number];

const isFilterControl = (chart: Pick<Chart, 'name'>) => chart.name === 'filterSelect' || chart.name === 'filterDate';

/** Some chart of the board links to `filter` by hand (an entry of its ext.filterList, on or off). */
export function hasHandLinks(filter: Pick<Chart, 'key'>, charts: readonly Pick<Chart, 'key' | 'ext'>[]): boolean {
  return charts.some((c) => c.key !== filter.key && c.ext.filterList.some((l) => l.linkFrom === filter.key));
}

/**
 * The filter applies board-wide: its own `ext.autoLink`, or, on boards saved before the setting
 * existed, on unless it was wired by hand (those boards keep exactly the links they were given).
 */
export function autoLinkOn(filter: LinkChart, charts: readonly LinkChart[]): boolean {
  if (!isFilterControl(filter)) return false;
  return filter.ext.autoLink ?? !hasHandLinks(filter, charts);
}

/** A chart the filter can apply to by default, and the field of the chart's dataset it filters. */
export interface AutoTarget<C extends LinkChart = LinkChart> {
  chart: C;
  fieldId: number;
  /** Opted out in the filter's settings. */
  excluded: boolean;
  /** The chart has its own link from this filter, which decides instead (no double filtering). */
  handLinked: boolean;
}

/**
 * The data charts a filter can apply to (not filter controls, not the filter itself): those on
 * the filter's dataset (the filter's own field) and those on a dataset of `autoLinkFields` (the
 * mapped field). Nothing when the filter has no field yet.
 */
export function autoTargets<C extends LinkChart>(filter: LinkChart, charts: readonly C[]): AutoTarget<C>[] {
  const own = filter.dataconfig;
  const field = own?.rowParamList[0]?.fieldId;
  if (!own || field === undefined) return [];
  const excluded = new Set(filter.ext.autoLinkExclude ?? []);
  const mapped = filter.ext.autoLinkFields ?? {};
  const targets: AutoTarget<C>[] = [];
  for (const chart of charts) {
    const cubeId = chart.dataconfig?.cubeId;
    if (chart.key === filter.key || isFilterControl(chart) || cubeId === undefined) continue;
    const fieldId = cubeId === own.cubeId ? field : mapped[String(cubeId)];
    if (fieldId === undefined) continue;
    const handLinked = chart.ext.filterList.some((l) => l.linkFrom === filter.key);
    targets.push({ chart, fieldId, excluded: excluded.has(chart.key), handLinked });
  }
  return targets;
}

/**
 * Every link a chart receives now: its active hand-made links, then one link from each
 * board-wide filter that applies to it (not opted out, no hand link of its own from that
 * filter). A default link applies the filter's default value at first load, like `beginFlag`.
 */
export function effectiveLinks(chart: LinkChart, charts: readonly LinkChart[]): Link[] {
  const links = [...activeLinks(chart)];
  if (!chart.dataconfig || isFilterControl(chart)) return links;
  for (const filter of charts) {
    if (!autoLinkOn(filter, charts)) continue;
    const target = autoTargets(filter, [chart]).find((t) => !t.excluded && !t.handLinked);
    if (target) links.push({ linkFrom: filter.key, linkKey: target.fieldId, linkSet: true, linkFlag: true, beginFlag: true });
  }
  return links;
}

/** Keys of the charts that drive at least one other chart (by hand or board-wide). */
export function driverKeys(charts: readonly LinkChart[]): Set<string> {
  const keys = new Set<string>();
  for (const chart of charts) for (const link of effectiveLinks(chart, charts)) keys.add(link.linkFrom);
  return keys;
}

/** The board has linked charts (清除联动 is offered). */
export function hasLinkage(charts: readonly LinkChart[]): boolean {
  return driverKeys(charts).size > 0;
}

/** What a driver applies to one link right now: the user's selection, else (beginFlag, defaults on) its default. */
function driverValue(state: LinkageState, link: Link, driver: Pick<Chart, 'name' | 'ext'> | undefined): Selection | null {
  if (link.linkFrom in state.selections) return state.selections[link.linkFrom] ?? null;
  return state.defaults && link.beginFlag ? defaultSelection(driver) : null;
}

/**
 * The `links` of every chart's chart-data request, by chart key (charts without any: an empty
 * list). One entry per effective link (hand-made or board-wide) whose driver applies a value now.
 */
export function chartLinks(charts: readonly LinkChart[], state: LinkageState): Record<string, ChartLinkValue[]> {
  const byKey = new Map(charts.map((c) => [c.key, c]));
  const result: Record<string, ChartLinkValue[]> = {};
  for (const chart of charts) {
    const links: ChartLinkValue[] = [];
    for (const link of effectiveLinks(chart, charts)) {
      const value = driverValue(state, link, byKey.get(link.linkFrom));
      const driverCube = byKey.get(link.linkFrom)?.dataconfig?.cubeId;
      if (value) links.push(...selectionLinks(value, link.linkKey, driverCube !== undefined && driverCube === chart.dataconfig?.cubeId));
    }
    result[chart.key] = links;
  }
  return result;
}

/** Some chart is filtered by a driver right now. */
export function anyLinkApplied(links: Record<string, ChartLinkValue[]>): boolean {
  return Object.values(links).some((l) => l.length > 0);
}

// ---------------------------------------------------------------------------------------
// A board's first data: what its page asks for when it opens (nothing chosen, defaults on).

export type ChartDataMode = NonNullable<ChartDataRequest['mode']>;

/** What a chart type reads: null for charts that read nothing (text, image, date filter). */
export function chartDataMode(type: ChartType): ChartDataMode | null {
  switch (type) {
    case 'text':
    case 'image':
    case 'filterDate':
      return null;
    case 'detail':
      return 'detail';
    case 'filterSelect':
      return 'values';
    default:
      return 'aggregate';
  }
}

/** The server's default page of a detail table. */
export const DEFAULT_DETAIL_SIZE = 20;

/** The charts drawn in place (a dialog chart opens from the header). */
export function drawnCharts<C extends Pick<Chart, 'site'>>(board: { charts: readonly C[] }): C[] {
  return board.charts.filter((c) => !c.site.isDiglog);
}

/** A saved chart's chart-data request on a board (its links complete, as linkage computes them). */
export type BoardChartRequest = Omit<ChartDataBody, 'chartKey' | 'mode' | 'links'> & { chartKey: string; mode: ChartDataMode; links: ChartLinkValue[] };

/** The chart-data request of a saved chart on a board: null for charts that read nothing. */
export function boardChartRequest(
  boardId: number,
  chart: Pick<Chart, 'key' | 'name' | 'dataconfig'>,
  links: ChartLinkValue[],
  page?: { current: number; size: number },
): BoardChartRequest | null {
  const mode = chartDataMode(chart.name);
  if (!mode) return null;
  const detailPage = page ?? { current: 1, size: chart.dataconfig?.pageSize ?? DEFAULT_DETAIL_SIZE };
  return { boardId, chartKey: chart.key, mode, links, ...(mode === 'detail' ? detailPage : {}) };
}

/**
 * The requests of a board's first data: every chart drawn in place that reads data, with the
 * links its drivers' defaults apply at first load. The page's first batch and the server's
 * answer to a batch that names no charts (early.js asks for it before the app has run) are
 * both this list, so the answers land where the charts look for them.
 */
export function boardFirstRequests(board: Pick<Board, 'id'> & { charts: readonly Chart[] }): BoardChartRequest[] {
  const links = chartLinks(board.charts, initialLinkage);
  return drawnCharts(board).flatMap((c) => boardChartRequest(board.id, c, links[c.key] ?? []) ?? []);
}

/** A board chart's request as an entry of a batch call (POST chart-data/batch `charts`). */
export function batchChartOf(body: BoardChartRequest): ChartDataBatchChartInput {
  return { chartKey: body.chartKey, mode: body.mode, links: body.links, current: body.current ?? 1, size: body.size ?? null };
}

/** An entry of a batch call as the board chart's request (the inverse of batchChartOf). */
export function chartBodyOf(boardId: number, chart: ChartDataBatchChart): ChartDataBody {
  return { boardId, chartKey: chart.chartKey, mode: chart.mode, links: chart.links, current: chart.current, ...(chart.size ? { size: chart.size } : {}) };
}
