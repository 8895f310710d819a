/**
 * Audiences: messages and constants without zod (docs/web-performance.md "Schema-free contracts"): the
 * app shell's page list imports them from here and evaluates no schema; audience.ts re-exports them.
 */

export const audienceMessages = {
  // spec 3 §5 "Audience save"
  nameRequired: '请输入人群名称',
  categoryRequired: '请选择人群分类',
  keyFieldRequired: '请选择数据集【{cube}】的主键字段',
  previewKeyRequired: '请选择数据集主键字段',
  cubeUsedTwice: '该数据集已选用过',
  // spec 3 §5 "Import group" and the tag-driven editor
  importNameRequired: '请填写人群名称',
  importFileType: '只支持导入xlsx、xls或txt文件',
  notFound: '人群不存在',
  updateConfirm: '更新人群后将会重新整理分析数据，确定更新吗？',
  // ours
  rulesRequired: '请至少拖入一个数据集',
  tooManyOutputs: '输出字段最多选择5个',
  oneKeyField: '主键字段只能选择一个',
  fieldNotInCube: '字段不属于数据集【{cube}】',
  mixedSources: '人群中的数据集必须来自同一个数据源',
  importNeedsWarehouse: '导入人群只能与示例数据仓库中的数据集组合',
  audienceRuleSelf: '人群不能引用自己',
  audienceRuleKind: '只能引用已计算完成的人群',
  importFileRequired: '请选择要导入的文件',
  importOneFile: '一次只能导入一个文件',
  importEmpty: '文件中没有有效的手机号',
  importTooLarge: '文件不能超过 {max} MB',
  categoryNameRequired: '请输入分类名称',
  categoryExists: '分类名称已存在',
  notOwner: '只能修改或删除自己创建的人群',
  refreshRunning: '人群正在计算，请稍后',
  notReady: '人群尚未计算完成',
  jobsOff: '任务服务未启动',
  monthRangeInvalid: '分析月份的开始不能晚于结束',
  // success toasts (spec 3 §8)
  saved: '保存成功',
  refreshed: '已刷新',
  submitted: '已提交',
  imported: '导入成功',
  done: '操作成功!',
} as const;

export const AUDIENCE_REQUEST_FREQ_LABELS: Record<number, string> = { 0: '立即', 1: '每天', 2: '每周', 3: '每月' };
