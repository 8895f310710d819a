import { z } from 'zod';
import { MAX_PAGE_SIZE, pageQuerySchema } from './envelope.ts';
import { cdpMessages } from './cdp-constants.ts';

export * from './cdp-constants.ts';

/**
 * Connected platforms (spec 3 §2 "Connection information page", "Join log page", "Join list",
 * "Official-account page", "Fan list", §3 "Connected app and platform", §7; spec 1 §2.11 "Join
 * callback", §9; spec 2 §7 "System settings and platforms"; issue 21; docs/platforms.md).
 */

/** Platform types (spec 1 §9). */
export const PLATFORM_TYPES = { 0: '内容平台', 1: '电商平台', 2: '自有平台' } as const;
/** Auth types = join types (spec 1 §9). */
export const ACCESS_TYPES = { 0: '扫码授权', 1: 'API接入', 2: '数据库导入', 3: 'SDK接入' } as const;
/** Request-cycle units (spec 1 §9: day, hour, minute, second). */
export const CYCLE_UNITS = ['day', 'hour', 'minute', 'second'] as const;
export type CycleUnit = (typeof CYCLE_UNITS)[number];
export const CYCLE_UNIT_LABELS: Record<CycleUnit, string> = { day: '天', hour: '小时', minute: '分钟', second: '秒' };
export const CYCLE_UNIT_SECONDS: Record<CycleUnit, number> = { day: 86_400, hour: 3_600, minute: 60, second: 1 };
/** What an interface pulls: followers (user/get + user/info/batchget) or the daily analytics. */
export const INTERFACE_KINDS = { fans: '粉丝列表', user_summary: '用户增减数据', user_cumulate: '累计用户数据' } as const;
export type InterfaceKind = keyof typeof INTERFACE_KINDS;
/** Join-list page sizes (spec 3 §9): default 10. Fans default 30 with 1000 and all. */
export const JOIN_PAGE_SIZES = [10, 20, 50, 100] as const;
export const FAN_PAGE_SIZES = [30, 50, 100, 1000] as const;
export const FAN_PAGE_ALL = MAX_PAGE_SIZE;
/** An empty cancel time in the join list (spec 3 §2). */
export const EMPTY_TIME = '- -';
export const SEX_LABELS: Record<number, string> = { 0: '未知', 1: '男', 2: '女' };
/** Where the join callback page lives: the redirect_uri handed to the platform. */
export const JOIN_CALLBACK_ROUTE = '/cdp/join/callback';
/** Local-storage key the new-authorisation dialog leaves for the callback page (spec 1 §2.11). */
export const PLATFORM_DICT_KEY = 'platformDictId';

/** Why a pull failed, as written in the log (failReason), by the platform's error code. */
export const PLATFORM_ERRORS: Record<number, string> = {
  40001: '获取 access_token 时 AppSecret 错误，或者 access_token 无效（40001）',
  42001: 'access_token 超时（42001）',
  45009: '接口调用超过每日限额（45009）',
  61023: 'refresh_token 已失效，请重新授权（61023）',
};

const id = z.coerce.number().int().positive();
const trimmed = (max: number) => z.string().trim().max(max);

export const platformInterfaceSchema = z.object({
  id: z.number(),
  interfaceName: z.string(),
  /** "0": pulled from the platform (manual pull offered); other values are filled otherwise. */
  dataType: z.string(),
  kind: z.enum(['fans', 'user_summary', 'user_cumulate']),
  tableName: z.string(),
});
export type PlatformInterface = z.infer<typeof platformInterfaceSchema>;

/** A platform type as the browser sees it: secrets only as "set" flags. */
export const platformTypeSchema = z.object({
  id: z.number(),
  platformName: z.string(),
  platformType: z.number(),
  accessType: z.number(),
  accessUrl: z.string(),
  icon: z.string(),
  apiBaseUrl: z.string(),
  authPageUrl: z.string(),
  componentAppId: z.string(),
  hasAppSecret: z.boolean(),
  hasMessageToken: z.boolean(),
  /** When the last component_verify_ticket arrived (null: none yet). */
  ticketTime: z.string().nullable(),
  datasourceId: z.number().nullable(),
  interfaces: z.array(platformInterfaceSchema),
});
export type PlatformType = z.infer<typeof platformTypeSchema>;

export const platformInterfaceInputSchema = z.object({
  id: z.number().int().positive().optional(),
  interfaceName: trimmed(50).min(1, cdpMessages.interfaceNameRequired),
  dataType: z.enum(['0', '1']).default('0'),
  kind: z.enum(['fans', 'user_summary', 'user_cumulate']),
  tableName: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9_]{0,62}$/, cdpMessages.tableNameInvalid),
});
const httpUrl = z
  .string()
  .trim()
  .max(300)
  .regex(/^https?:\/\/[^\s]+$/, cdpMessages.apiBaseUrlInvalid);

/** Save a platform type; an empty or absent secret keeps the stored one. */
export const platformTypeInputSchema = z.object({
  id: z.number().int().positive().optional(),
  platformName: trimmed(50).min(1, cdpMessages.platformNameRequired),
  platformType: z.number().int().min(0).max(2),
  accessType: z.number().int().min(0).max(3),
  // The browser POSTs to it with the user's token: only this server's own API paths.
  accessUrl: trimmed(300)
    .min(1, cdpMessages.accessUrlRequired)
    .regex(/^\/api\/[A-Za-z0-9/_-]+$/, cdpMessages.accessUrlInvalid),
  icon: trimmed(500).default(''),
  apiBaseUrl: httpUrl,
  authPageUrl: httpUrl,
  componentAppId: trimmed(64).default(''),
  componentAppSecret: z.string().max(200).optional(),
  messageToken: z.string().max(200).optional(),
  datasourceId: z.number().int().positive().nullable().default(null),
  interfaces: z.array(platformInterfaceInputSchema).max(20).default([]),
});
export type PlatformTypeInput = z.input<typeof platformTypeInputSchema>;

/** Connected app (join record, spec 3 §3). */
export const joinAppSchema = z.object({
  id: z.number(),
  appName: z.string(),
  appIcon: z.string(),
  signature: z.string(),
  authorizerAppId: z.string(),
  status: z.number(),
  authTime: z.string().nullable(),
  cancelAuthTime: z.string().nullable(),
  platformDictId: z.number(),
  platformName: z.string(),
  /** Join-type label of the platform's accessType. */
  joinType: z.string(),
});
export type JoinApp = z.infer<typeof joinAppSchema>;

export const joinPageQuerySchema = pageQuerySchema.extend({ appName: trimmed(100).optional() });
export const joinCallbackSchema = z.object({
  platformDictId: z.coerce.number({ message: cdpMessages.platformDictRequired }).int().positive(cdpMessages.platformDictRequired),
  auth_code: z.string().trim().min(1, cdpMessages.authCodeRequired).max(512),
});
export const authUrlInputSchema = z.object({ platformDictId: id });

/** Data task (spec 3 §3): one per interface of an app. */
export const dataTaskSchema = z.object({
  id: z.number(),
  interfaceName: z.string(),
  dataType: z.string(),
  applyId: z.number(),
  interfaceDictId: z.number(),
  jobId: z.string(),
  unit: z.enum(CYCLE_UNITS).nullable(),
  value: z.number().nullable(),
  tableName: z.string(),
  lastPullTime: z.string().nullable(),
  lastResult: z.boolean().nullable(),
});
export type DataTask = z.infer<typeof dataTaskSchema>;

export const taskListQuerySchema = pageQuerySchema.extend({ applyId: id });
export const taskDataQuerySchema = pageQuerySchema.extend({ applyId: id, interfaceDictId: id });
export const taskDataSchema = z.object({
  column: z.array(z.object({ prop: z.string(), label: z.string() })),
  count: z.number(),
  data: z.array(z.record(z.string(), z.unknown())),
});
export type TaskData = z.infer<typeof taskDataSchema>;
export const taskUpdateSchema = z.object({
  id: z.number().int().positive(),
  unit: z.enum(CYCLE_UNITS, { message: cdpMessages.cycleUnitRequired }),
  value: z.number({ message: cdpMessages.cycleValueRequired }).int(cdpMessages.cycleValueRequired).min(1, cdpMessages.cycleValueRequired).max(100_000),
});
export const taskRefreshSchema = z.object({ jobId: z.string().uuid() });

/** Pull log (spec 3 §3 "Log"). */
export const pullLogSchema = z.object({
  id: z.number(),
  createTime: z.string(),
  appName: z.string(),
  interfaceName: z.string(),
  taskId: z.number(),
  amount: z.number(),
  result: z.boolean(),
  failReason: z.string(),
});
export type PullLog = z.infer<typeof pullLogSchema>;
/** Instants as ISO 8601 (the page sends its local datetime range converted). */
const dateTime = z.string().datetime({ offset: true, message: '时间格式应为 ISO 8601' });
export const logListQuerySchema = pageQuerySchema
  .extend({ applyId: id, taskId: id.optional(), startDate: dateTime.optional(), endDate: dateTime.optional() })
  .refine((q) => !q.startDate || !q.endDate || Date.parse(q.startDate) <= Date.parse(q.endDate), { message: cdpMessages.dateRange, path: ['endDate'] });

/** Official-account card (spec 3 §2). */
export const officialAccountSchema = z.object({ id: z.number(), headImg: z.string(), nickName: z.string(), signature: z.string(), status: z.number() });
export type OfficialAccount = z.infer<typeof officialAccountSchema>;

/** A fan: the platform's values and the local edit, when there is one. */
export const fanSchema = z.object({
  applyId: z.number(),
  appName: z.string(),
  openid: z.string(),
  nickname: z.string(),
  sex: z.number(),
  headimgurl: z.string(),
  platform: z.object({ nickname: z.string(), sex: z.number(), headimgurl: z.string() }),
  edited: z.boolean(),
  subscribeTime: z.string().nullable(),
});
export type Fan = z.infer<typeof fanSchema>;
export const fanPageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(30),
  applyId: id.optional(),
});
export const fanEditSchema = z.object({
  applyId: z.number().int().positive(),
  openid: z.string().min(1).max(64),
  nickname: trimmed(100),
  sex: z.number().int().min(0).max(2),
  headimgurl: trimmed(500),
});

export { CDP_PATHS } from './constants.ts';

export const CDP_TICK_JOB = 'cdp-pull-tick';
export const CDP_PULL_JOB = 'cdp-pull';
