import { describe, expect, it } from 'vitest';
import { datasetFilterTreeSchema } from '@shutu/contracts';
import {
  addCondition,
  addItem,
  canAddCondition,
  canWrap,
  functionsFor,
  moveItem,
  newItem,
  normaliseTree,
  patchCondition,
  removeCondition,
  removeItem,
  setConnectType,
  setFunction,
  setItemField,
  setTimeType,
  toggleRelation,
  validateTree,
  wrapItem,
} from './tree-ops.ts';
import { EMPTY_TREE, type FilterField, type FilterItem, type FilterTree } from './types.ts';

const fields: FilterField[] = [
  { id: 1, title: '城市', viewDataType: 'STRING' },
  { id: 2, title: '金额', viewDataType: 'NUMBER' },
  { id: 3, title: '下单时间', viewDataType: 'DATETIME' },
  { id: 4, title: '区域', viewDataType: 'STRING' },
];
const [city, amount, orderedAt, region] = fields as [FilterField, FilterField, FilterField, FilterField];

function item(field: FilterField, values: (string | number)[] = ['x'], extra: Partial<FilterItem> = {}): FilterItem {
  const base = newItem(field);
  return { ...base, conditions: [{ ...base.conditions[0]!, values }], ...extra };
}

/** Root: [a, b]; groups: [[c], [d, e]]. */
function sample() {
  const a = item(city, ['杭州']);
  const b = item(amount, [10]);
  const c = item(region, ['华东']);
  const d = item(city, ['上海']);
  const e = item(amount, [5]);
  const tree: FilterTree = {
    relation: 'AND',
    conditions: [a, b],
    filters: [
      { relation: 'OR', conditions: [c] },
      { relation: 'AND', conditions: [d, e] },
    ],
  };
  return { tree, a, b, c, d, e };
}

describe('adding and removing items', () => {
  it('adds a new item to the root or to a nested group', () => {
    const { tree } = sample();
    const one = addItem(EMPTY_TREE, 'root');
    expect(one.conditions).toHaveLength(1);
    expect(one.conditions[0]!.cubeColumnId).toBe('');
    expect(one.conditions[0]!.conditions).toHaveLength(1);
    expect(EMPTY_TREE.conditions).toHaveLength(0); // not mutated
    const grouped = addItem(tree, 1, item(city));
    expect(grouped.filters[1]!.conditions).toHaveLength(3);
    expect(addItem(tree, 7)).toBe(tree); // no such group
  });

  it('gives every new item its own uniqId and the field type default function', () => {
    expect(newItem(city).uniqId).not.toBe(newItem(city).uniqId);
    expect(newItem(city).conditions[0]!.function).toBe('eq');
    expect(newItem(amount).conditions[0]!.function).toBe('eq');
    expect(newItem(orderedAt).conditions[0]!.function).toBe('between');
  });

  it('removes an item and prunes the group it leaves empty', () => {
    const { tree, b, d, e } = sample();
    const t1 = removeItem(tree, { node: 'root', index: 0 });
    expect(t1.conditions).toEqual([b]);
    const t2 = removeItem(tree, { node: 0, index: 0 });
    expect(t2.filters).toHaveLength(1);
    expect(t2.filters[0]!.conditions).toEqual([d, e]);
    const t3 = removeItem(tree, { node: 1, index: 1 });
    expect(t3.filters[1]!.conditions).toEqual([d]);
    expect(removeItem(tree, { node: 'root', index: 9 })).toBe(tree);
  });
});

describe('moving items between nodes', () => {
  it('moves a root item into a group at a position', () => {
    const { tree, a, b, d, e } = sample();
    const moved = moveItem(tree, { node: 'root', index: 0 }, 1, 1);
    expect(moved.conditions).toEqual([b]);
    expect(moved.filters[1]!.conditions).toEqual([d, a, e]);
  });

  it('moves a group item to the root and prunes the emptied group', () => {
    const { tree, a, b, c, d, e } = sample();
    const moved = moveItem(tree, { node: 0, index: 0 }, 'root');
    expect(moved.conditions).toEqual([a, b, c]);
    expect(moved.filters).toEqual([{ relation: 'AND', conditions: [d, e] }]);
  });

  it('moves between groups even when the source group is pruned before the target', () => {
    const { tree, c, d, e } = sample();
    const moved = moveItem(tree, { node: 0, index: 0 }, 1, 0);
    expect(moved.filters).toHaveLength(1);
    expect(moved.filters[0]!.conditions).toEqual([c, d, e]);
  });

  it('reorders within a node and ignores moves onto itself', () => {
    const { tree, a, b } = sample();
    expect(moveItem(tree, { node: 'root', index: 0 }, 'root').conditions).toEqual([b, a]);
    expect(moveItem(tree, { node: 'root', index: 1 }, 'root', 0).conditions).toEqual([b, a]);
    expect(moveItem(tree, { node: 'root', index: 0 }, 'root', 0)).toBe(tree);
    expect(moveItem(tree, { node: 'root', index: 0 }, 'root', 1)).toBe(tree);
    expect(moveItem(tree, { node: 'root', index: 0 }, 5)).toBe(tree);
  });
});

describe('nesting', () => {
  it('wraps a root item into a new nested AND group', () => {
    const { tree, a, b } = sample();
    const wrapped = wrapItem(tree, { node: 'root', index: 1 });
    expect(wrapped.conditions).toEqual([a]);
    expect(wrapped.filters).toHaveLength(3);
    expect(wrapped.filters[2]).toEqual({ relation: 'AND', conditions: [b] });
  });

  it('never nests deeper than two levels: items of a nested group cannot be wrapped', () => {
    const { tree } = sample();
    expect(canWrap('root')).toBe(true);
    expect(canWrap(0)).toBe(false);
    expect(wrapItem(tree, { node: 1, index: 0 })).toBe(tree);
    // the result always parses as a two-level tree
    const wrapped = wrapItem(wrapItem(tree, { node: 'root', index: 0 }), { node: 'root', index: 0 });
    expect(datasetFilterTreeSchema.safeParse(wrapped).success).toBe(true);
    expect(wrapped.conditions).toHaveLength(0);
  });

  it('toggles 且/或 of the root and of a group', () => {
    const { tree } = sample();
    expect(toggleRelation(tree, 'root').relation).toBe('OR');
    expect(toggleRelation(toggleRelation(tree, 'root'), 'root').relation).toBe('AND');
    const t = toggleRelation(tree, 0);
    expect(t.filters[0]!.relation).toBe('AND');
    expect(t.filters[1]!.relation).toBe('AND');
    expect(toggleRelation(tree, 1).filters[1]!.relation).toBe('OR');
  });
});

describe('conditions of an item', () => {
  const ref = { node: 'root' as const, index: 0 };
  const single = (it: FilterItem): FilterTree => ({ relation: 'AND', conditions: [it], filters: [] });

  it('adds and removes conditions but keeps at least one', () => {
    let t = single(item(amount, [1]));
    t = addCondition(t, ref, 'NUMBER');
    t = addCondition(t, ref, 'NUMBER');
    expect(t.conditions[0]!.conditions).toHaveLength(3);
    t = removeCondition(t, ref, 1);
    expect(t.conditions[0]!.conditions).toHaveLength(2);
    t = removeCondition(t, ref, 0);
    t = removeCondition(t, ref, 0);
    expect(t.conditions[0]!.conditions).toHaveLength(1);
  });

  it('switching to in/notIn/indexIn cuts the list to that one condition and forbids adding', () => {
    let t = single(item(city, ['a']));
    t = addCondition(t, ref, 'STRING');
    t = patchCondition(t, ref, 1, { values: ['b'] });
    t = setFunction(t, ref, 1, 'in');
    const it = t.conditions[0]!;
    expect(it.conditions).toHaveLength(1);
    expect(it.conditions[0]).toMatchObject({ function: 'in', values: ['b'] });
    expect(canAddCondition(it)).toBe(false);
    expect(addCondition(t, ref, 'STRING')).toBe(t);
    for (const fn of ['notIn', 'indexIn'] as const) {
      const u = setFunction(addCondition(single(item(city)), ref, 'STRING'), ref, 0, fn);
      expect(u.conditions[0]!.conditions).toHaveLength(1);
      expect(canAddCondition(u.conditions[0]!)).toBe(false);
    }
  });

  it('keeps values when the function takes the same kind of value and clears them otherwise', () => {
    const t = single(item(amount, [5]));
    expect(setFunction(t, ref, 0, 'gt').conditions[0]!.conditions[0]!.values).toEqual([5]);
    expect(setFunction(t, ref, 0, 'isnull').conditions[0]!.conditions[0]!.values).toEqual([]);
    const list = single(item(city, ['a', 'b'], {}));
    const listed = setFunction(list, ref, 0, 'in');
    expect(setFunction(listed, ref, 0, 'notIn').conditions[0]!.conditions[0]!.values).toEqual(['a']);
  });

  it('relative time sets the value to 1, absolute clears it', () => {
    let t = single(item(orderedAt, ['2024-01-01', '2024-02-01']));
    t = setTimeType(t, ref, 0, 'relative');
    expect(t.conditions[0]!.conditions[0]).toMatchObject({ timeType: 'relative', values: [1], countType: 'left', dateType: 'DAY' });
    t = patchCondition(t, ref, 0, { values: [7], dateType: 'WEEK', countType: 'right' });
    expect(setFunction(t, ref, 0, 'eq').conditions[0]!.conditions[0]).toMatchObject({ timeType: 'relative', values: [7] });
    expect(setFunction(t, ref, 0, 'isnull').conditions[0]!.conditions[0]).toMatchObject({ timeType: 'absolute', values: [] });
    t = setTimeType(t, ref, 0, 'absolute');
    expect(t.conditions[0]!.conditions[0]).toMatchObject({ timeType: 'absolute', values: [] });
  });

  it('changing the field to another data type starts the conditions over; same type keeps them', () => {
    let t = single(item(city, ['杭州']));
    t = setConnectType(addCondition(t, ref, 'STRING'), ref, 'or');
    const same = setItemField(t, ref, region, city);
    expect(same.conditions[0]).toMatchObject({ cubeColumnId: 4, column: '区域', connectType: 'or' });
    expect(same.conditions[0]!.conditions).toHaveLength(2);
    const other = setItemField(t, ref, orderedAt, city);
    expect(other.conditions[0]!.cubeColumnId).toBe(3);
    expect(other.conditions[0]!.conditions).toEqual([expect.objectContaining({ function: 'between', values: [] })]);
  });

  it('offers functions by data type', () => {
    expect(functionsFor('STRING')).toEqual(['eq', 'like', 'in', 'notIn', 'indexIn', 'isnull', 'notnull']);
    expect(functionsFor('NUMBER')).toEqual(expect.arrayContaining(['eq', 'gt', 'ge', 'lt', 'le']));
    expect(functionsFor('NUMBER')).not.toContain('like');
    expect(functionsFor('DATETIME')).toEqual(['between', 'eq', 'isnull', 'notnull']);
  });
});

describe('validateTree', () => {
  const tree = (...items: FilterItem[]): FilterTree => ({ relation: 'AND', conditions: items, filters: [] });

  it('accepts an empty tree and complete conditions', () => {
    expect(validateTree(EMPTY_TREE, fields)).toBeNull();
    const { tree: t } = sample();
    expect(validateTree(t, fields)).toBeNull();
    expect(validateTree(tree(item(orderedAt, ['2024-01-01', '2024-03-31'])), fields)).toBeNull();
    const isnull = newItem(city);
    isnull.conditions[0]!.function = 'isnull';
    expect(validateTree(tree(isnull), fields)).toBeNull();
  });

  it('names the first problem in Chinese', () => {
    expect(validateTree(tree(newItem()), fields)).toBe('请为每个过滤条件选择字段');
    expect(validateTree(tree(item(city, [])), fields)).toBe('过滤条件【城市】缺少值');
    expect(validateTree(tree(item(city, ['  '])), fields)).toBe('过滤条件【城市】缺少值');
    expect(validateTree(tree(item(amount, ['abc'])), fields)).toBe('过滤条件【金额】的值必须是数字');
    expect(validateTree(tree(item(orderedAt, ['2024-01-01'])), fields)).toBe('过滤条件【下单时间】缺少值');
    expect(validateTree(tree(item(orderedAt, ['2024-01-01', 'soon'])), fields)).toBe('过滤条件【下单时间】的日期格式不正确');
    expect(validateTree(tree(item({ id: 99, title: '旧字段', viewDataType: 'STRING' })), fields)).toContain('旧字段');
    // the first problem wins: root items before groups
    expect(validateTree({ relation: 'AND', conditions: [item(amount, [])], filters: [{ relation: 'AND', conditions: [item(city, [])] }] }, fields)).toBe(
      '过滤条件【金额】缺少值',
    );
  });

  it('rejects a list function next to other conditions and a function the type does not have', () => {
    const it = item(city, ['a']);
    it.conditions = [{ ...it.conditions[0]!, function: 'in' }, { ...it.conditions[0]! }];
    expect(validateTree(tree(it), fields)).toBe('in、notIn、indexIn只允许一个条件');
    const like = item(amount, [1]);
    like.conditions[0]!.function = 'like';
    expect(validateTree(tree(like), fields)).toBe('过滤条件【金额】不支持函数 like');
  });

  it('checks global parameters only where they are offered', () => {
    const it = item(city, []);
    it.conditions[0] = { ...it.conditions[0]!, useParam: true, paramKey: null };
    const params = [{ paramKey: 'city', paramName: '城市参数', paramColumnType: 'STRING' as const }];
    expect(validateTree(tree(it), fields, params)).toBe('过滤条件【城市】未设置全局参数');
    it.conditions[0] = { ...it.conditions[0], paramKey: 'city' };
    expect(validateTree(tree(it), fields, params)).toBeNull();
    expect(validateTree(tree(it), fields)).toBe('权限过滤器不能使用全局参数');
  });

  it('checks relative counts', () => {
    let t = tree(item(orderedAt, []));
    t = setTimeType(t, { node: 'root', index: 0 }, 0, 'relative');
    expect(validateTree(t, fields)).toBeNull();
    t = patchCondition(t, { node: 'root', index: 0 }, 0, { values: [null] });
    expect(validateTree(t, fields)).toBe('过滤条件【下单时间】缺少值');
  });
});

describe('normaliseTree', () => {
  it('drops empty groups, refreshes titles and cleans values before saving', () => {
    const n = item(amount, [' 12 ', '', null as unknown as string, '3.5']);
    const nul = item(city, ['left over']);
    nul.conditions[0]!.function = 'notnull';
    const t: FilterTree = {
      relation: 'OR',
      conditions: [{ ...n, column: '旧标题' }],
      filters: [
        { relation: 'AND', conditions: [] },
        { relation: 'OR', conditions: [nul] },
      ],
    };
    const out = normaliseTree(t, fields);
    expect(out.relation).toBe('OR');
    expect(out.filters).toHaveLength(1);
    expect(out.conditions[0]!.column).toBe('金额');
    expect(out.conditions[0]!.conditions[0]!.values).toEqual([12, 3.5]);
    expect(out.filters[0]!.conditions[0]!.conditions[0]!.values).toEqual([]);
    expect(datasetFilterTreeSchema.safeParse(out).success).toBe(true);
  });

  it('keeps text values of text fields as text', () => {
    const out = normaliseTree({ relation: 'AND', conditions: [item(city, [' 001 '])], filters: [] }, fields);
    expect(out.conditions[0]!.conditions[0]!.values).toEqual(['001']);
  });
});
