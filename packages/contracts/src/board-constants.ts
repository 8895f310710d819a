/**
 * The boards' messages and constants without zod (docs/web-performance.md "Schema-free contracts"):
 * the board viewers (the share link, the phone app) import them from here and evaluate no schema.
 * board.ts re-exports them (the barrel with it).
 */

export const boardMessages = {
  titleRequired: '请填写大屏名称',
  categoryNameRequired: '请填写分类名',
  categoryNotFound: '分类不存在',
  categoryParentSelf: '上级分类不能是自己',
  categoryParentMissing: '上级分类不存在',
  categoryTooDeep: '分类最多两级：上级只能是顶级分类',
  categoryNameTaken: '同一上级下分类名称已存在',
  categoryHasChildren: '请先删除下级分类',
  categoryHasBoards: '该分类下还有 {count} 个报表，请先删除或移到其他分类',
  boardNotFound: '报表不存在',
  boardForbidden: '没有此大屏权限',
  boardNotOwned: '只能修改或删除自己创建的报表',
  chartNotFound: '图表不存在',
  chartNoDataset: '图表【{title}】未选择数据集',
  chartNeedsFields: '图表【{title}】请至少选择一个维度或指标',
  chartKeyDuplicate: '图表编号【{key}】重复',
  chartFieldUnknown: '图表【{title}】使用的字段【{id}】不在数据集中',
  chartFieldExcluded: '图表【{title}】使用了你无权查看的字段【{name}】',
  sortIdsInvalid: '排序须为逗号分隔的报表编号',
  confirmDelete: '确定删除该报表?',
  confirmCopy: '确定复制该报表?',
  confirmDeleteCategory: '是否删除此分类',
  copySuffix: '-副本',
  copySuccess: '复制成功',
  deleteSuccess: '删除成功',
  saveSuccess: '保存成功',
  noData: '暂无数据',
  loading: '拼命加载中',
  clearLinkage: '清除联动',
} as const;

// ---------------------------------------------------------------------------------------
// Constants (spec 1 §2.1, §9)

/** visual: big-screen dashboards; report: self-service reports. Each has its own categories, grants and grant tab. */
export const BOARD_KINDS = ['visual', 'report'] as const;
export type BoardKind = (typeof BOARD_KINDS)[number];
export const BOARD_KIND_LABELS: Record<BoardKind, string> = { visual: '大屏', report: '自助报表' };

/** screen: free-position canvas of the design size; quick: 24-column grid. */
export const BOARD_TYPES = ['screen', 'quick'] as const;
export type BoardType = (typeof BOARD_TYPES)[number];

export const BOARD_PAGE_SIZE = 50;
/** The category menu's 'all' entry. */
export const ALL_CATEGORIES = -1;
export const BOARD_TITLE_MAX_LENGTH = 100;
export const BOARD_CATEGORY_NAME_MAX_LENGTH = 50;
export const QUICK_GRID = { columns: 24, rowHeight: 48, headerHeight: 36 } as const;
export const DEFAULT_SCREEN_SIZE = { width: 1920, height: 1080 } as const;
export const BAR_MAX_WIDTH = 30;
export const MAX_CHARTS_PER_BOARD = 200;
/** Detail-table page sizes. */
export const DETAIL_PAGE_SIZES = [10, 20, 50, 100] as const;
/** Most rows one chart query returns (aggregated charts); detail tables page. */
export const CHART_MAX_ROWS = 10_000;

/**
 * Preview scale (spec 1 §9): container width / design width, rounded down to two decimals.
 * Rounded on the hundredths so that 0.29 does not become 0.28 through binary fractions.
 */
export function previewScale(containerWidth: number, designWidth: number): number {
  if (!(designWidth > 0) || !(containerWidth > 0)) return 1;
  return Math.floor(Math.round((containerWidth / designWidth) * 1e6) / 1e4) / 100;
}

/**
 * The preview pages (/newbi/preview/{id}, /openview/{id}) set this attribute on
 * `document.documentElement`: 'loading' at first, then 'ready' once every chart has rendered
 * (or 'refused' / 'error'). The server's renderer (thumbnails, PDF, subscriptions) waits for
 * a value other than 'loading'.
 */
export const BOARD_STATE_ATTRIBUTE = 'data-board-state';
export const BOARD_STATES = ['loading', 'ready', 'refused', 'error'] as const;
export type BoardState = (typeof BOARD_STATES)[number];

/**
 * Charts with an 导出 action: every chart that shows data (tables and pivots as on screen; bar,
 * line, pie and indicator charts as the table of their dimensions and measures).
 */
export const EXPORTABLE_CHART_TYPES: readonly ChartType[] = ['table', 'detail', 'pivot', 'bar', 'line', 'pie', 'card'];

/**
 * The streamed form (request header `Accept: application/x-ndjson`): one line per chart, in
 * the order the answers are ready, each an item with its index in the request's `charts`.
 */
export const CHART_DATA_BATCH_STREAM_TYPE = 'application/x-ndjson';

// ---------------------------------------------------------------------------------------
// Chart types

export const CHART_TYPES = ['bar', 'line', 'pie', 'table', 'detail', 'pivot', 'card', 'text', 'image', 'filterSelect', 'filterDate'] as const;
export type ChartType = (typeof CHART_TYPES)[number];
/** Charts that read no data. */
export const STATIC_CHART_TYPES: readonly ChartType[] = ['text', 'image'];
/** Filter controls: they list values (select) or take a range (date) and drive linked charts. */
export const FILTER_CHART_TYPES: readonly ChartType[] = ['filterSelect', 'filterDate'];
export const CHART_TYPE_LABELS: Record<ChartType, string> = {
  bar: '柱状图',
  line: '折线图',
  pie: '饼图',
  table: '汇总表',
  detail: '明细表',
  pivot: '透视表',
  card: '指标卡',
  text: '文本',
  image: '图片',
  filterSelect: '下拉筛选',
  filterDate: '日期筛选',
};
