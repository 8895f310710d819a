/** Texts of the chart renderer (zh-CN) beyond boardMessages and CHART_TYPE_LABELS of the contracts. */
export const chartMessages = {
  /** A dimension value that is NULL. */
  emptyValue: '(空)',
  total: '合计',
  structureFilter: '结构筛选',
  structureRows: '行',
  structureColumns: '列',
  structureReset: '全部显示',
  compare: '对比',
  filterSelectPlaceholder: '请选择',
  filterDateStart: '开始日期',
  filterDateEnd: '结束日期',
  imageMissing: '未设置图片',
  loadFailed: '加载失败',
  pageTotal: '共 {total} 条',
} as const;
