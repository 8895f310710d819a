import { cubeMessages, datasetMessages } from '@shutu/contracts';

/**
 * Texts of the filter tree editor and the dataset permission-filter dialog (zh-CN, spec 2
 * §2 "Dataset permission filter dialog", §4, §5 "Permission filter and global filter").
 * Server-shared texts come from the contracts catalogues.
 */
export const fm = {
  ...cubeMessages,
  ...datasetMessages,
  // filter tree editor
  relationAnd: '且',
  relationOr: '或',
  addCondition: '添加条件',
  setCondition: '设置条件',
  addConditionRow: '添加',
  nest: '嵌套',
  remove: '删除',
  removeCondition: '删除条件',
  dragHandle: '拖动',
  fieldPlaceholder: '请选择字段',
  functionPlaceholder: '请选择条件',
  valuePlaceholder: '请输入值',
  valuesPlaceholder: '输入后回车添加多个值',
  datePlaceholder: '请选择日期',
  rangeStart: '开始日期',
  rangeEnd: '结束日期',
  timeAbsolute: '绝对时间',
  timeRelative: '相对时间',
  countLeft: '前',
  countRight: '后',
  useParam: '使用全局参数',
  paramPlaceholder: '请选择全局参数',
  noConditions: '暂无过滤条件，所有数据可见',
  groupTitle: '条件组',
  dropHint: '拖拽条件到此处',
  fieldMissing: '字段已不存在',
  // tree validation (first problem found)
  treeFieldMissing: '请为每个过滤条件选择字段',
  treeParamMissing: '过滤条件【{title}】未设置全局参数',
  // permission-filter dialog
  dialogTitle: '权限过滤器',
  add: '添加',
  update: '更新',
  delete: '删除',
  confirmDelete: '确定删除?',
  confirmTitle: '提示',
  confirm: '确定',
  cancel: '取消',
  close: '关闭',
  name: '过滤器名称',
  namePlaceholder: '请输入过滤器名称',
  group: '权限组',
  rows: '过滤条件',
  excluded: '排除字段',
  excludedPlaceholder: '选择该权限组不可见的字段',
  empty: '暂无权限过滤器',
  emptyHint: '暂无权限过滤器，请点击“添加”新建',
  unsaved: '未保存',
  noFields: '数据集还没有字段，请先保存数据集',
  collapseCondition: '收起条件',
  saved: '保存成功',
  deleted: '删除成功!',
} as const;
