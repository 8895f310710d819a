/**
 * The click heat map: messages and constants without zod (docs/web-performance.md "Schema-free contracts"): the
 * app shell's page list imports them from here and evaluates no schema; heatmap.ts re-exports them.
 */

export const heatmapMessages = {
  // spec 1 §5
  dateRangeRequired: '请选择日期范围',
  // ours
  dateRangeOrder: '结束日期不能早于开始日期',
  titleRequired: '请选择网站',
  phoneRequired: '请输入手机号',
  phoneInvalid: '手机号格式不正确',
  phoneUnknown: '未找到手机号【{phone}】对应的用户',
  warehouseMissing: '内置数据仓库不存在，无法查询热力图',
  // the tracker's batches
  batchNotJson: '事件批次不是合法的 JSON',
  batchInvalid: '事件批次格式不正确：{detail}',
  batchEventInvalid: '事件批次格式不正确：第 {index} 条事件的 {field} 不合法',
  writeKeyUnknown: '写入密钥无效',
  stopping: '服务正在停止，请稍后重试',
} as const;
