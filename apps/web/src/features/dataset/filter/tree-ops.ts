import { LIST_FILTER_FUNCTIONS, MAX_FILTER_DEPTH, formatMessage } from '@shutu/contracts';
import type { FilterFunction, TimeUnit, ViewDataType } from '@shutu/contracts';
import { fm } from './messages.ts';
import type { FilterCondition, FilterField, FilterItem, FilterLeafGroup, FilterParam, FilterTree } from './types.ts';

/**
 * Pure operations on a filter tree (spec 2 §4 filter groups, §5 "Permission filter and
 * global filter"). A tree is a root group (level 1) holding items and nested leaf groups
 * (level 2); leaf groups hold items only. Every operation returns a new tree.
 */

/** Where items live: the root group, or the nested group with this index. */
export type NodeRef = 'root' | number;
/** An item: its node and its index in that node's conditions. */
export interface ItemRef {
  node: NodeRef;
  index: number;
}

/** Most conditions one item may hold (contracts: filterItemSchema). */
export const MAX_ITEM_CONDITIONS = 20;

/** Functions offered per data type; the first is the default of a new condition. */
export const FUNCTIONS_BY_TYPE: Record<ViewDataType, readonly FilterFunction[]> = {
  STRING: ['eq', 'like', 'in', 'notIn', 'indexIn', 'isnull', 'notnull'],
  NUMBER: ['eq', 'gt', 'ge', 'lt', 'le', 'in', 'notIn', 'isnull', 'notnull'],
  DATETIME: ['between', 'eq', 'isnull', 'notnull'],
};

/** Datetime functions that may use relative time (前/后 n 单位). */
export const RELATIVE_FUNCTIONS: readonly FilterFunction[] = ['between', 'eq'];

export const isListFunction = (fn: FilterFunction) => LIST_FILTER_FUNCTIONS.includes(fn);
export const needsNoValue = (fn: FilterFunction) => fn === 'isnull' || fn === 'notnull';

/** How many values a condition takes, for deciding whether values survive a function change. */
type Arity = 'none' | 'one' | 'range' | 'list';
function arity(fn: FilterFunction): Arity {
  if (needsNoValue(fn)) return 'none';
  if (isListFunction(fn)) return 'list';
  return fn === 'between' ? 'range' : 'one';
}

export function functionsFor(type: ViewDataType | undefined): readonly FilterFunction[] {
  return FUNCTIONS_BY_TYPE[type ?? 'STRING'];
}

let seq = 0;
/** A unique id for a new item (kept as uniqId; React keys and drag use it). */
export function newUniqId(): string {
  seq += 1;
  return `f${Date.now().toString(36)}${seq.toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

export function defaultCondition(type: ViewDataType | undefined): FilterCondition {
  return { function: functionsFor(type)[0]!, values: [], timeType: 'absolute', countType: 'left', dateType: null, useParam: false, paramKey: null };
}

/** A new item on `field`, or with no field yet (cubeColumnId ''). */
export function newItem(field?: FilterField | null): FilterItem {
  return {
    uniqId: newUniqId(),
    cubeColumnId: field?.id ?? '',
    column: field?.title ?? null,
    connectType: 'and',
    conditions: [defaultCondition(field?.viewDataType)],
    dateType: null,
  };
}

export const hasField = (item: FilterItem) => item.cubeColumnId !== '' && item.cubeColumnId !== null && item.cubeColumnId !== undefined;
export const findField = (fields: readonly FilterField[], item: FilterItem) => fields.find((f) => String(f.id) === String(item.cubeColumnId));
/** Items of the whole tree, root first. */
export const allItems = (tree: FilterTree): FilterItem[] => [...tree.conditions, ...tree.filters.flatMap((g) => g.conditions)];
export const itemCount = (tree: FilterTree) => allItems(tree).length;

// ---------- node helpers ----------

function itemsOf(tree: FilterTree, node: NodeRef): FilterItem[] {
  return node === 'root' ? tree.conditions : (tree.filters[node]?.conditions ?? []);
}

function withItems(tree: FilterTree, node: NodeRef, items: FilterItem[]): FilterTree {
  if (node === 'root') return { ...tree, conditions: items };
  if (!tree.filters[node]) return tree;
  return { ...tree, filters: tree.filters.map((g, i) => (i === node ? { ...g, conditions: items } : g)) };
}

function updateItem(tree: FilterTree, ref: ItemRef, fn: (item: FilterItem) => FilterItem): FilterTree {
  const items = itemsOf(tree, ref.node);
  const item = items[ref.index];
  if (!item) return tree;
  const next = fn(item);
  if (next === item) return tree;
  return withItems(
    tree,
    ref.node,
    items.map((it, i) => (i === ref.index ? next : it)),
  );
}

function updateCondition(tree: FilterTree, ref: ItemRef, ci: number, fn: (c: FilterCondition, item: FilterItem) => FilterCondition): FilterTree {
  return updateItem(tree, ref, (item) => {
    const c = item.conditions[ci];
    if (!c) return item;
    return { ...item, conditions: item.conditions.map((x, i) => (i === ci ? fn(c, item) : x)) };
  });
}

/** Drops nested groups without items (after a drag or a delete). */
export function pruneEmptyGroups(tree: FilterTree): FilterTree {
  if (tree.filters.every((g) => g.conditions.length > 0)) return tree;
  return { ...tree, filters: tree.filters.filter((g) => g.conditions.length > 0) };
}

// ---------- items ----------

/** Appends `item` to the root or a nested group. */
export function addItem(tree: FilterTree, node: NodeRef, item: FilterItem = newItem()): FilterTree {
  if (node !== 'root' && !tree.filters[node]) return tree;
  return withItems(tree, node, [...itemsOf(tree, node), item]);
}

/** Removes an item; a nested group left empty is pruned. */
export function removeItem(tree: FilterTree, ref: ItemRef): FilterTree {
  const items = itemsOf(tree, ref.node);
  if (!items[ref.index]) return tree;
  return pruneEmptyGroups(
    withItems(
      tree,
      ref.node,
      items.filter((_, i) => i !== ref.index),
    ),
  );
}

/**
 * Moves an item to another node (or another place in its own), at `toIndex` of the target
 * as it was before the move (default: the end). A group left empty is pruned.
 */
export function moveItem(tree: FilterTree, from: ItemRef, to: NodeRef, toIndex?: number): FilterTree {
  const item = itemsOf(tree, from.node)[from.index];
  if (!item) return tree;
  if (to !== 'root' && !tree.filters[to]) return tree;
  const target = itemsOf(tree, to);
  let at = toIndex === undefined ? target.length : Math.max(0, Math.min(toIndex, target.length));
  if (from.node === to) {
    if (at === from.index || at === from.index + 1) return tree;
    const rest = target.filter((_, i) => i !== from.index);
    if (at > from.index) at -= 1;
    return withItems(tree, to, [...rest.slice(0, at), item, ...rest.slice(at)]);
  }
  const removed = withItems(
    tree,
    from.node,
    itemsOf(tree, from.node).filter((_, i) => i !== from.index),
  );
  const inserted = withItems(removed, to, [...target.slice(0, at), item, ...target.slice(at)]);
  return pruneEmptyGroups(inserted);
}

/** A root item may be wrapped into a new nested group (the nesting stops at two levels). */
export const canWrap = (node: NodeRef) => node === 'root' && MAX_FILTER_DEPTH >= 2;

/** Wraps a root item into a new nested group (relation AND) appended after the existing groups. */
export function wrapItem(tree: FilterTree, ref: ItemRef): FilterTree {
  if (!canWrap(ref.node)) return tree;
  const item = tree.conditions[ref.index];
  if (!item) return tree;
  const group: FilterLeafGroup = { relation: 'AND', conditions: [item] };
  return { ...tree, conditions: tree.conditions.filter((_, i) => i !== ref.index), filters: [...tree.filters, group] };
}

/** Flips AND and OR of the root or of a nested group. */
export function toggleRelation(tree: FilterTree, node: NodeRef): FilterTree {
  const flip = (r: 'AND' | 'OR') => (r === 'AND' ? 'OR' : 'AND');
  if (node === 'root') return { ...tree, relation: flip(tree.relation) };
  if (!tree.filters[node]) return tree;
  return { ...tree, filters: tree.filters.map((g, i) => (i === node ? { ...g, relation: flip(g.relation) } : g)) };
}

/** Chooses an item's field; its conditions start over when the data type changes. */
export function setItemField(tree: FilterTree, ref: ItemRef, field: FilterField, previous?: FilterField): FilterTree {
  return updateItem(tree, ref, (item) => {
    const sameType = previous !== undefined && previous.viewDataType === field.viewDataType;
    return {
      ...item,
      cubeColumnId: field.id,
      column: field.title,
      conditions: sameType ? item.conditions : [defaultCondition(field.viewDataType)],
      dateType: sameType ? item.dateType : null,
    };
  });
}

/** Replaces one item (its value source: pick-list.ts). */
export function patchItem(tree: FilterTree, ref: ItemRef, fn: (item: FilterItem) => FilterItem): FilterTree {
  return updateItem(tree, ref, fn);
}

/** How an item's conditions combine. */
export function setConnectType(tree: FilterTree, ref: ItemRef, connectType: 'and' | 'or'): FilterTree {
  return updateItem(tree, ref, (item) => (item.connectType === connectType ? item : { ...item, connectType }));
}

// ---------- conditions ----------

/** An item whose function is in, notIn or indexIn takes no further condition. */
export function canAddCondition(item: FilterItem): boolean {
  return item.conditions.length < MAX_ITEM_CONDITIONS && !item.conditions.some((c) => isListFunction(c.function));
}

/** Adds a condition to an item (not for list functions, which allow exactly one). */
export function addCondition(tree: FilterTree, ref: ItemRef, type?: ViewDataType): FilterTree {
  return updateItem(tree, ref, (item) => (canAddCondition(item) ? { ...item, conditions: [...item.conditions, defaultCondition(type)] } : item));
}

/** Removes a condition; an item keeps at least one. */
export function removeCondition(tree: FilterTree, ref: ItemRef, ci: number): FilterTree {
  return updateItem(tree, ref, (item) =>
    item.conditions.length <= 1 || !item.conditions[ci] ? item : { ...item, conditions: item.conditions.filter((_, i) => i !== ci) },
  );
}

/**
 * Sets a condition's function. in, notIn and indexIn cut the item to this one condition.
 * Values survive when the new function takes the same kind of value; otherwise they clear.
 * A function that cannot be relative falls back to absolute time.
 */
export function setFunction(tree: FilterTree, ref: ItemRef, ci: number, fn: FilterFunction): FilterTree {
  return updateItem(tree, ref, (item) => {
    const c = item.conditions[ci];
    if (!c) return item;
    const relative = c.timeType === 'relative' && RELATIVE_FUNCTIONS.includes(fn);
    const [was, will] = [arity(c.function), arity(fn)];
    let values: FilterCondition['values'] = [];
    if (relative) values = c.values;
    else if (c.timeType === 'relative') values = [];
    else if (was === will) values = c.values;
    else if ((was === 'one' && will === 'list') || (was === 'list' && will === 'one')) values = c.values.slice(0, 1);
    const next: FilterCondition = { ...c, function: fn, timeType: relative ? 'relative' : 'absolute', values };
    const conditions = item.conditions.map((x, i) => (i === ci ? next : x));
    return { ...item, conditions: isListFunction(fn) ? [next] : conditions };
  });
}

/** Relative time starts at 1 (前 1 天); absolute clears the value. */
export function setTimeType(tree: FilterTree, ref: ItemRef, ci: number, timeType: 'absolute' | 'relative'): FilterTree {
  return updateCondition(tree, ref, ci, (c) =>
    timeType === 'relative' ? { ...c, timeType, values: [1], countType: c.countType ?? 'left', dateType: c.dateType ?? 'DAY' } : { ...c, timeType, values: [] },
  );
}

/** Any other change of one condition: values, countType, dateType, useParam, paramKey. */
export function patchCondition(
  tree: FilterTree,
  ref: ItemRef,
  ci: number,
  patch: Partial<Pick<FilterCondition, 'values' | 'countType' | 'dateType' | 'useParam' | 'paramKey'>>,
): FilterTree {
  return updateCondition(tree, ref, ci, (c) => ({ ...c, ...patch }));
}

/** The relative unit of a condition (its own, else the item's, else days). */
export const unitOf = (c: FilterCondition, item: FilterItem): TimeUnit => c.dateType ?? item.dateType ?? 'DAY';

// ---------- validation and saving ----------

const blank = (v: string | number | null | undefined) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
const NUMBER_TEXT = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
const DATE_TEXT = /^\d{4}(-\d{1,2}(-\d{1,2}( \d{1,2}(:\d{1,2}(:\d{1,2})?)?)?)?)?$/;

/** A number text as a number, except integers beyond 2^53 (kept as text so no digit is lost). */
function numberOrText(v: string): string | number {
  if (!NUMBER_TEXT.test(v)) return v;
  return /^-?[0-9]+$/.test(v) && !Number.isSafeInteger(Number(v)) ? v : Number(v);
}

function conditionProblem(c: FilterCondition, field: FilterField, params: readonly FilterParam[] | undefined): string | null {
  const name = field.title;
  if (!functionsFor(field.viewDataType).includes(c.function)) return formatMessage(fm.filterFunctionType, { name, fn: c.function });
  if (c.useParam) {
    if (!params) return fm.permFilterNoParams;
    if (blank(c.paramKey) || !params.some((p) => p.paramKey === c.paramKey)) return formatMessage(fm.treeParamMissing, { title: name });
    return null;
  }
  if (needsNoValue(c.function)) return null;
  const values = c.values.filter((v) => !blank(v));
  if (c.timeType === 'relative') {
    if (field.viewDataType !== 'DATETIME') return formatMessage(fm.filterRelativeNeedsDate, { name });
    if (values.length < 1) return formatMessage(fm.filterValueMissing, { name });
    if (values.some((v) => !/^\s*[0-9]+\s*$/.test(String(v)))) return formatMessage(fm.filterValueNumber, { name });
    return null;
  }
  const need = c.function === 'between' ? 2 : 1;
  if (values.length < need || (c.function === 'between' && c.values.slice(0, 2).some(blank))) return formatMessage(fm.filterValueMissing, { name });
  if (field.viewDataType === 'NUMBER' && values.some((v) => !NUMBER_TEXT.test(String(v).trim()))) return formatMessage(fm.filterValueNumber, { name });
  if (field.viewDataType === 'DATETIME' && values.some((v) => !DATE_TEXT.test(String(v).trim()))) return formatMessage(fm.filterValueDate, { name });
  return null;
}

/**
 * The first problem of a tree, in Chinese, or null when it can be saved: every item needs a
 * known field, list functions allow one condition, each condition needs the values its
 * function takes (numbers for number fields, dates for date fields); with `params` a
 * condition using a global parameter needs its key, without them no condition may use one.
 */
export function validateTree(tree: FilterTree, fields: readonly FilterField[], params?: readonly FilterParam[]): string | null {
  for (const item of allItems(tree)) {
    if (!hasField(item)) return fm.treeFieldMissing;
    const field = findField(fields, item);
    if (!field) return formatMessage(fm.permFilterFieldMissing, { name: item.column ?? String(item.cubeColumnId) });
    if (item.conditions.length === 0) return fm.filterConditionMissing;
    if (item.conditions.length > 1 && item.conditions.some((c) => isListFunction(c.function))) return fm.filterListSingle;
    for (const c of item.conditions) {
      const problem = conditionProblem(c, field, params);
      if (problem) return problem;
    }
  }
  return null;
}

/**
 * The tree as saved: empty groups dropped, titles refreshed from the fields, values trimmed
 * and blanks dropped (numbers of number fields and relative counts as numbers), the values
 * of isnull/notnull and of parameter conditions cleared.
 */
export function normaliseTree(tree: FilterTree, fields: readonly FilterField[] = []): FilterTree {
  const item = (it: FilterItem): FilterItem => {
    const field = findField(fields, it);
    return {
      ...it,
      column: field?.title ?? it.column ?? null,
      conditions: it.conditions.map((c) => {
        if (needsNoValue(c.function) || c.useParam) return { ...c, values: [] };
        const numeric = c.timeType === 'relative' || field?.viewDataType === 'NUMBER';
        const values = c.values
          .filter((v) => !blank(v))
          .map((v) => (typeof v === 'string' ? v.trim() : v))
          .map((v) => (numeric && typeof v === 'string' ? numberOrText(v) : v));
        return { ...c, values, paramKey: c.useParam ? c.paramKey : null };
      }),
    };
  };
  const pruned = pruneEmptyGroups(tree);
  return {
    relation: pruned.relation,
    conditions: pruned.conditions.map(item),
    filters: pruned.filters.map((g) => ({ relation: g.relation, conditions: g.conditions.map(item) })),
  };
}
