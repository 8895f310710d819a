/** Texts of the field preview dialog and the field-selection drawer (spec 2 §2 "Dialogs and drawers"). */
export const fpm = {
  title: '字段预览',
  columns: '字段',
  rows: '数据预览',
  name: '字段名',
  type: '类型',
  comment: '注释',
  preview: '预览字段',
  selectFields: '选择字段',
  selectAll: '全选',
  invert: '反选',
  search: '搜索字段',
  selected: '已选 {n} / {total} 个字段',
  confirm: '确定',
  cancel: '取消',
} as const;
