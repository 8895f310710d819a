import type { CubePermFilter, FilterFunction, TimeUnit } from '@shutu/contracts';

type Tree = CubePermFilter['filterJson'];
type Item = Tree['conditions'][number];
type Condition = Item['conditions'][number];

export const FUNCTION_LABELS: Record<FilterFunction, string> = {
  eq: '等于',
  in: '属于',
  notIn: '不属于',
  indexIn: '包含任一',
  isnull: '为空',
  notnull: '不为空',
  between: '介于',
  gt: '大于',
  ge: '大于等于',
  lt: '小于',
  le: '小于等于',
  like: '包含',
};

const UNIT_LABELS: Record<TimeUnit, string> = { YEAR: '年', QUARTER: '季度', MONTH: '月', WEEK: '周', DAY: '天', HOUR: '小时' };
const RELATION = { AND: '且', OR: '或', and: '且', or: '或' } as const;

const valueText = (v: string | number | null) => (v === null ? '空' : `“${v}”`);

function conditionText(title: string, c: Condition, itemUnit: TimeUnit | null | undefined): string {
  const fn = FUNCTION_LABELS[c.function];
  if (c.function === 'isnull' || c.function === 'notnull') return `${title} ${fn}`;
  if (c.timeType === 'relative') {
    const unit = UNIT_LABELS[c.dateType ?? itemUnit ?? 'DAY'];
    const n = c.values.map((v) => v ?? 0).join(' ~ ');
    return `${title} ${fn} ${c.countType === 'left' ? '前' : '后'} ${n} ${unit}`;
  }
  if (c.function === 'between') return `${title} ${fn} ${c.values.map(valueText).join(' 与 ')}`;
  if (c.values.length > 1) return `${title} ${fn} [${c.values.map(valueText).join('、')}]`;
  return `${title} ${fn} ${c.values.map(valueText).join('')}`;
}

/** One filter item: its conditions joined by the item's connectType. */
export function itemText(item: Item, titles: ReadonlyMap<string, string>): string {
  const title = titles.get(String(item.cubeColumnId)) ?? item.column ?? `字段${item.cubeColumnId}`;
  const parts = item.conditions.map((c) => conditionText(`【${title}】`, c, item.dateType));
  return parts.length > 1 ? `(${parts.join(` ${RELATION[item.connectType]} `)})` : (parts[0] ?? '');
}

/**
 * A filter tree as readable lines: the root's items and nested groups, each group in
 * brackets, joined by the root relation. An empty tree reads as no restriction (null).
 */
export function filterText(tree: Tree, titles: ReadonlyMap<string, string>): string | null {
  const parts = [
    ...tree.conditions.map((i) => itemText(i, titles)),
    ...tree.filters
      .filter((g) => g.conditions.length > 0)
      .map((g) => {
        const inner = g.conditions.map((i) => itemText(i, titles)).join(` ${RELATION[g.relation]} `);
        return g.conditions.length > 1 ? `(${inner})` : inner;
      }),
  ];
  if (parts.length === 0) return null;
  return parts.join(` ${RELATION[tree.relation]} `);
}

/** Titles of the excluded column ids ("1,5"), unknown ids as they are. */
export function excludedTitles(excludeColumnIds: string, titles: ReadonlyMap<string, string>): string[] {
  return excludeColumnIds
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((id) => titles.get(id) ?? `字段${id}`);
}
