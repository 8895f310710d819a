import { describe, expect, it } from 'vitest';
import { appMessages, type AppMenu } from '@shutu/contracts';
import { moveMenu, toTreeSave, treeProblem } from './tree.ts';

const menu = (menuId: number, visualId: number | null, children: AppMenu[] = [], parentId = 0): AppMenu => ({
  menuId,
  appId: 1,
  parentId,
  menuName: `菜单${menuId}`,
  menuIcon: 'el-icon-data-analysis',
  icon: null,
  sortNum: 0,
  visualId,
  visualName: null,
  visualKind: null,
  children,
});

describe('the menu tree of the editor', () => {
  const tree = [menu(1, 10), menu(2, null, [menu(21, 11, [], 2), menu(22, 12, [], 2)]), menu(3, 13)];

  it('moves a menu among its siblings only', () => {
    expect(moveMenu(tree, 3, 1, false).map((m) => m.menuId)).toEqual([3, 1, 2]);
    expect(moveMenu(tree, 1, 3, true).map((m) => m.menuId)).toEqual([2, 3, 1]);
    expect(moveMenu(tree, 22, 21, false)[1]!.children.map((m) => m.menuId)).toEqual([22, 21]);
    // A child dropped beside a first-level menu stays where it was.
    expect(moveMenu(tree, 21, 1, false)).toEqual(tree);
  });

  it('sends the tree in display order with the ids', () => {
    expect(toTreeSave(tree)[1]).toEqual({
      menuId: 2,
      menuName: '菜单2',
      menuIcon: 'el-icon-data-analysis',
      icon: null,
      visualId: null,
      children: [
        { menuId: 21, menuName: '菜单21', menuIcon: 'el-icon-data-analysis', icon: null, visualId: 11 },
        { menuId: 22, menuName: '菜单22', menuIcon: 'el-icon-data-analysis', icon: null, visualId: 12 },
      ],
    });
  });

  it('names the first-level menu with neither a board nor children', () => {
    expect(treeProblem(tree, appMessages)).toBeNull();
    expect(treeProblem([...tree, menu(4, null)], appMessages)).toBe('一级菜单【菜单4】应关联大屏或添加子菜单');
    expect(treeProblem([menu(5, null, [menu(51, null, [], 5)])], appMessages)).toBe('二级菜单需关联大屏');
  });
});
