import { describe, expect, it } from 'vitest';
import { categoryTree, filterCategoryTree, mayChangeCategory, parentChoices } from './tree.ts';

const category = (id: number, name: string, parentId = 0, createUserId: number | null = 1) => ({ id, name, parentId, sortNum: 0, createUserId });
const list = [category(1, '经营分析'), category(2, '华东大区', 1), category(3, '财务', 0, 9), category(4, '华南大区', 1), category(5, '孤儿', 77)];
const nameOf = (c: (typeof list)[number]) => c.name;

describe('two-level categories', () => {
  it('nests sub-categories under their top-level category, in list order, and drops orphans', () => {
    expect(categoryTree(list).map((r) => [r.name, r.children.map(nameOf)])).toEqual([
      ['经营分析', ['华东大区', '华南大区']],
      ['财务', []],
    ]);
  });

  it('filters by name: a matching top-level category keeps all its children, otherwise only matching children stay', () => {
    const tree = categoryTree(list);
    expect(filterCategoryTree(tree, '  ', nameOf)).toHaveLength(2);
    expect(filterCategoryTree(tree, '经营', nameOf).map((r) => r.children.length)).toEqual([2]);
    expect(filterCategoryTree(tree, '华南', nameOf).map((r) => [r.name, r.children.map(nameOf)])).toEqual([['经营分析', ['华南大区']]]);
    expect(filterCategoryTree(tree, '人事', nameOf)).toEqual([]);
  });

  it('offers top level or another top-level category as parent; one with children stays top level', () => {
    expect(parentChoices(list, nameOf, '顶级分类').map((c) => c.label)).toEqual(['顶级分类', '经营分析', '财务']);
    expect(parentChoices(list, nameOf, '顶级分类', list[2]).map((c) => c.value)).toEqual([0, 1]);
    expect(parentChoices(list, nameOf, '顶级分类', list[0]).map((c) => c.value)).toEqual([0]);
  });

  it('lets administrators change every category and others their own', () => {
    expect(mayChangeCategory({ id: 5, isAdministrator: true }, list[2]!)).toBe(true);
    expect(mayChangeCategory({ id: 9, isAdministrator: false }, list[2]!)).toBe(true);
    expect(mayChangeCategory({ id: 1, isAdministrator: false }, list[2]!)).toBe(false);
    expect(mayChangeCategory(undefined, list[0]!)).toBe(false);
  });
});
