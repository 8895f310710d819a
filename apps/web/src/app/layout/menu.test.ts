import { describe, expect, it } from 'vitest';
import { homePath, pageByPath, visiblePages } from '../pages.ts';
import { buildMenuItems } from './menu.tsx';

type Who = { isAdministrator: boolean; permissions: string[] };
const admin: Who = { isAdministrator: true, permissions: [] };
const dictViewer: Who = { isAdministrator: false, permissions: ['dict_view'] };
const plain: Who = { isAdministrator: false, permissions: [] };

type Group = { key: string; label: string; children?: { key: string; label: string }[] };
// 首页 is an entry of its own above the groups.
const labels = (u: Who) => (buildMenuItems(u) as Group[]).flatMap((g) => (g.children ? g.children.map((c) => c.label) : [g.label]));

describe('menu filtering', () => {
  it('administrators see every page', () => {
    expect(labels(admin)).toEqual([
      '首页',
      '流程工作台',
      '数据集',
      '数据接口',
      '订购数据导出',
      '预警管理',
      '营销任务统计',
      '平台接入',
      '公众号',
      '粉丝列表',
      '人群管理',
      '标签库',
      '标签人群',
      '用户画像对比',
      '可视化大屏',
      '自助报表',
      '幻灯片',
      '应用管理',
      '点击热力图',
      '用户管理',
      '部门管理',
      '角色管理',
      '字典管理',
      '数据源管理',
      '权限组管理',
      '系统设置',
      '平台类型',
      '数据接口管理',
      '个人设置',
      '任务管理',
      '我的分享',
      '订阅日志',
    ]);
  });

  it('订购数据导出 is shown to holders of order_export only (issue 20)', () => {
    expect(labels({ isAdministrator: false, permissions: ['order_export'] })).toContain('订购数据导出');
    expect(labels(plain)).not.toContain('订购数据导出');
    expect(labels(dictViewer)).not.toContain('订购数据导出');
    expect(labels({ isAdministrator: false, permissions: ['market_view'] })).toEqual(expect.arrayContaining(['营销任务统计']));
    expect(labels(plain)).not.toContain('营销任务统计');
  });

  it('keeps pages opened from another page (权限设置) out of the menu', () => {
    expect(labels(admin)).not.toContain('权限设置');
    expect(visiblePages(admin).map((p) => p.path)).not.toContain('/system/authGroupSetting');
    expect(pageByPath('/system/authGroupSetting')?.label).toBe('权限设置');
    expect(pageByPath('/system/authGroup')?.label).toBe('权限组管理');
  });

  it('a user with dict_view sees only 数据集, 字典管理 and 个人设置', () => {
    expect(labels(dictViewer)).toEqual([
      '首页',
      '流程工作台',
      '数据集',
      '数据接口',
      '预警管理',
      '人群管理',
      '标签库',
      '标签人群',
      '用户画像对比',
      '可视化大屏',
      '自助报表',
      '幻灯片',
      '应用管理',
      '点击热力图',
      '字典管理',
      '个人设置',
      '任务管理',
      '我的分享',
      '订阅日志',
    ]);
  });

  it('other dict permissions alone do not open the dictionary manager', () => {
    expect(labels({ isAdministrator: false, permissions: ['dict_add', 'dict_edit', 'dict_delete'] })).toEqual([
      '首页',
      '流程工作台',
      '数据集',
      '数据接口',
      '预警管理',
      '人群管理',
      '标签库',
      '标签人群',
      '用户画像对比',
      '可视化大屏',
      '自助报表',
      '幻灯片',
      '应用管理',
      '点击热力图',
      '个人设置',
      '任务管理',
      '我的分享',
      '订阅日志',
    ]);
  });

  it('drops a section left without pages', () => {
    const groups = buildMenuItems(plain) as Group[];
    expect(groups.map((g) => g.label)).toEqual(['首页', '流程工作台', '数据准备', '数据可视化', '个人中心']);
    expect(groups[4]!.children!.map((c) => c.key)).toEqual(['/info/index', '/newbi/mine/export', '/newbi/mine/share', '/newbi/mine/subscription-log']);
  });

  it('collapsed, keeps the same pages with dividers instead of group titles', () => {
    const items = buildMenuItems(dictViewer, true) as { type?: string; key: string }[];
    expect(items.map((i) => i.type ?? i.key)).toEqual([
      '/home',
      '/work/start',
      'divider',
      '/newbi/dataset',
      '/newbi/dataapi',
      '/newbi/warning',
      '/cdp/audience',
      '/cdp/tags',
      '/cdp/tag/audience',
      '/cdp/profile/compare',
      'divider',
      '/newbi/visual',
      '/newbi/report',
      '/newbi/ppt',
      '/newbi/app',
      '/newbi/heatmap',
      'divider',
      '/system/dict',
      'divider',
      '/info/index',
      '/newbi/mine/export',
      '/newbi/mine/share',
      '/newbi/mine/subscription-log',
    ]);
  });

  it('shows nothing before the user is known', () => {
    expect(buildMenuItems(undefined)).toEqual([]);
    expect(visiblePages(null)).toEqual([]);
  });

  it('puts 数据集 in 数据准备 before 系统管理, open to every user', () => {
    expect((buildMenuItems(admin) as Group[]).map((g) => g.label)).toEqual(['首页', '流程工作台', '数据准备', '数据可视化', '系统管理', '个人中心']);
    expect(pageByPath('/newbi/dataset')?.label).toBe('数据集');
    expect(visiblePages(plain).map((p) => p.path)).toContain('/newbi/dataset');
  });

  it('/ goes to 首页 for administrators and members alike', () => {
    expect(homePath(admin)).toBe('/home');
    expect(homePath(dictViewer)).toBe('/home');
    expect(homePath(plain)).toBe('/home');
    expect(pageByPath('/home')?.label).toBe('首页');
  });

  it('finds the page of a path', () => {
    expect(pageByPath('/system/dict')?.label).toBe('字典管理');
    expect(pageByPath('/nowhere')).toBeUndefined();
  });
});
