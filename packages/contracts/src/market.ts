import { z } from 'zod';
import { pageQuerySchema } from './envelope.ts';
import { marketMessages } from './market-constants.ts';

export * from './market-constants.ts';

/**
 * Marketing task statistics (spec 3 §2 "Marketing task statistics panel", §3 "Marketing task",
 * §4, §7 "Marketing task statistics", §9; issue 20; docs/order-export.md "Marketing task statistics").
 */

/** Months of the retention table (spec 3 §9). */
export const MARKET_RETENTION_MONTHS = 24;
/** Height of the daily tracking table (spec 3 §9). */
export const MARKET_TABLE_HEIGHT = 280;
export const MARKET_BAR_MAX_WIDTH = 30;
export const MARKET_ZOOM_POINTS = 10;

export const marketTaskSchema = z.object({
  taskId: z.string(),
  missionName: z.string(),
  taskType: z.number(),
  taskTypeName: z.string(),
  channelId: z.string(),
  channelName: z.string(),
  targetGroupNumber: z.number(),
  addTime: z.string(),
  pushTime: z.string(),
});
export type MarketTask = z.infer<typeof marketTaskSchema>;

export const marketTaskListQuerySchema = pageQuerySchema.extend({
  missionName: z.string().trim().max(100).optional(),
  taskType: z.coerce.number().int().min(1).max(3).optional(),
});

const day = z.string().regex(/^\d{8}$/, marketMessages.dayFormat);
const month = z.string().regex(/^\d{6}$/, marketMessages.monthFormat);
export const marketDailyQuerySchema = z
  .object({ task_id: z.string().min(1).max(50), start: day, end: day })
  .refine((q) => q.start <= q.end, { message: marketMessages.rangeReversed, path: ['end'] });
export const marketChartQuerySchema = z
  .object({ task_id: z.string().min(1).max(50), channel: z.string().max(50).optional(), start: day, end: day })
  .refine((q) => q.start <= q.end, { message: marketMessages.rangeReversed, path: ['end'] });
export const marketKeepQuerySchema = z
  .object({ task_id: z.string().min(1).max(50), channel: z.string().max(50).optional(), start: month, end: month })
  .refine((q) => q.start <= q.end, { message: marketMessages.rangeReversed, path: ['end'] });

/** Activation (type 1) and receive (type 3) daily rows: rates are fractions. */
export const marketDailyRowSchema = z.object({
  dt: z.string(),
  total_send_message: z.number(),
  activate_num: z.number().optional(),
  activate_num_rate: z.number().optional(),
  receives_num: z.number().optional(),
  receive_num_rate: z.number().optional(),
  cancels_num: z.number(),
  cancel_num_rate: z.number(),
});
export type MarketDailyRow = z.infer<typeof marketDailyRowSchema>;
/** Funnel by day: 产品浏览, 统一认证, 订购次数, 订购成功次数. */
export const marketFunnelRowSchema = z.object({
  dt: z.string(),
  productViews: z.number(),
  unifiedAuth: z.number(),
  orderAttempts: z.number(),
  orderSuccess: z.number(),
});
export type MarketFunnelRow = z.infer<typeof marketFunnelRowSchema>;
/** Retention: 月份, 订购用户数, 第1月留存 … 第24月留存 (null where the month has not come yet). */
export const marketKeepRowSchema = z.object({ month: z.string(), orderUsers: z.number(), retained: z.array(z.number().nullable()) });
export type MarketKeepRow = z.infer<typeof marketKeepRowSchema>;

export { MARKET_PATHS } from './constants.ts';
