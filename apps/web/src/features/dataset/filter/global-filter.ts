import { datasetMessages, formatMessage } from '@shutu/contracts';
import type { FilterField, FilterItem, FilterParam, FilterTree } from './types.ts';

/** The items of a tree, top level first, then each nested group's, in order. */
function items(tree: FilterTree): FilterItem[] {
  return [...tree.conditions, ...tree.filters.flatMap((g) => g.conditions)];
}

/** The title a message names an item by: its field's title, else the column it was saved with. */
function titleOf(item: FilterItem, fields: readonly FilterField[]): string {
  const field = fields.find((f) => String(f.id) === String(item.cubeColumnId));
  return field?.title ?? item.column ?? String(item.cubeColumnId);
}

/**
 * What keeps the global filter from being confirmed (spec 2 §5 "Permission filter and global
 * filter"), or null: a condition that uses a global parameter without choosing one gives
 * 过滤条件【{title}】未设置全局参数. When `params` (the parameters known to exist) is given, a
 * key among none of them gives 过滤条件【{title}】使用的全局参数【{key}】不存在.
 */
export function globalFilterProblem(tree: FilterTree | null, fields: readonly FilterField[], params?: readonly FilterParam[]): string | null {
  if (!tree) return null;
  for (const item of items(tree)) {
    for (const c of item.conditions) {
      if (!c.useParam) continue;
      const key = c.paramKey?.trim();
      if (!key) return formatMessage(datasetMessages.globalParamMissing, { title: titleOf(item, fields) });
      if (params && !params.some((p) => p.paramKey === key)) {
        return formatMessage(datasetMessages.globalParamUnknown, { title: titleOf(item, fields), key });
      }
    }
  }
  return null;
}

/**
 * The tree as saved: items without conditions and nested groups left empty are dropped; a
 * tree with nothing left is null (the dataset then has no global filter).
 */
export function normalizeGlobalFilter(tree: FilterTree | null): FilterTree | null {
  if (!tree) return null;
  const keep = (list: readonly FilterItem[]) => list.filter((item) => item.conditions.length > 0);
  const conditions = keep(tree.conditions);
  const filters = tree.filters.map((g) => ({ ...g, conditions: keep(g.conditions) })).filter((g) => g.conditions.length > 0);
  if (conditions.length === 0 && filters.length === 0) return null;
  return { ...tree, conditions, filters };
}

/** True when the tree holds no condition at all. */
export function isEmptyFilter(tree: FilterTree | null): boolean {
  return normalizeGlobalFilter(tree) === null;
}
