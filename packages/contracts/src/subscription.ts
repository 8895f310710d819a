import { z } from 'zod';
import { MAX_PAGE_SIZE } from './envelope.ts';
import { requiredText } from './common.ts';

/**
 * Subscriptions (spec 1 §2.9, §2.10, §3 "Subscription form", "Subscription log", §4, §5, §7
 * "Subscription save / check", "Subscription log", §9): a user subscribes to a dashboard, a
 * self-service report or a slideshow; a scheduler renders it at the chosen times (wall-clock times of 系统设置 → 时区, time-zone.ts)
 * and sends the images (or a PDF) by email or to a WeCom / DingTalk / Feishu group robot or the
 * tianxiangyun webhook. Every send writes a subscription log row. docs/subscriptions.md.
 */

export const subscriptionMessages = {
  notifyTitleRequired: '请输入通知标题',
  subscribed: '已订阅',
  saved: '已保存',
  deleted: '已删除',
  notFound: '订阅不存在',
  logNotFound: '订阅日志不存在',
  notOwned: '只能修改自己的订阅',
  emailServerMissing: '未配置邮件服务器，请联系管理员',
  userEmailMissing: '请先在个人设置中填写邮箱',
  qywechatMissing: '未配置企业微信机器人，请联系管理员',
  dingtalkMissing: '未配置钉钉机器人，请联系管理员',
  feishuMissing: '未配置飞书机器人，请联系管理员',
  tianxiangyunMissing: '未配置天象云推送地址，请联系管理员',
  usable: '可以使用',
  pptNotFound: '幻灯片不存在',
  nothingToSend: '没有可发送的大屏',
  sendQueued: '已加入发送队列',
  jobsOff: '任务服务未启动',
  userMissing: '订阅用户不存在或已停用',
} as const;

export const SUBSCRIPTION_DATA_TYPES = ['visual', 'report', 'ppt'] as const;
export type SubscriptionDataType = (typeof SUBSCRIPTION_DATA_TYPES)[number];
export const SUBSCRIPTION_DATA_TYPE_LABELS: Record<SubscriptionDataType, string> = { visual: '大屏', report: '自助报表', ppt: '幻灯片' };

export const NOTIFY_TYPES = ['email', 'qywechat', 'dingtalk', 'feishu', 'tianxiangyun'] as const;
export type NotifyType = (typeof NOTIFY_TYPES)[number];
export const NOTIFY_TYPE_LABELS: Record<NotifyType, string> = { email: '邮件', qywechat: '企业微信', dingtalk: '钉钉', feishu: '飞书', tianxiangyun: '天象云' };

export const TRIGGER_PERIODS = ['day', 'week', 'month'] as const;
export type TriggerPeriod = (typeof TRIGGER_PERIODS)[number];
export const TRIGGER_PERIOD_LABELS: Record<TriggerPeriod, string> = { day: '日', week: '周', month: '月' };

export const SUBSCRIPTION_FORMATS = ['image', 'pdf'] as const;
export type SubscriptionFormat = (typeof SUBSCRIPTION_FORMATS)[number];
export const SUBSCRIPTION_FORMAT_LABELS: Record<SubscriptionFormat, string> = { image: '图片', pdf: 'PDF' };

/** Hours of the day period: all 24 (the old product's list ran 1–23; docs/subscriptions.md). */
export const TRIGGER_HOURS = Array.from({ length: 24 }, (_, h) => h);
/** Week values: 1 = Sunday … 7 = Saturday (spec 1 §9). */
export const TRIGGER_WEEK_VALUES = [1, 2, 3, 4, 5, 6, 7] as const;
export const WEEKDAY_LABELS: Record<number, string> = { 1: '周日', 2: '周一', 3: '周二', 4: '周三', 5: '周四', 6: '周五', 7: '周六' };
/** Days of the month period: 1–30 (spec 1 §9). */
export const TRIGGER_DAY_VALUES = Array.from({ length: 30 }, (_, d) => d + 1);
/** Log page sizes (spec 1 §9). */
export const SUBSCRIPTION_LOG_PAGE_SIZES = [10, 20, 50, 100] as const;
export const NOTIFY_TITLE_MAX_LENGTH = 100;
/** The pg-boss job that sends one subscription for one due time. */
export const SUBSCRIPTION_SEND_JOB = 'subscription-send';
/** The per-minute job that finds due subscriptions. */
export const SUBSCRIPTION_TICK_JOB = 'subscription-tick';

/** Subscription save (spec 1 §3 "Subscription form"); no id creates. */
export const subscriptionSaveSchema = z.object({
  id: z.number().int().positive().nullish(),
  dataType: z.enum(SUBSCRIPTION_DATA_TYPES),
  dataId: z.number().int().positive(),
  subTitle: z.string().trim().max(200).default(''),
  notifyTitle: requiredText(subscriptionMessages.notifyTitleRequired, NOTIFY_TITLE_MAX_LENGTH),
  notifyType: z.enum(NOTIFY_TYPES).default('email'),
  triggerPeriod: z.enum(TRIGGER_PERIODS).default('day'),
  triggerHour: z.number().int().min(0).max(23).default(8),
  triggerWeekValue: z.number().int().min(1).max(7).default(2),
  triggerDayValue: z.number().int().min(1).max(30).default(1),
  format: z.enum(SUBSCRIPTION_FORMATS).default('image'),
  enabled: z.boolean().default(true),
});
export type SubscriptionSave = z.input<typeof subscriptionSaveSchema>;

export const subscriptionSchema = z.object({
  id: z.number(),
  userId: z.number(),
  userName: z.string().nullable(),
  dataType: z.enum(SUBSCRIPTION_DATA_TYPES),
  dataId: z.number(),
  subTitle: z.string(),
  notifyTitle: z.string(),
  notifyType: z.enum(NOTIFY_TYPES),
  triggerPeriod: z.enum(TRIGGER_PERIODS),
  triggerHour: z.number(),
  triggerWeekValue: z.number(),
  triggerDayValue: z.number(),
  format: z.enum(SUBSCRIPTION_FORMATS),
  enabled: z.boolean(),
  createTime: z.string(),
  /** The next due time (ISO), for the list. */
  nextTime: z.string().nullable(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const subscriptionListQuerySchema = z.object({
  current: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
  dataType: z.enum(SUBSCRIPTION_DATA_TYPES).optional(),
  dataId: z.coerce.number().int().positive().optional(),
});
export type SubscriptionListQuery = z.input<typeof subscriptionListQuerySchema>;

export const subscriptionEnabledSchema = z.object({ enabled: z.boolean() });

/** Subscription check (spec 1 §7): data 0 = usable, else not, with the reason in msg. */
export const subscriptionCheckSchema = z.object({ notifyType: z.enum(NOTIFY_TYPES) });
export type SubscriptionCheck = z.infer<typeof subscriptionCheckSchema>;

export const SUBSCRIPTION_LOG_STATES = ['pending', 'sent', 'failed'] as const;
export type SubscriptionLogState = (typeof SUBSCRIPTION_LOG_STATES)[number];

/** A subscription log row (spec 1 §3 "Subscription log"); errCode 0 success, otherwise failure. */
export const subscriptionLogSchema = z.object({
  id: z.number(),
  subscriptionId: z.number().nullable(),
  subTitle: z.string(),
  dataType: z.enum(SUBSCRIPTION_DATA_TYPES),
  dataId: z.number(),
  userId: z.number().nullable(),
  userName: z.string().nullable(),
  notifyType: z.enum(NOTIFY_TYPES),
  state: z.enum(SUBSCRIPTION_LOG_STATES),
  errCode: z.number(),
  errMsg: z.string().nullable(),
  /** What was sent: the notification title and the file names. */
  content: z.string().nullable(),
  /** The due time this send served (ISO). */
  slot: z.string(),
  createTime: z.string(),
});
export type SubscriptionLog = z.infer<typeof subscriptionLogSchema>;

const optionalNumber = z.preprocess((v) => (v === '' || v === null ? undefined : v), z.coerce.number().int().optional());
const optionalDate = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}/)
    .optional(),
);

/** Log list (spec 1 §7): size, current, subTitle, dataType, userId, dataId, errCode, startTime, endTime (yyyy-MM-dd, end exclusive). */
export const subscriptionLogQuerySchema = z.object({
  current: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
  subTitle: z.string().trim().max(200).optional(),
  dataType: z.preprocess((v) => (v === '' ? undefined : v), z.enum(SUBSCRIPTION_DATA_TYPES).optional()),
  userId: optionalNumber,
  dataId: optionalNumber,
  errCode: optionalNumber,
  startTime: optionalDate,
  endTime: optionalDate,
});
export type SubscriptionLogQuery = z.input<typeof subscriptionLogQuerySchema>;

/** Where a log row's 预览 goes (spec 1 §2.9). */
export function subscriptionPreviewPath(dataType: SubscriptionDataType, dataId: number): string {
  return dataType === 'ppt' ? `/fullpowerpoint/${dataId}/0` : `/newbi/preview/${dataId}`;
}
