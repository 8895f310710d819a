import type { Chart, ChartLinkValue, ChartType, FilterFunction } from '@shutu/contracts';
import type { CubeCell } from '../../../shared/charts/format.ts';

/**
 * Linkage (联动) of a board, pure: which values the driving charts currently apply to the
 * charts they drive. A link lives on the DRIVEN chart (`ext.filterList`): `linkFrom` names the
 * driver, `linkKey` the driven chart's field. Drivers are filter controls (their chosen values
 * or date range) and charts whose clicks filter (bar, line, pie, summary and pivot tables: the
 * clicked row's first dimension value).
 */

type LinkValue = string | number | null;

/** What a driver applies: a filter function and its values. */
export interface Selection {
  function: FilterFunction;
  values: LinkValue[];
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

/** A click on a bar / point / slice / row: its first dimension value; a NULL value selects the empty rows. */
export function clickSelection(dimensionValues: readonly CubeCell[]): Selection | null {
  if (dimensionValues.length === 0) return null;
  const value = cell(dimensionValues[0]);
  return value === null ? { function: 'isnull', values: [null] } : { function: 'in', values: [value] };
}

const sameSelection = (a: Selection | null | undefined, b: Selection | null | undefined) =>
  !!a && !!b && a.function === b.function && a.values.length === b.values.length && a.values.every((v, i) => v === b.values[i]);

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

/** Keys of the charts that drive at least one other chart. */
export function driverKeys(charts: readonly Pick<Chart, 'key' | 'ext'>[]): Set<string> {
  const keys = new Set<string>();
  for (const chart of charts) for (const link of activeLinks(chart)) keys.add(link.linkFrom);
  return keys;
}

/** The board has linked charts (清除联动 is offered). */
export function hasLinkage(charts: readonly Pick<Chart, 'key' | 'ext'>[]): boolean {
  return driverKeys(charts).size > 0;
}

/** What a driver applies to one link right now: the user's selection, else (beginFlag, defaults on) its default. */
function driverValue(state: LinkageState, link: Chart['ext']['filterList'][number], driver: Pick<Chart, 'name' | 'ext'> | undefined): Selection | null {
  if (link.linkFrom in state.selections) return state.selections[link.linkFrom] ?? null;
  return state.defaults && link.beginFlag ? defaultSelection(driver) : null;
}

/**
 * The `links` of every chart's chart-data request, by chart key (charts without any: an empty
 * list). One entry per active link whose driver currently applies a value.
 */
export function chartLinks(charts: readonly Pick<Chart, 'key' | 'name' | 'ext'>[], state: LinkageState): Record<string, ChartLinkValue[]> {
  const byKey = new Map(charts.map((c) => [c.key, c]));
  const result: Record<string, ChartLinkValue[]> = {};
  for (const chart of charts) {
    const links: ChartLinkValue[] = [];
    for (const link of activeLinks(chart)) {
      const value = driverValue(state, link, byKey.get(link.linkFrom));
      if (value) links.push({ fieldId: link.linkKey, function: value.function, values: [...value.values] });
    }
    result[chart.key] = links;
  }
  return result;
}

/** Some chart is filtered by a driver right now. */
export function anyLinkApplied(links: Record<string, ChartLinkValue[]>): boolean {
  return Object.values(links).some((l) => l.length > 0);
}
