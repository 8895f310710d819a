import { BOARD_KIND_LABELS } from '@shutu/contracts/board-constants';
import { homeMessages } from '@shutu/contracts/home-constants';
import type { HomeItem } from '@shutu/contracts';

/** The server's home messages (已收藏 / 已取消收藏): the contract. */
export const hmServer = homeMessages;

/** Labels of 首页 (zh-CN). */
export const hm = {
  page: '首页',
  greeting: (name: string) => `您好，${name}`,
  desc: '从最近访问的大屏和幻灯片继续，或从这里开始新的分析',
  newDataset: '新建数据集',
  newBoard: '新建大屏',
  screenMode: '大屏模式',
  quickMode: '快速模式',
  screenModeDesc: '自由布局，按设计尺寸缩放',
  quickModeDesc: '24 栅格自适应布局',
  guideTitle: '从示例开始',
  guideDesc: '还没有自己的数据集和大屏？跟着下面几步，看看示例内容是怎样搭起来的',
  guideSource: '看示例数据源',
  guideSourceDesc: (name: string) => `「${name}」：内置数仓，含订单、用户、省份等表`,
  guideDataset: '打开示例数据集',
  guideDatasetDesc: (name: string) => `「${name}」：关联订单、用户和省份三张表`,
  guideBoard: '打开示例大屏',
  guideBoardDesc: (title: string) => `「${title}」：筛选、指标卡和图表联动`,
  recent: '最近访问',
  recentEmpty: '还没有访问记录：打开一个大屏或幻灯片，它就会出现在这里',
  favouriteBoards: '收藏的大屏',
  favouriteBoardsEmpty: '还没有收藏的大屏：点击大屏卡片右上角的星标即可收藏',
  favouritePpts: '收藏的幻灯片',
  favouritePptsEmpty: '还没有收藏的幻灯片：在幻灯片播放页点击「收藏幻灯片」',
  shared: '共享给我的大屏',
  sharedEmpty: '暂无他人通过权限组共享给您的大屏',
  star: '收藏',
  unstar: '取消收藏',
  loadFailed: '首页加载失败',
  retry: '重试',
  /** The kind shown on a card: 可视化大屏 / 自助报表, or 幻灯片 (我的收藏 / 我的归档). */
  kindOf: (item: HomeItem) =>
    item.kind === 'board' ? BOARD_KIND_LABELS[item.boardKind ?? 'visual'] : ['幻灯片', '收藏的幻灯片', '归档的幻灯片'][item.pptVisualType ?? 0]!,
  boardCount: (n: number) => `${n} 个大屏`,
} as const;
