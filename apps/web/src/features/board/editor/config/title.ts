import { CHART_TYPE_LABELS, type Chart, type DatasetField } from '@shutu/contracts';

/**
 * Default chart titles: the chart's fields, dimensions then measures, joined with ' · '
 * (省份 · 当月流量), instead of the chart type. A title counts as the user's own once typed;
 * an automatic one follows the fields as they change.
 */

export const TITLE_SEPARATOR = ' · ';
/** chartSaveSchema's title limit. */
const CHART_TITLE_MAX = 100;
const TYPE_LABELS = new Set<string>(Object.values(CHART_TYPE_LABELS));

type Fields = readonly Pick<DatasetField, 'id' | 'columnTitle'>[];

/** The title the chart's fields give (each item's own name, else its dataset field's title); the type's label when it has none. */
export function autoTitle(chart: Pick<Chart, 'name' | 'dataconfig'>, fields: Fields): string {
  const config = chart.dataconfig;
  const items = config ? [...config.rowParamList, ...config.columnParamList, ...config.indexParamList] : [];
  const names: string[] = [];
  for (const item of items) {
    const name = item.title?.trim() || fields.find((f) => f.id === item.fieldId)?.columnTitle;
    // 求和 and 平均 of one field are two measures but one name in a title.
    if (name && !names.includes(name)) names.push(name);
  }
  if (names.length === 0) return CHART_TYPE_LABELS[chart.name];
  const title = names.join(TITLE_SEPARATOR);
  return title.length > CHART_TITLE_MAX ? `${title.slice(0, CHART_TITLE_MAX - 1)}…` : title;
}

/** The title was not typed by the user: empty, a chart type's label (a new chart), or what the fields give. */
export function isAutoTitle(chart: Pick<Chart, 'name' | 'title' | 'dataconfig'>, fields: Fields): boolean {
  const title = chart.title.trim();
  return title === '' || TYPE_LABELS.has(title) || title === autoTitle(chart, fields);
}

/**
 * `next` (an edit of `before`) with its title following its fields, when `before`'s title was
 * automatic and the edit did not touch the title. A user-typed title is never changed.
 * `fields` are those of dataset `cubeId` (the one the panel shows); after a change of dataset
 * the field lists are empty anyway.
 */
export function withAutoTitle(before: Chart, next: Chart, fields: Fields | undefined, cubeId: number | null): Chart {
  if (!fields || next.title !== before.title || !isAutoTitle(before, fields)) return next;
  const title = autoTitle(next, next.dataconfig?.cubeId === cubeId ? fields : []);
  return title === next.title ? next : { ...next, title };
}
