import { describe, expect, it } from 'vitest';
import { globalFilterProblem, isEmptyFilter, normalizeGlobalFilter } from './global-filter.ts';
import { EMPTY_TREE, type FilterCondition, type FilterField, type FilterItem, type FilterTree } from './types.ts';

const fields: FilterField[] = [
  { id: 11, title: '地区', viewDataType: 'STRING' },
  { id: 'tmp_amount', title: '金额', viewDataType: 'NUMBER' },
];

const cond = (extra: Partial<FilterCondition> = {}): FilterCondition => ({
  function: 'eq',
  values: ['华东'],
  timeType: 'absolute',
  countType: 'left',
  useParam: false,
  paramKey: null,
  ...extra,
});
const item = (cubeColumnId: number | string, conditions: FilterCondition[], extra: Partial<FilterItem> = {}): FilterItem => ({
  cubeColumnId,
  connectType: 'and',
  conditions,
  ...extra,
});
const tree = (conditions: FilterItem[], filters: FilterTree['filters'] = []): FilterTree => ({ relation: 'AND', conditions, filters });

describe('globalFilterProblem', () => {
  it('accepts plain conditions and conditions with a chosen parameter', () => {
    expect(globalFilterProblem(null, fields)).toBeNull();
    expect(globalFilterProblem(EMPTY_TREE, fields)).toBeNull();
    expect(globalFilterProblem(tree([item(11, [cond(), cond({ useParam: true, paramKey: 'region' })])]), fields)).toBeNull();
  });

  it('names the field of a parameter condition without a key: 过滤条件【{title}】未设置全局参数', () => {
    expect(globalFilterProblem(tree([item(11, [cond({ useParam: true, paramKey: null })])]), fields)).toBe('过滤条件【地区】未设置全局参数');
    // In a nested group, on a new (temporary-id) field, and with a blank key.
    const nested = tree([item(11, [cond()])], [{ relation: 'OR', conditions: [item('tmp_amount', [cond({ useParam: true, paramKey: '  ' })])] }]);
    expect(globalFilterProblem(nested, fields)).toBe('过滤条件【金额】未设置全局参数');
    // A saved id given as text still finds its field.
    expect(globalFilterProblem(tree([item('11', [cond({ useParam: true })])]), fields)).toBe('过滤条件【地区】未设置全局参数');
  });

  it('falls back to the saved column name when the field is gone', () => {
    expect(globalFilterProblem(tree([item(99, [cond({ useParam: true })], { column: 'region' })]), fields)).toBe('过滤条件【region】未设置全局参数');
  });

  it('ignores the key of a condition that does not use a parameter', () => {
    expect(globalFilterProblem(tree([item(11, [cond({ useParam: false, paramKey: null })])]), fields)).toBeNull();
  });

  it('reports a key no known parameter has when the parameter list is given', () => {
    const t = tree([item(11, [cond({ useParam: true, paramKey: 'gone' })])]);
    expect(globalFilterProblem(t, fields)).toBeNull();
    expect(globalFilterProblem(t, fields, [{ paramKey: 'region', paramName: '地区', paramColumnType: 'STRING' }])).toBe(
      '过滤条件【地区】使用的全局参数【gone】不存在',
    );
  });
});

describe('normalizeGlobalFilter', () => {
  it('drops empty nested groups and keeps the rest as is', () => {
    const a = item(11, [cond()]);
    const b = item('tmp_amount', [cond({ function: 'gt', values: [5] })]);
    const input = tree(
      [a],
      [
        { relation: 'OR', conditions: [] },
        { relation: 'OR', conditions: [b] },
      ],
    );
    expect(normalizeGlobalFilter(input)).toEqual({ relation: 'AND', conditions: [a], filters: [{ relation: 'OR', conditions: [b] }] });
  });

  it('makes an empty tree null (no global filter)', () => {
    expect(normalizeGlobalFilter(null)).toBeNull();
    expect(normalizeGlobalFilter(EMPTY_TREE)).toBeNull();
    expect(normalizeGlobalFilter(tree([], [{ relation: 'AND', conditions: [] }]))).toBeNull();
    expect(normalizeGlobalFilter(tree([item(11, [])]))).toBeNull();
    expect(isEmptyFilter(tree([item(11, [cond()])]))).toBe(false);
  });

  it('keeps a tree whose only conditions are in a nested group', () => {
    const b = item(11, [cond()]);
    expect(normalizeGlobalFilter(tree([], [{ relation: 'AND', conditions: [b] }]))).toEqual(tree([], [{ relation: 'AND', conditions: [b] }]));
  });
});
