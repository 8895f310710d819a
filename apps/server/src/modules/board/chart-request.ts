import {
  boardMessages,
  CHART_MAX_ROWS,
  formatMessage,
  type AggregationType,
  type ChartDataConfigParsed,
  type ChartDataRequestParsed,
  type CubeQueryRequest,
  type FieldId,
  type FilterGroup,
  type GlobalParamValues,
  type ViewDataType,
} from '@shutu/contracts';
import { badRequest } from '../../platform/http/errors.ts';
import { keyOf, resolveParams, treeFieldKeys } from '../dataset/index.ts';

/**
 * A chart's dataconfig, mode and the driving charts' link values → the query engine's cube
 * request (pure). Rules (spec 1 §3 "Chart", board.ts):
 *
 * - aggregate: rowParamList + columnParamList are the dimensions (with their granularity),
 *   indexParamList the measures (aggregation: the chosen one, else the field's default; a
 *   computed field that aggregates by itself takes none); limit: dataconfig.limit, else
 *   CHART_MAX_ROWS.
 * - detail: raw rows of the row dimensions and the measures' fields (computed fields that
 *   aggregate cannot be raw columns and are left out), paged by current / size (size: the
 *   request's, else dataconfig.pageSize, else 20), with the total.
 * - values: the distinct values of the first row dimension, sorted, at most 1000 (filter
 *   controls' options).
 *
 * The chart's filter is the WHERE tree; each link with values adds a condition ANDed to it
 * (a link without values is ignored; a link with a granularity filters whole time buckets).
 * Every field read must be one of the dataset's.
 *
 * A time axis is ordered by time: an aggregated chart that names no sort is sorted by its
 * DATETIME dimensions ascending (the dataset's saved order follows for the other fields).
 */

/** Options a filter control lists at most. */
export const CHART_VALUES_LIMIT = 1000;
/** Rows per page of a detail table when neither the request nor the chart says. */
export const CHART_DETAIL_PAGE_SIZE = 20;

/** What the builder needs to know of a dataset field. */
export interface ChartFieldInfo {
  aggregationType: AggregationType;
  /** A computed field whose formula aggregates: it is a measure as it is. */
  selfAggregating: boolean;
  /** DATETIME dimensions are time axes: ordered by time unless the chart names a sort. */
  viewDataType?: ViewDataType;
}

export interface ChartRequestInput {
  title: string;
  dataconfig: ChartDataConfigParsed;
  mode: ChartDataRequestParsed['mode'];
  links: ChartDataRequestParsed['links'];
  current: number;
  size: number | null | undefined;
  params?: GlobalParamValues;
}

interface Sort {
  fieldId: FieldId;
  aggregation?: AggregationType | null;
  direction: 'ASC' | 'DESC';
}
type LinkValue = ChartDataRequestParsed['links'][number];
type FilterItem = NonNullable<FilterGroup['conditions']>[number];
type LeafGroup = NonNullable<FilterGroup['filters']>[number];

/** Every field key the chart reads: its dimensions, measures, sort, filter and link fields. */
export function chartFieldKeys(dataconfig: ChartDataConfigParsed, links: readonly LinkValue[] = []): string[] {
  return [
    ...new Set([
      ...dataconfig.rowParamList.map((d) => keyOf(d.fieldId)),
      ...dataconfig.columnParamList.map((d) => keyOf(d.fieldId)),
      ...dataconfig.indexParamList.map((m) => keyOf(m.fieldId)),
      ...dataconfig.sortList.map((s) => keyOf(s.fieldId)),
      ...treeFieldKeys(dataconfig.filter),
      ...links.map((l) => keyOf(l.fieldId)),
    ]),
  ];
}

/** 400 图表【title】使用的字段【id】不在数据集中 for the first field the dataset does not have. */
export function assertChartFields(title: string, keys: readonly string[], fields: ReadonlyMap<string, ChartFieldInfo>): void {
  const unknown = keys.find((key) => !fields.has(key));
  if (unknown !== undefined) throw badRequest(formatMessage(boardMessages.chartFieldUnknown, { title, id: unknown }));
}

/** A sort entry as the engine matches it: a computed field that aggregates has no aggregation. */
export function normaliseSort(sort: readonly Sort[], fields: ReadonlyMap<string, ChartFieldInfo>, detail: boolean): Required<Sort>[] {
  return sort.map((s) => ({
    fieldId: s.fieldId,
    aggregation: detail || fields.get(keyOf(s.fieldId))?.selfAggregating ? null : (s.aggregation ?? null),
    direction: s.direction,
  }));
}

/**
 * The cube request of a chart. `sort` is empty when the chart names none (and the mode does
 * not impose one): the caller may fill in the dataset's saved order.
 */
export function buildChartRequest(input: ChartRequestInput, fields: ReadonlyMap<string, ChartFieldInfo>): CubeQueryRequest {
  const { dataconfig, mode, title } = input;
  assertChartFields(title, chartFieldKeys(dataconfig, input.links), fields);
  const info = (id: number) => fields.get(keyOf(id))!;
  const dimension = (d: ChartDataConfigParsed['rowParamList'][number]) => ({ fieldId: d.fieldId, granularity: d.granularity ?? null });
  const where = chartWhere(dataconfig.filter ? resolveParams(dataconfig.filter, input.params ?? {}) : null, linkItems(input.links));
  const needsFields = () => badRequest(formatMessage(boardMessages.chartNeedsFields, { title }));

  if (mode === 'values') {
    const first = dataconfig.rowParamList[0];
    if (!first) throw needsFields();
    return {
      dimensions: [dimension(first)],
      measures: [],
      detail: false,
      where,
      sort: [{ fieldId: first.fieldId, direction: 'ASC' }],
      limit: CHART_VALUES_LIMIT,
      withTotal: false,
    };
  }

  if (mode === 'detail') {
    const rows = dataconfig.rowParamList.map(dimension);
    const raw = new Set(rows.filter((d) => !d.granularity).map((d) => keyOf(d.fieldId)));
    const extra: { fieldId: number; granularity: null }[] = [];
    for (const m of dataconfig.indexParamList) {
      const key = keyOf(m.fieldId);
      if (raw.has(key) || info(m.fieldId).selfAggregating) continue;
      raw.add(key);
      extra.push({ fieldId: m.fieldId, granularity: null });
    }
    const dimensions = [...rows, ...extra];
    if (dimensions.length === 0) throw needsFields();
    const size = input.size ?? dataconfig.pageSize ?? CHART_DETAIL_PAGE_SIZE;
    const current = Math.max(1, input.current);
    return {
      dimensions,
      measures: [],
      detail: true,
      where,
      sort: normaliseSort(dataconfig.sortList, fields, true),
      limit: size,
      offset: (current - 1) * size,
      withTotal: true,
    };
  }

  const dimensions = [...dataconfig.rowParamList, ...dataconfig.columnParamList].map(dimension);
  const measures = dataconfig.indexParamList.map((m) => {
    const field = info(m.fieldId);
    return { fieldId: m.fieldId, aggregation: field.selfAggregating ? null : (m.aggregation ?? field.aggregationType) };
  });
  if (dimensions.length === 0 && measures.length === 0) throw needsFields();
  return {
    dimensions,
    measures,
    detail: false,
    where,
    sort: dataconfig.sortList.length > 0 ? normaliseSort(dataconfig.sortList, fields, false) : timeOrder(dimensions, fields),
    limit: dataconfig.limit ?? CHART_MAX_ROWS,
    withTotal: false,
  };
}

/** Each DATETIME dimension ascending, once, in dimension order. */
export function timeOrder(dimensions: readonly { fieldId: FieldId }[], fields: ReadonlyMap<string, ChartFieldInfo>): Required<Sort>[] {
  const keys = [...new Set(dimensions.map((d) => keyOf(d.fieldId)))];
  return keys
    .filter((key) => fields.get(key)?.viewDataType === 'DATETIME')
    .map((key) => ({ fieldId: dimensions.find((d) => keyOf(d.fieldId) === key)!.fieldId, aggregation: null, direction: 'ASC' }));
}

/** One condition per link that carries values; a clicked time bucket keeps its granularity. */
export function linkItems(links: readonly LinkValue[]): FilterItem[] {
  return links
    .filter((l) => l.values.length > 0)
    .map((l) => ({
      cubeColumnId: l.fieldId,
      connectType: 'and' as const,
      conditions: [{ function: l.function, values: [...l.values], ...(l.granularity ? { granularity: l.granularity } : {}) }],
    }));
}

const upper = (relation: FilterGroup['relation']): 'AND' | 'OR' => (String(relation ?? 'AND').toUpperCase() === 'OR' ? 'OR' : 'AND');

/**
 * The chart's tree AND the extra items, within the engine's two levels: an AND root takes
 * them beside its own items; an OR root without groups becomes a group under an AND root; an
 * OR root with groups is distributed — (a OR b OR (c AND d)) AND L = (a AND L) OR (b AND L)
 * OR (c AND d AND L) — so that every condition still goes through the engine's checks.
 */
export function chartWhere(tree: FilterGroup | null | undefined, extra: readonly FilterItem[]): FilterGroup | null {
  const conditions = tree?.conditions ?? [];
  const groups = (tree?.filters ?? []).filter((g) => (g.conditions ?? []).length > 0);
  const own = tree && (conditions.length > 0 || groups.length > 0) ? tree : null;
  if (extra.length === 0) return own;
  if (!own) return { relation: 'AND', conditions: [...extra], filters: [] };
  if (upper(own.relation) === 'AND') return { relation: 'AND', conditions: [...conditions, ...extra], filters: groups };
  if (groups.length === 0) return { relation: 'AND', conditions: [...extra], filters: [{ relation: 'OR', conditions: [...conditions] }] };
  const disjuncts: LeafGroup[] = [
    ...conditions.map((c) => ({ relation: 'AND' as const, conditions: [c, ...extra] })),
    ...groups.flatMap((g): LeafGroup[] =>
      upper(g.relation) === 'AND'
        ? [{ relation: 'AND', conditions: [...(g.conditions ?? []), ...extra] }]
        : (g.conditions ?? []).map((c) => ({ relation: 'AND', conditions: [c, ...extra] })),
    ),
  ];
  return { relation: 'OR', conditions: [], filters: disjuncts };
}
