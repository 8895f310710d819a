/** The AI panels' texts (zh-CN). */
export const am = {
  sqlButton: 'AI 生成 SQL',
  sqlTitle: 'AI 生成 SQL',
  questionLabel: '想查询什么？',
  questionPlaceholder: '例如：最近一个月各省订购成功的订单数，从高到低',
  generate: '生成',
  regenerate: '重新生成',
  generating: 'AI 正在生成并校验 SQL…',
  useSql: '使用此SQL',
  sqlLabel: 'SQL',
  explanationLabel: '说明',
  previewLabel: '预览',
  repaired: '已根据执行错误自动修正 {count} 次',
  repairedDetail: '第 {n} 次：{error}',
  tablesUsed: '参考的表：{tables}',
  notice: 'SQL 由 AI 生成，已通过校验并在数据源上试运行；请确认结果符合预期后再使用。',
  formulaButton: 'AI 生成公式',
  formulaLabel: '描述要计算的字段',
  formulaPlaceholder: '例如：订购金额的两倍；或：手机号前三位',
  useFormula: '使用此公式',
  formulaResult: '生成的公式',
  aggregates: '包含聚合',
  close: '关闭',
} as const;

export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}
