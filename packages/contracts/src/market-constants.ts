/**
 * Marketing task statistics: messages and constants without zod (docs/web-performance.md "Schema-free contracts"): the
 * app shell's page list imports them from here and evaluates no schema; market.ts re-exports them.
 */

export const MARKET_TASK_TYPES = { 1: '激活', 2: '营销漏斗', 3: '领取' } as const;

export const marketMessages = {
  taskNotFound: '营销任务不存在',
  dayFormat: '日期格式应为yyyyMMdd',
  monthFormat: '月份格式应为yyyyMM',
  rangeReversed: '开始日期不能晚于结束日期',
} as const;
