/**
 * The order-data export: messages and constants without zod (docs/web-performance.md "Schema-free contracts"): the
 * app shell's page list imports them from here and evaluates no schema; orderexport.ts re-exports them.
 */

export const orderExportMessages = {
  required: '请选择',
  taskNameRequired: '请输入任务名称',
  phoneTooLong: '手机号最多11个字符',
  txtOnly: '只支持导入txt文件',
  tooManyPhones: '手机号码不能超过{max}行',
  noPhones: '文件中没有手机号码',
  monthRangeTooLong: '请选择6个月范围内',
  tooManyProducts: '最多选择10个',
  fileNotReady: '文件还未生成',
  fileExpired: '文件已超过保留期限（{days}天）被清理，请重新提交查询',
  taskNotFound: '任务不存在',
  jobsOff: '任务服务未启动',
  submitted: '已提交',
  saved: '保存成功',
  reminderTitle: '数据计算提醒',
  reminderText: '数据量较大，结果约12小时后生成，请输入任务名称，稍后在任务列表中查看和下载',
  dayRangeReversed: '开始日期不能晚于结束日期',
  failedSelect: '筛选用户失败',
  failedExtract: '提取数据失败',
  failedFile: '生成文件失败',
} as const;

export const ORDER_EXPORT_STATUS_LABELS: Record<OrderExportStatus, string> = {
  0: '等待筛选用户',
  1: '正在筛选用户',
  2: '用户筛选完成',
  3: '用户筛选失败',
  4: '开始提取数据',
  5: '数据提取完成',
  6: '数据提取失败',
  7: '开始生成导出文件',
  8: '生成文件失败',
  9: '文件生成完成',
};

/** utype: 1 one phone, 2 a batch txt of phones, 3 every user (decision: docs/order-export.md). */
export const ORDER_EXPORT_USER_SCOPES = { 1: '单个号码', 2: '批量导入', 3: '全部用户' } as const;

/** CUsertype: 1 ordering users (order day/channel), 2 cancelling users (cancel day/channel). */
export const ORDER_EXPORT_USER_TYPES = { 1: '订购用户', 2: '退订用户' } as const;

/** taskStatus1 (spec 3 §4): the pipeline's steps, in order. */
export const ORDER_EXPORT_STATUS = {
  waitingUsers: 0,
  selectingUsers: 1,
  usersDone: 2,
  usersFailed: 3,
  extracting: 4,
  extracted: 5,
  extractFailed: 6,
  generating: 7,
  fileFailed: 8,
  fileDone: 9,
} as const;
export type OrderExportStatus = (typeof ORDER_EXPORT_STATUS)[keyof typeof ORDER_EXPORT_STATUS];
