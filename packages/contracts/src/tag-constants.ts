/**
 * Tags: messages and constants without zod (docs/web-performance.md "Schema-free contracts"): the
 * app shell's page list imports them from here and evaluates no schema; tag.ts re-exports them.
 */

export const tagMessages = {
  tagNotFound: '标签不存在',
  monthFormat: '月份格式应为yyyy-MM',
  rangeReversed: '开始月份不能晚于结束月份',
  rangeTooLong: '月份范围不能超过36个月',
  noData: '暂无数据',
  // Tag-driven audience (spec 3 §5, §8).
  groupNameRequired: '请填写人群名称',
  groupNotFound: '人群不存在',
  updateConfirm: '更新人群后将会重新整理分析数据，确定更新吗？',
  rulesRequired: '请至少添加一个标签规则',
  ruleValuesRequired: '请选择标签【{name}】的取值',
  conditionValue: '条件值应为数字',
  conditionText: '请填写条件值',
  conditionFunc: '该标签不支持此条件',
  importKind: '只能选择导入人群',
  compareNeedsGroups: '请选择要对比的人群',
  compareTooMany: '最多对比{max}个人群',
  saved: '保存成功',
  updated: '已更新',
} as const;

/** Field labels of a tag (spec 1 §3 "Tag"). */
export const TAG_FIELD_LABELS = {
  tagId: '标签编号',
  tagName: '标签名称',
  level1Name: '一级分类',
  level2Name: '二级分类',
  userType: '用户类型',
  tagDesc: '标签说明',
  tagType: '标签类型',
  developType: '开发方式',
  exclusion: '互斥',
  isOnline: '状态',
} as const;

export const TAG_TYPES = { 1: '分类', 2: '统计' } as const;

export const TAG_DEVELOP_TYPES = { 1: '算法', 2: '非算法' } as const;

export const TAG_EXCLUSION = { 1: '互斥', 2: '不互斥' } as const;

export const TAG_ONLINE = { 1: '使用中', 2: '已停用' } as const;

export const CONDITION_FUNC_LABELS = { eq: '等于', gt: '大于', ge: '大于等于', lt: '小于', le: '小于等于', like: '模糊匹配' } as const;

export const PROFILE_LABELS = {
  size: '人群规模',
  provinces: '省份分布',
  areas: '地市分布',
  products: '产品偏好',
  channels: '渠道偏好',
  usage: '流量使用水平',
  tags: '热门标签',
  diff: '人群差异',
  both: '共有用户',
  onlyA: '仅在{name}',
} as const;
