import { describe, expect, it } from 'vitest';
import type { AppMenu, Board } from '@shutu/contracts';
import { menuToOpen, reflowForPhone, topOf, watermarkText } from './reflow.ts';

const board = (type: 'quick' | 'screen', layout: { i: string; x: number; y: number; w: number; h: number }[]) =>
  ({ id: 1, title: 't', content: { type, layout, width: 1920, height: 1080 }, charts: [] }) as unknown as Board;

const menu = (menuId: number, visualId: number | null, children: AppMenu[] = [], parentId = 0): AppMenu => ({
  menuId,
  appId: 1,
  parentId,
  menuName: `菜单${menuId}`,
  menuIcon: 'el-icon-data-analysis',
  icon: null,
  sortNum: menuId,
  visualId,
  visualName: null,
  visualKind: visualId ? 'visual' : null,
  children,
});

describe('the phone viewer', () => {
  it('reflows a quick board to one full-width column in layout order, heights kept', () => {
    const reflowed = reflowForPhone(
      board('quick', [
        { i: 'right', x: 12, y: 0, w: 12, h: 4 },
        { i: 'below', x: 0, y: 4, w: 24, h: 6 },
        { i: 'left', x: 0, y: 0, w: 12, h: 5 },
      ]),
    );
    expect(reflowed.content.layout.map((l) => [l.i, l.x, l.y, l.w, l.h])).toEqual([
      ['left', 0, 0, 24, 5],
      ['right', 0, 5, 24, 4],
      ['below', 0, 9, 24, 6],
    ]);
  });

  it('leaves a screen board as it is (it scales to the width)', () => {
    const screen = board('screen', [{ i: 'a', x: 100, y: 50, w: 400, h: 300 }]);
    expect(reflowForPhone(screen)).toBe(screen);
  });

  it('opens the named menu, else the first one with a board (a child before its parent)', () => {
    const menus = [menu(1, null, [menu(3, null, [], 1), menu(4, 40, [], 1)]), menu(2, 20)];
    expect(menuToOpen(menus, null)?.menuId).toBe(4);
    expect(menuToOpen(menus, 2)?.menuId).toBe(2);
    expect(menuToOpen(menus, 99)?.menuId).toBe(4);
    expect(topOf(menus, 4)?.menuId).toBe(1);
    expect(menuToOpen([menu(5, null)], null)).toBeUndefined();
  });

  it('writes the user name and the app text (保密 by default) in the watermark', () => {
    expect(watermarkText('张三', '内部资料')).toBe('张三 内部资料');
    expect(watermarkText('张三', '')).toBe('张三 保密');
  });
});
