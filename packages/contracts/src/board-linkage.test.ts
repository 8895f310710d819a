import { describe, expect, it } from 'vitest';
import type { Chart, ChartLink } from '@shutu/contracts';
import {
  anyLinkApplied,
  autoLinkOn,
  autoTargets,
  chartLinks,
  clearLinkage,
  clickSelection,
  driverKeys,
  filterSelection,
  hasLinkage,
  initialLinkage,
  select,
  toggleClick,
} from './board-linkage.ts';

type Mini = Pick<Chart, 'key' | 'name' | 'ext'>;
const link = (linkFrom: string, linkKey: number, extra: Partial<ChartLink> = {}): ChartLink => ({
  linkFrom,
  linkKey,
  linkSet: true,
  linkFlag: true,
  beginFlag: false,
  ...extra,
});
const chart = (key: string, name: Chart['name'], filterList: ChartLink[] = [], defaultValue: (string | number)[] | null = null): Mini => ({
  key,
  name,
  ext: { filterList, defaultValue },
});

// A province select drives the bar (field 11) and the pie (field 21, from its default at first
// load); a date range drives the bar's order date (12); the bar's clicks drive the table (31).
const province = chart('province', 'filterSelect', [], ['浙江', '江苏']);
const dates = chart('dates', 'filterDate', [], ['2024-01-01', '2024-03-31']);
const bar = chart('bar', 'bar', [link('province', 11), link('dates', 12, { beginFlag: true })]);
const pie = chart('pie', 'pie', [link('province', 21, { beginFlag: true })]);
const table = chart('table', 'table', [link('bar', 31), link('pie', 32, { linkFlag: false }), link('gone', 33, { linkSet: false })]);
const text = chart('text', 'text');
const board = [province, dates, bar, pie, table, text];

describe('selections of drivers', () => {
  it('a select is `in` its values, a date range `between` its two days, cleared is nothing', () => {
    expect(filterSelection('filterSelect', ['浙江', 3])).toEqual({ function: 'in', values: ['浙江', 3] });
    expect(filterSelection('filterDate', ['2024-01-01', '2024-01-31'])).toEqual({ function: 'between', values: ['2024-01-01', '2024-01-31'] });
    expect(filterSelection('filterDate', ['2024-01-01'])).toBeNull();
    expect(filterSelection('filterSelect', [])).toBeNull();
    expect(filterSelection('filterSelect', null)).toBeNull();
  });

  it('a click selects the first dimension value; an empty value selects the empty rows', () => {
    expect(clickSelection(['浙江', '线上'])).toEqual({ function: 'in', values: ['浙江'] });
    expect(clickSelection([2024])).toEqual({ function: 'in', values: [2024] });
    expect(clickSelection([null])).toEqual({ function: 'isnull', values: [null] });
    expect(clickSelection([])).toBeNull();
  });

  it('clicking the same value twice clears it; another value replaces it', () => {
    const once = toggleClick(initialLinkage, 'bar', clickSelection(['浙江']));
    expect(once.selections.bar).toEqual({ function: 'in', values: ['浙江'] });
    expect(toggleClick(once, 'bar', clickSelection(['浙江'])).selections.bar).toBeNull();
    expect(toggleClick(once, 'bar', clickSelection(['江苏'])).selections.bar).toEqual({ function: 'in', values: ['江苏'] });
  });
});

describe('links of driven charts', () => {
  it('knows the drivers (only configured, switched-on links count)', () => {
    expect([...driverKeys(board)].sort()).toEqual(['bar', 'dates', 'province']);
    expect(hasLinkage(board)).toBe(true);
    expect(hasLinkage([text, chart('t2', 'table', [link('pie', 1, { linkFlag: false })])])).toBe(false);
  });

  it('at first load only beginFlag links apply their driver default', () => {
    const links = chartLinks(board, initialLinkage);
    expect(links.bar).toEqual([{ fieldId: 12, function: 'between', values: ['2024-01-01', '2024-03-31'] }]);
    expect(links.pie).toEqual([{ fieldId: 21, function: 'in', values: ['浙江', '江苏'] }]);
    expect(links.table).toEqual([]);
    expect(links.province).toEqual([]);
    expect(links.text).toEqual([]);
    expect(anyLinkApplied(links)).toBe(true);
  });

  it('a chosen value applies to every link of that driver and replaces the default', () => {
    const state = select(initialLinkage, 'province', filterSelection('filterSelect', ['广东']));
    const links = chartLinks(board, state);
    expect(links.bar).toEqual([
      { fieldId: 11, function: 'in', values: ['广东'] },
      { fieldId: 12, function: 'between', values: ['2024-01-01', '2024-03-31'] },
    ]);
    expect(links.pie).toEqual([{ fieldId: 21, function: 'in', values: ['广东'] }]);
  });

  it('clearing a driver drops its default too', () => {
    const links = chartLinks(board, select(initialLinkage, 'province', null));
    expect(links.pie).toEqual([]);
  });

  it('a click on the bar filters the table, never the bar itself', () => {
    const selfLinked = chart('bar', 'bar', [link('bar', 11)]);
    const state = toggleClick(initialLinkage, 'bar', clickSelection(['浙江']));
    expect(chartLinks([selfLinked, table], state)).toEqual({ bar: [], table: [{ fieldId: 31, function: 'in', values: ['浙江'] }] });
    expect(driverKeys([selfLinked]).size).toBe(0);
  });

  it('links that are off or not set never apply', () => {
    const state = select(select(initialLinkage, 'pie', { function: 'in', values: ['A'] }), 'gone', { function: 'in', values: ['B'] });
    expect(chartLinks(board, state).table).toEqual([]);
  });

  it('清除联动 removes every selection and the defaults stay off', () => {
    const chosen = toggleClick(select(initialLinkage, 'province', filterSelection('filterSelect', ['广东'])), 'bar', clickSelection(['浙江']));
    expect(anyLinkApplied(chartLinks(board, chosen))).toBe(true);
    const state = clearLinkage();
    const links = chartLinks(board, state);
    expect(Object.values(links).every((l) => l.length === 0)).toBe(true);
    expect(anyLinkApplied(links)).toBe(false);
    // A new selection after clearing applies again.
    expect(chartLinks(board, select(state, 'province', filterSelection('filterSelect', ['上海']))).pie).toEqual([
      { fieldId: 21, function: 'in', values: ['上海'] },
    ]);
  });
});

describe('board-wide filters', () => {
  type Full = Pick<Chart, 'key' | 'name' | 'ext' | 'dataconfig'>;
  const on = (cubeId: number, fieldId: number) => ({
    cubeId,
    rowParamList: [{ fieldId }],
    columnParamList: [],
    indexParamList: [{ fieldId: 900 }],
    sortList: [],
  });
  const data = (key: string, name: Chart['name'], cubeId: number, ext: Partial<Chart['ext']> = {}): Full => ({
    key,
    name,
    dataconfig: on(cubeId, 1),
    ext: { filterList: [], ...ext },
  });
  // A province select (field 11 of dataset 1) over a board of charts on dataset 1 and dataset 2.
  const filter = (ext: Partial<Chart['ext']> = {}): Full => ({
    key: 'f',
    name: 'filterSelect',
    dataconfig: on(1, 11),
    ext: { filterList: [], autoLink: true, ...ext },
  });
  const chosen = select(initialLinkage, 'f', { function: 'in', values: ['浙江'] });
  const byProvince = (fieldId: number) => [{ fieldId, function: 'in', values: ['浙江'] }];

  it('applies to every chart of its dataset with no link set up, not to other datasets, filter controls or text', () => {
    const charts = [
      filter(),
      data('bar', 'bar', 1),
      data('card', 'card', 1),
      data('other', 'pie', 2),
      data('f2', 'filterSelect', 1),
      { key: 't', name: 'text' as const, dataconfig: null, ext: { filterList: [] } },
    ];
    const links = chartLinks(charts, chosen);
    expect(links.bar).toEqual(byProvince(11));
    expect(links.card).toEqual(byProvince(11));
    expect(links.other).toEqual([]);
    expect(links.f2).toEqual([]);
    expect(links.f).toEqual([]);
    expect(links.t).toEqual([]);
    // Nothing chosen yet: no filter; the filter counts as a driver (清除联动 is offered).
    expect(chartLinks(charts, initialLinkage).bar).toEqual([]);
    // The second select applies board-wide too (it has no hand links): both drive.
    expect(driverKeys(charts)).toEqual(new Set(['f', 'f2']));
  });

  it('a chart opted out in the filter settings is not filtered', () => {
    const charts = [filter({ autoLinkExclude: ['card'] }), data('bar', 'bar', 1), data('card', 'card', 1)];
    const links = chartLinks(charts, chosen);
    expect(links.bar).toEqual(byProvince(11));
    expect(links.card).toEqual([]);
  });

  it('a dataset with a mapped field is filtered on that field', () => {
    const charts = [filter({ autoLinkFields: { '2': 27 } }), data('bar', 'bar', 1), data('other', 'pie', 2)];
    expect(chartLinks(charts, chosen).other).toEqual(byProvince(27));
  });

  it('a hand-made link from the same filter decides instead (never twice, and off stays off)', () => {
    const charts = [
      filter(),
      data('bar', 'bar', 1, { filterList: [link('f', 15)] }),
      data('off', 'bar', 1, { filterList: [link('f', 11, { linkFlag: false })] }),
      data('plain', 'bar', 1),
    ];
    const links = chartLinks(charts, chosen);
    expect(links.bar).toEqual(byProvince(15));
    expect(links.off).toEqual([]);
    expect(links.plain).toEqual(byProvince(11));
  });

  it('applies the filter default value at first load, until 清除联动', () => {
    const charts = [filter({ defaultValue: ['江苏'] }), data('bar', 'bar', 1)];
    expect(chartLinks(charts, initialLinkage).bar).toEqual([{ fieldId: 11, function: 'in', values: ['江苏'] }]);
    expect(chartLinks(charts, clearLinkage()).bar).toEqual([]);
  });

  it('boards saved before the setting: a filter wired by hand keeps only its links; an unwired one applies board-wide', () => {
    const legacy = filter({ autoLink: null });
    const wired = [legacy, data('bar', 'bar', 1, { filterList: [link('f', 11)] }), data('pie', 'pie', 1)];
    expect(chartLinks(wired, chosen).pie).toEqual([]);
    expect(chartLinks(wired, chosen).bar).toEqual(byProvince(11));
    const unwired = [legacy, data('pie', 'pie', 1)];
    expect(chartLinks(unwired, chosen).pie).toEqual(byProvince(11));
    // Switched off explicitly: nothing by default.
    expect(chartLinks([filter({ autoLink: false }), data('pie', 'pie', 1)], chosen).pie).toEqual([]);
  });

  it('lists the charts a filter can apply to, with opt-outs and hand links marked', () => {
    const charts = [filter({ autoLinkExclude: ['pie'] }), data('bar', 'bar', 1, { filterList: [link('f', 11)] }), data('pie', 'pie', 1), data('x', 'bar', 3)];
    expect(autoTargets(charts[0]!, charts).map((t) => [t.chart.key, t.fieldId, t.excluded, t.handLinked])).toEqual([
      ['bar', 11, false, true],
      ['pie', 11, true, false],
    ]);
    expect(autoLinkOn(filter({ autoLink: null }), charts)).toBe(false);
  });
});

describe('clicks on time buckets and on several dimensions', () => {
  type Full = Pick<Chart, 'key' | 'name' | 'ext' | 'dataconfig'>;
  const month = { fieldId: 5, granularity: 'MONTH' as const };
  const province = { fieldId: 1, granularity: null };
  const dataset = (cubeId: number): Chart['dataconfig'] => ({
    cubeId,
    rowParamList: [],
    columnParamList: [],
    indexParamList: [],
    sortList: [],
  });
  const full = (key: string, name: Chart['name'], cubeId: number, filterList: ChartLink[] = []): Full => ({
    key,
    name,
    dataconfig: dataset(cubeId),
    ext: { filterList, defaultValue: null },
  });

  it('a click on a month point selects the month, a click on a day the day (not the instant of midnight)', () => {
    expect(clickSelection(['2026-09-01T00:00:00'], [month])).toEqual({ function: 'in', values: ['2026-09-01T00:00:00'], granularity: 'MONTH' });
    expect(clickSelection(['2026-09-22T00:00:00'], [{ fieldId: 5, granularity: 'DAY' }])).toEqual({
      function: 'in',
      values: ['2026-09-22T00:00:00'],
      granularity: 'DAY',
    });
    // An ungrouped value stays the value; an empty bucket selects the empty rows.
    expect(clickSelection(['2026-09-22T16:25:59'], [{ fieldId: 5, granularity: null }])).toEqual({ function: 'in', values: ['2026-09-22T16:25:59'] });
    expect(clickSelection([null], [month])).toEqual({ function: 'isnull', values: [null] });
  });

  it('a click on a point of two dimensions carries both: the second on its own field', () => {
    expect(clickSelection(['2026-09-01T00:00:00', '浙江'], [month, province])).toEqual({
      function: 'in',
      values: ['2026-09-01T00:00:00'],
      granularity: 'MONTH',
      also: [{ fieldId: 1, function: 'in', values: ['浙江'] }],
    });
    expect(clickSelection(['浙江', null], [province, { fieldId: 2, granularity: null }])?.also).toEqual([{ fieldId: 2, function: 'isnull', values: [null] }]);
  });

  it('the driven chart of the same dataset gets both conditions; one of another dataset only its linked field', () => {
    const line = full('line', 'line', 7);
    const sameCube = full('same', 'table', 7, [link('line', 5)]);
    const otherCube = full('other', 'table', 8, [link('line', 85)]);
    const charts = [line, sameCube, otherCube];
    const state = toggleClick(initialLinkage, 'line', clickSelection(['2026-09-01T00:00:00', '浙江'], [month, province]));
    const links = chartLinks(charts, state);
    expect(links.same).toEqual([
      { fieldId: 5, function: 'in', values: ['2026-09-01T00:00:00'], granularity: 'MONTH' },
      { fieldId: 1, function: 'in', values: ['浙江'] },
    ]);
    expect(links.other).toEqual([{ fieldId: 85, function: 'in', values: ['2026-09-01T00:00:00'], granularity: 'MONTH' }]);
    expect(links.line).toEqual([]);
  });

  it('clicking the same point again clears it; the same month of another province replaces it', () => {
    const click = (p: string) => clickSelection(['2026-09-01T00:00:00', p], [month, province]);
    const once = toggleClick(initialLinkage, 'line', click('浙江'));
    expect(toggleClick(once, 'line', click('浙江')).selections.line).toBeNull();
    expect(toggleClick(once, 'line', click('江苏')).selections.line?.also).toEqual([{ fieldId: 1, function: 'in', values: ['江苏'] }]);
  });
});
