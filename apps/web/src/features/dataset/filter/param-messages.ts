import type { ViewDataType } from '@shutu/contracts';

/**
 * The global filter dialog and the global-parameter manager (zh-CN). Validation and server
 * texts come from `datasetMessages` (contracts); these are the screen's own labels.
 */
export const pm = {
  // Global filter dialog
  filterTitle: '全局过滤',
  filterHint: '全局过滤作用于该数据集的每一次读取（包括管理员）；条件可以使用全局参数，查询时按参数值过滤。',
  manageParams: '管理全局参数',
  clear: '清空',
  cancel: '取消',
  confirm: '确定',
  paramsLoadFailed: '全局参数加载失败，暂不能选择全局参数',

  // Manager
  managerTitle: '全局参数管理',
  categories: '参数分类',
  all: '全部',
  addCategory: '新增分类',
  renameCategory: '重命名分类',
  categoryName: '分类名称',
  addParam: '新增参数',
  editParam: '编辑参数',
  searchParam: '搜索参数名称或key',
  search: '搜索',
  paramName: '参数名称',
  paramKey: '参数key',
  paramType: '参数类型',
  paramCategory: '参数分类',
  actions: '操作',
  edit: '编辑',
  delete: '删除',
  save: '保存',
  close: '关闭',
  confirmTitle: '提示',
  confirmDelete: '确定删除?',
  empty: '暂无全局参数',
  noCategories: '暂无分类',
  readOnly: '仅管理员可以维护全局参数',
  saved: '保存成功',
  deleted: '删除成功!',
  total: (n: number) => `共 ${n} 条`,
} as const;

/** Data type labels of a parameter (spec 2 §9: STRING string, DATETIME date/time, NUMBER number). */
export const PARAM_TYPE_LABELS: Record<ViewDataType, string> = {
  STRING: '字符串',
  DATETIME: '日期',
  NUMBER: '数值',
};
