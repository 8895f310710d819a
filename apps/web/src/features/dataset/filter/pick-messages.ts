/** Texts of the filter value sources (issue 28). */
export const pm = {
  source: '值来源',
  typed: '手动输入',
  manual: '自定义列表',
  distinct: '字段的值',
  api: '数据接口',
  dict: '字典',
  manualPlaceholder: '输入可选值，回车添加',
  apiPlaceholder: '选择数据接口',
  dictPlaceholder: '选择字典',
  pickPlaceholder: '请选择',
  loadFailed: '可选值加载失败：',
} as const;
