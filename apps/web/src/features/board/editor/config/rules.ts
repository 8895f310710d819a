import type { AggregationType, Chart, ChartType, DatasetField, TimeUnit } from '@shutu/contracts';
import { CHART_MAX_ROWS, CHART_TYPE_LABELS, FILTER_CHART_TYPES, STATIC_CHART_TYPES } from '@shutu/contracts';
import { AGGREGATION_ORDER, cm } from './messages.ts';

/**
 * The pure rules of the chart configuration panel: which field lists a chart type uses and
 * how many items each takes, adding / moving / removing / renaming items, and links. Every
 * function returns a new chart (or config) and never changes its input.
 */

export type DataConfig = NonNullable<Chart['dataconfig']>;
export type Dimension = DataConfig['rowParamList'][number];
export type Measure = DataConfig['indexParamList'][number];
export type SortItem = DataConfig['sortList'][number];
export type Link = Chart['ext']['filterList'][number];

/** The three field lists of a dataconfig. Detail tables keep all their columns in `rows`. */
export type SlotKey = 'rows' | 'columns' | 'measures';

export interface SlotRule {
  label: string;
  max: number;
  /** Only DATETIME fields (date filter). */
  dateOnly?: boolean;
  /** Measures: items carry an aggregation; otherwise dimensions (granularity for dates). */
  measure?: boolean;
}

export interface ChartRules {
  slots: Partial<Record<SlotKey, SlotRule>>;
  hint: string;
}

const ANY = 20;
const MEASURES = 50;

/** The field lists each chart type uses (spec 1 §3 "Chart"; decisions in docs/board-chart-config.md). */
export function rulesOf(type: ChartType): ChartRules {
  switch (type) {
    case 'bar':
    case 'line':
      return {
        slots: {
          rows: { label: cm.slotRows, max: ANY },
          columns: { label: cm.slotSeries, max: 1 },
          measures: { label: cm.slotMeasures, max: MEASURES, measure: true },
        },
        hint: '维度作为横轴；可选 1 个列维度拆分系列；至少 1 个指标',
      };
    case 'pie':
      return {
        slots: { rows: { label: cm.slotRows, max: 1 }, measures: { label: cm.slotMeasures, max: 1, measure: true } },
        hint: '饼图：1 个维度 + 1 个指标',
      };
    case 'table':
      return {
        slots: { rows: { label: cm.slotRows, max: ANY }, measures: { label: cm.slotMeasures, max: MEASURES, measure: true } },
        hint: '汇总表：按维度分组汇总指标',
      };
    case 'pivot':
      return {
        slots: {
          rows: { label: cm.slotRows, max: ANY },
          columns: { label: cm.slotColumns, max: 10 },
          measures: { label: cm.slotMeasures, max: MEASURES, measure: true },
        },
        hint: '透视表：维度为行，列维度展开为列，至少 1 个指标',
      };
    case 'card':
      return { slots: { measures: { label: cm.slotMeasures, max: 10, measure: true } }, hint: '指标卡：只使用指标' };
    case 'detail':
      return { slots: { rows: { label: cm.slotDetail, max: ANY } }, hint: '明细表：维度和指标都作为普通列，按行展示明细' };
    case 'filterSelect':
      return { slots: { rows: { label: cm.slotRows, max: 1 } }, hint: '下拉筛选：恰好 1 个维度，列出它的取值' };
    case 'filterDate':
      return { slots: { rows: { label: cm.slotRows, max: 1, dateOnly: true } }, hint: '日期筛选：恰好 1 个日期类型的维度' };
    default:
      return { slots: {}, hint: '' };
  }
}

export const isStatic = (type: ChartType) => STATIC_CHART_TYPES.includes(type);
export const isFilterControl = (type: ChartType) => FILTER_CHART_TYPES.includes(type);
/** Charts whose clicked bar / point / slice / row filters the charts linked to them. */
export const CLICK_DRIVER_TYPES: readonly ChartType[] = ['bar', 'line', 'pie', 'table'];
export const canDrive = (type: ChartType) => isFilterControl(type) || CLICK_DRIVER_TYPES.includes(type);

export const emptyConfig = (cubeId: number): DataConfig => ({
  cubeId,
  rowParamList: [],
  columnParamList: [],
  indexParamList: [],
  filter: null,
  sortList: [],
  limit: null,
  pageSize: null,
});

/** The chart's dataconfig, or an empty one on `defaultCubeId` (a new chart starts from the editor's dataset), or null. */
export function configOf(chart: Chart, defaultCubeId?: number | null): DataConfig | null {
  if (chart.dataconfig) return chart.dataconfig;
  return defaultCubeId ? emptyConfig(defaultCubeId) : null;
}

const LIST: Record<SlotKey, 'rowParamList' | 'columnParamList' | 'indexParamList'> = {
  rows: 'rowParamList',
  columns: 'columnParamList',
  measures: 'indexParamList',
};

export function itemsOf(config: DataConfig | null, slot: SlotKey): (Dimension | Measure)[] {
  return config ? config[LIST[slot]] : [];
}

/** Is the field a measure (指标) by its role in the dataset. */
export const isMeasureField = (f: Pick<DatasetField, 'dimensionType'>) => f.dimensionType === 'ZHIBIAO';
/** A computed field whose formula aggregates: it takes no aggregation of its own. */
export const isSelfAggregating = (f: Pick<DatasetField, 'virtualAggregationStatus'>) => f.virtualAggregationStatus === 1;

/** The aggregations a field allows: sums and averages need numbers. */
export function aggregationsFor(field: Pick<DatasetField, 'viewDataType'> | undefined): AggregationType[] {
  if (!field || field.viewDataType === 'NUMBER') return [...AGGREGATION_ORDER];
  return AGGREGATION_ORDER.filter((a) => a !== 'SUM' && a !== 'AVG');
}

/** A new measure's aggregation: the field's own when it allows it, else 计数. */
export function defaultAggregation(field: DatasetField): AggregationType | null {
  if (isSelfAggregating(field)) return null;
  return aggregationsFor(field).includes(field.aggregationType) ? field.aggregationType : 'COUNT';
}

/** Where a click on a field adds it by default: measures to 指标, dimensions to 维度 (if the type has them). */
export function defaultSlot(type: ChartType, field: DatasetField): SlotKey | null {
  const { slots } = rulesOf(type);
  if (isMeasureField(field) && slots.measures) return 'measures';
  if (slots.rows) return 'rows';
  return slots.measures ? 'measures' : null;
}

/** A field list's name where the type does not use it. */
const SLOT_NAMES: Record<SlotKey, string> = { rows: cm.slotRows, columns: cm.slotColumns, measures: cm.slotMeasures };

export type AddResult = { ok: true; config: DataConfig } | { ok: false; reason: string };

/** Adds `field` to `slot`, or says why not (the type's limit, a date-only slot, a dimension twice). */
export function addField(type: ChartType, config: DataConfig, slot: SlotKey, field: DatasetField): AddResult {
  const rule = rulesOf(type).slots[slot];
  const chartLabel = CHART_TYPE_LABELS[type];
  if (!rule) return { ok: false, reason: cm.refusedNone(chartLabel, SLOT_NAMES[slot]) };
  const list = config[LIST[slot]];
  if (list.length >= rule.max) return { ok: false, reason: cm.refusedMax(chartLabel, rule.label, rule.max) };
  if (rule.dateOnly && field.viewDataType !== 'DATETIME') return { ok: false, reason: cm.refusedDate };
  if (rule.measure) {
    const item: Measure = { fieldId: field.id, title: null, aggregation: defaultAggregation(field) };
    return { ok: true, config: { ...config, indexParamList: [...config.indexParamList, item] } };
  }
  if (list.some((d) => d.fieldId === field.id)) return { ok: false, reason: cm.refusedDuplicate(rule.label) };
  const item: Dimension = { fieldId: field.id, title: null, granularity: null };
  return { ok: true, config: { ...config, [LIST[slot]]: [...list, item] } };
}

/** Sorts that still name an item of the chart (removing an item drops its sort). */
function keepSorts(config: DataConfig): DataConfig {
  const names = new Set(sortChoices(config).map((c) => c.value));
  const sortList = config.sortList.filter((s) => names.has(sortValue(s)));
  return sortList.length === config.sortList.length ? config : { ...config, sortList };
}

export function removeItem(config: DataConfig, slot: SlotKey, index: number): DataConfig {
  const list = config[LIST[slot]].filter((_, i) => i !== index);
  return keepSorts({ ...config, [LIST[slot]]: list });
}

export function clearSlot(config: DataConfig, slot: SlotKey): DataConfig {
  return keepSorts({ ...config, [LIST[slot]]: [] });
}

/** Moves an item one place up (-1) or down (+1); out of range leaves the config as it is. */
export function moveItem(config: DataConfig, slot: SlotKey, index: number, by: -1 | 1): DataConfig {
  const list = [...config[LIST[slot]]];
  const to = index + by;
  if (to < 0 || to >= list.length) return config;
  [list[index], list[to]] = [list[to]!, list[index]!];
  return { ...config, [LIST[slot]]: list };
}

/** Changes one item (title, granularity or aggregation); an aggregation change carries its sort along. */
export function patchItem(config: DataConfig, slot: SlotKey, index: number, patch: Partial<Dimension & Measure>): DataConfig {
  const list = config[LIST[slot]];
  const before = list[index];
  if (!before) return config;
  const after = { ...before, ...patch };
  if (patch.title !== undefined) after.title = patch.title && patch.title.trim() !== '' ? patch.title : null;
  let next: DataConfig = { ...config, [LIST[slot]]: list.map((item, i) => (i === index ? after : item)) };
  if (slot === 'measures' && 'aggregation' in patch) {
    const was = (before as Measure).aggregation ?? null;
    next = {
      ...next,
      sortList: next.sortList.map((s) =>
        s.fieldId === before.fieldId && (s.aggregation ?? null) === was ? { ...s, aggregation: patch.aggregation ?? null } : s,
      ),
    };
  }
  return next;
}

export const setGranularity = (config: DataConfig, slot: SlotKey, index: number, granularity: TimeUnit | null) =>
  patchItem(config, slot, index, { granularity });
export const setAggregation = (config: DataConfig, index: number, aggregation: AggregationType | null) => patchItem(config, 'measures', index, { aggregation });

/** Items the type does not allow (after a type change, for instance): too many, or a list the type does not use. Missing items are the save check's. */
export function ruleProblems(type: ChartType, config: DataConfig | null): string[] {
  const { slots } = rulesOf(type);
  const problems: string[] = [];
  for (const key of ['rows', 'columns', 'measures'] as const) {
    const rule = slots[key];
    const count = itemsOf(config, key).length;
    if (!rule) {
      if (count > 0) problems.push(cm.refusedNone(CHART_TYPE_LABELS[type], SLOT_NAMES[key]));
      continue;
    }
    if (count > rule.max) problems.push(cm.tooMany(CHART_TYPE_LABELS[type], rule.label, rule.max));
  }
  return problems;
}

/** What a sort can name: the chart's dimensions, and its measures with their aggregation. */
export interface SortChoice {
  value: string;
  fieldId: number;
  aggregation: AggregationType | null;
}

export function sortChoices(config: DataConfig | null): SortChoice[] {
  if (!config) return [];
  const seen = new Set<string>();
  const out: SortChoice[] = [];
  const push = (fieldId: number, aggregation: AggregationType | null) => {
    const value = `${fieldId}:${aggregation ?? ''}`;
    if (seen.has(value)) return;
    seen.add(value);
    out.push({ value, fieldId, aggregation });
  };
  for (const d of [...config.rowParamList, ...config.columnParamList]) push(d.fieldId, null);
  for (const m of config.indexParamList) push(m.fieldId, m.aggregation ?? null);
  return out;
}

export const sortValue = (s: Pick<SortItem, 'fieldId' | 'aggregation'>) => `${s.fieldId}:${s.aggregation ?? ''}`;

/**
 * The limit as typed: '' is the default (null); a whole number 1..CHART_MAX_ROWS is kept;
 * anything else is an error message.
 */
export function parseLimit(text: string): { ok: true; value: number | null } | { ok: false; error: string } {
  const t = text.trim();
  if (t === '') return { ok: true, value: null };
  if (!/^\d+$/.test(t)) return { ok: false, error: cm.limitInvalid };
  const n = Number(t);
  if (n < 1 || n > CHART_MAX_ROWS) return { ok: false, error: cm.limitInvalid };
  return { ok: true, value: n };
}

/** The dataset changes: every field reference goes (lists, filter, sort, formats, links); the display options stay. */
export function changeDataset(chart: Chart, cubeId: number): Chart {
  const before = chart.dataconfig;
  const { formats: _formats, ...option } = chart.option;
  return {
    ...chart,
    dataconfig: { ...emptyConfig(cubeId), limit: before?.limit ?? null, pageSize: before?.pageSize ?? null },
    option,
    ext: { ...chart.ext, filterList: [], defaultValue: null },
  };
}

/** Does the chart reference any field (so changing its dataset loses work)? */
export function hasFieldWork(chart: Chart): boolean {
  const c = chart.dataconfig;
  if (chart.ext.filterList.length > 0) return true;
  if (!c) return false;
  return c.rowParamList.length + c.columnParamList.length + c.indexParamList.length + c.sortList.length > 0 || !!c.filter;
}

// ---------------------------------------------------------------------------------------
// Links (ext.filterList on the DRIVEN chart)

export const chartName = (chart: Pick<Chart, 'title' | 'key'>) => (chart.title.trim() !== '' ? chart.title : cm.untitled(chart.key));

/** Charts that may drive `chart`: the board's filter controls and clickable charts, itself and those already linked excepted. */
export function driverCandidates(chart: Chart, charts: readonly Chart[]): Chart[] {
  const linked = new Set(chart.ext.filterList.map((l) => l.linkFrom));
  return charts.filter((c) => c.key !== chart.key && canDrive(c.name) && !linked.has(c.key));
}

/** The dimension a driver's value comes from: a filter control's field, or a clicked chart's first row dimension. */
export function driverDimension(driver: Chart): Dimension | null {
  return driver.dataconfig?.rowParamList[0] ?? null;
}

/**
 * The field of the driven chart's dataset a driver's value most likely filters: the same
 * field when both read one dataset, else the field whose title is the driver's dimension title.
 */
export function suggestLinkKey(
  driver: Chart,
  drivenCubeId: number | null,
  drivenFields: readonly Pick<DatasetField, 'id' | 'columnTitle'>[],
  driverDimensionTitle: string | null,
): number | null {
  const dim = driverDimension(driver);
  if (!dim) return null;
  if (driver.dataconfig?.cubeId === drivenCubeId && drivenFields.some((f) => f.id === dim.fieldId)) return dim.fieldId;
  const titles = [dim.title, driverDimensionTitle].filter((t): t is string => !!t && t.trim() !== '');
  for (const title of titles) {
    const match = drivenFields.find((f) => f.columnTitle === title);
    if (match) return match.id;
  }
  return null;
}

export const newLink = (linkFrom: string, linkKey: number): Link => ({ linkFrom, linkKey, linkSet: true, linkFlag: true, beginFlag: false });

export function addLink(chart: Chart, link: Link): Chart {
  const rest = chart.ext.filterList.filter((l) => l.linkFrom !== link.linkFrom);
  return { ...chart, ext: { ...chart.ext, filterList: [...rest, link] } };
}

export function patchLink(chart: Chart, index: number, patch: Partial<Link>): Chart {
  return { ...chart, ext: { ...chart.ext, filterList: chart.ext.filterList.map((l, i) => (i === index ? { ...l, ...patch, linkSet: true } : l)) } };
}

export function removeLink(chart: Chart, index: number): Chart {
  return { ...chart, ext: { ...chart.ext, filterList: chart.ext.filterList.filter((_, i) => i !== index) } };
}

/** The charts `driver` drives (those whose filterList names it), with whether the link is on. */
export function drivenBy(driver: Chart, charts: readonly Chart[]): { chart: Chart; enabled: boolean }[] {
  return charts
    .filter((c) => c.key !== driver.key)
    .flatMap((c) => c.ext.filterList.filter((l) => l.linkFrom === driver.key).map((l) => ({ chart: c, enabled: l.linkFlag })));
}

// ---------------------------------------------------------------------------------------
// Chart patches

export const withConfig = (chart: Chart, dataconfig: DataConfig): Chart => ({ ...chart, dataconfig });

/** Sets option keys; `undefined` removes a key (the renderer then uses its default). */
export function withOption(chart: Chart, patch: Record<string, unknown>): Chart {
  const option = { ...chart.option };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete option[k];
    else option[k] = v;
  }
  return { ...chart, option };
}

export const withSite = (chart: Chart, patch: Partial<Chart['site']>): Chart => ({ ...chart, site: { ...chart.site, ...patch } });
export const withExt = (chart: Chart, patch: Partial<Chart['ext']>): Chart => ({ ...chart, ext: { ...chart.ext, ...patch } });

/** The number formats by field id (option.formats), read defensively. */
export function formatsOf(chart: Chart): Record<string, string> {
  const f = chart.option.formats;
  if (!f || typeof f !== 'object' || Array.isArray(f)) return {};
  return Object.fromEntries(Object.entries(f as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** Sets one field's format; AUTO (or empty) removes it, and an empty map removes option.formats. */
export function setFormat(chart: Chart, fieldId: number, format: string | null, auto: string): Chart {
  const formats = { ...formatsOf(chart) };
  if (!format || format === auto) delete formats[String(fieldId)];
  else formats[String(fieldId)] = format;
  return withOption(chart, { formats: Object.keys(formats).length > 0 ? formats : undefined });
}
