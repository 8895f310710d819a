import { z } from 'zod';
import { pageQuerySchema } from './envelope.ts';
import { AGGREGATION_TYPES, FILTER_FUNCTIONS, VIEW_DATA_TYPES, filterConditionSchema } from './cube.ts';
import { NOTIFY_TYPES } from './subscription.ts';
import { orBase64Payload } from './query.ts';

/**
 * Alerts (预警; spec 3 §1, §2 "Alert editor", §3 "Alert (warning)", "Alert time config", "Field",
 * "Filter", §4 "Alert", §5 "Alert save", §7 "Alert", §9; issue 19; docs/alerts.md): an analyst
 * watches measures of a dataset over a time window computed from the check's instant; a check
 * whose query returns rows (the measure thresholds are having-conditions) fires the alert and
 * notifies the chosen users by email, the group robots, SMS or a third-party push.
 */

export const alertMessages = {
  // spec 3 §5 "Alert save", in the editor's order (the spec gives them in English but 请完成表单)
  formIncomplete: '请完成表单',
  recipientsRequired: '请选择预警人员',
  fieldsIncomplete: '请完善字段',
  pushWayRequired: '第三方推送请至少选择一种触达方式',
  pushContentRequired: '请完善推送内容',
  smsTemplateRequired: '请选择短信模板',
  smsParamMissing: '请完成【{variable}】字段参数',
  previewNeedsFields: '预览需要至少一个指标和一个时间字段',
  tooManyDimensions: '维度最多选择5个',
  tooManyMeasures: '指标最多选择5个',
  // ours
  requestFreqMin: '请求频率不能少于60秒',
  windowInverted: '时间范围的开始不能晚于结束',
  timeTypeColumnRequired: '特殊计算方式需要选择时间类型字段',
  fieldNotInDataset: '字段【{name}】不属于所选数据集',
  thresholdOnDimension: '字段【{name}】是维度，不能作为指标阈值',
  quietHoursInvalid: '免打扰时间格式应为 HH:mm',
  notFound: '预警不存在',
  checkNotFound: '检查记录不存在',
  notOwner: '只能修改或删除自己创建的预警',
  checkQueued: '已加入检查队列',
  jobsOff: '任务服务未启动',
  // success toasts (spec 3 §8)
  saved: '保存成功',
  done: '操作成功!',
} as const;

/** spec 3 §9 */
export const ALERT_REQUEST_FREQ_DEFAULT = 300;
/** Ours: a check at most once a minute (the scheduler's resolution). */
export const ALERT_REQUEST_FREQ_MIN = 60;
export const ALERT_MAX_DIMENSIONS = 5;
export const ALERT_MAX_MEASURES = 5;
/** Ours (docs/alerts.md): while it keeps firing, notify again at most once a day. */
export const ALERT_REPEAT_DEFAULT_SECONDS = 86_400;
/** Rows of a firing check listed in a message. */
export const ALERT_MESSAGE_ROWS = 10;
/** Rows of a firing check kept with its log row (shown in 预警日志, sent with the third-party push). */
export const ALERT_LOG_ROWS = 100;
export const ALERT_CHECK_JOB = 'alert-check';
export const ALERT_TICK_JOB = 'alert-tick';

export const ALERT_TIME_TYPES = ['QUARTER', 'MONTH', 'DAY'] as const;
export type AlertTimeType = (typeof ALERT_TIME_TYPES)[number];
export const ALERT_TIME_TYPE_LABELS: Record<AlertTimeType, string> = { QUARTER: '季', MONTH: '月', DAY: '日' };
export const ALERT_CALC_TYPES = ['NORMAL', 'SPECIAL'] as const;
export const ALERT_MODIFIERS = ['BEFORE', 'AFTER'] as const;
export type AlertModifier = (typeof ALERT_MODIFIERS)[number];

/** Notification ways (spec 3 §9): the five channels; SMS and third-party push are separate switches. */
export const ALERT_WAYS = [...NOTIFY_TYPES, 'sms'] as const;
export type AlertWay = (typeof ALERT_WAYS)[number];
export const ALERT_STATES = ['ok', 'firing'] as const;
export type AlertState = (typeof ALERT_STATES)[number];
export const ALERT_STATE_LABELS: Record<AlertState, string> = { ok: '正常', firing: '预警中' };

const id = z.number().int().positive();

/** spec 3 §3 "Field": a dimension (WEIDU) or measure (ZHIBIAO) of the dataset. */
export const alertFieldSchema = z.object({
  cubeColumnId: id,
  columnTitle: z.string().max(100).default(''),
  columnName: z.string().max(255).nullish(),
  dimensionType: z.enum(['WEIDU', 'ZHIBIAO']),
  columnAttr: z.string().max(20).default('NORMAL'),
  aggregationType: z.enum(AGGREGATION_TYPES).nullish(),
  hiddenStatus: z.number().int().min(0).max(1).default(0),
  sortNum: z.number().int().default(0),
  viewDataType: z.enum(VIEW_DATA_TYPES).default('STRING'),
  timeDataFormat: z.string().max(50).nullish(),
  numberDataFormat: z.string().max(50).nullish(),
});
export type AlertField = z.input<typeof alertFieldSchema>;

/**
 * spec 3 §3 "Filter": conditions on one field, joined by the item's connectType (且/或); where
 * (rows) or having (measures: the thresholds). A date condition may be relative (timeType
 * relative: whole dateType units before — countType left — or after — right — the check's
 * instant). enumSource/enumId/options say where the editor's pick-list takes its values
 * (1 the field's values, 2 a data API, 3 a dictionary; the dataset filter's pick-list); the values
 * chosen are the condition's values.
 */
export const alertFilterSchema = z.object({
  uniqId: z.string().max(64).nullish(),
  cubeColumnId: id,
  columnTitle: z.string().max(100).default(''),
  connectTime: z.enum(['where', 'having']).default('where'),
  connectType: z
    .enum(['and', 'or', 'AND', 'OR'])
    .transform((v) => v.toLowerCase() as 'and' | 'or')
    .default('and'),
  aggregationType: z.enum(AGGREGATION_TYPES).nullish(),
  dateType: filterConditionSchema.shape.dateType,
  dateFormat: z.string().max(50).nullish(),
  asFilter: z.union([z.boolean(), z.number()]).nullish(),
  enumSource: z.union([z.literal(1), z.literal(2), z.literal(3)]).nullish(),
  enumId: z.union([z.number(), z.string().max(64)]).nullish(),
  options: z.array(z.unknown()).max(1000).nullish(),
  conditions: z
    .array(
      z.object({
        function: z.enum(FILTER_FUNCTIONS).default('eq'),
        values: z
          .array(z.union([z.string(), z.number()]).nullable())
          .max(1000)
          .default([]),
        timeType: z.enum(['absolute', 'relative']).default('absolute'),
        countType: z.enum(['left', 'right']).default('left'),
        dateType: filterConditionSchema.shape.dateType,
      }),
    )
    .min(1)
    .max(20),
});
export type AlertFilter = z.input<typeof alertFilterSchema>;

/** spec 3 §3 "Alert time config". timeValue is computed (alertWindow), never trusted from the client. */
export const alertTimeConfigSchema = z.object({
  timeType: z.enum(ALERT_TIME_TYPES).default('DAY'),
  calcType: z.enum(ALERT_CALC_TYPES).default('NORMAL'),
  relativeTime: z
    .object({
      leftVal: z.number().int().min(0).max(1000).default(2),
      leftModifier: z.enum(ALERT_MODIFIERS).default('BEFORE'),
      rightVal: z.number().int().min(0).max(1000).default(1),
      rightModifier: z.enum(ALERT_MODIFIERS).default('BEFORE'),
    })
    .prefault({}),
  timeColumn: id.nullish(),
  timeTypeColumn: id.nullish(),
  timeValue: z.array(z.string()).max(2).nullish(),
});
export type AlertTimeConfig = z.input<typeof alertTimeConfigSchema>;
export type AlertTimeConfigParsed = z.output<typeof alertTimeConfigSchema>;

const quietTime = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, alertMessages.quietHoursInvalid)
  .nullish();

/** The saved alert (spec 3 §3 "Alert (warning)") plus our firing settings (docs/alerts.md). */
export const alertBodySchema = z.object({
  id: id.nullish(),
  name: z.string().trim().max(100).default(''),
  requestFreq: z
    .number()
    .int()
    .max(86_400 * 31)
    .nullish(),
  enableStatus: z.union([z.literal(0), z.literal(1)]).default(1),
  cubeDataId: id.nullish(),
  cubeDataName: z.string().max(200).nullish(),
  datasourceId: id.nullish(),
  datasourceName: z.string().max(200).nullish(),
  columnJson: z.array(alertFieldSchema).max(50).default([]),
  filterJson: z.array(alertFilterSchema).max(50).default([]),
  filterRelationJson: z.enum(['AND', 'OR']).default('AND'),
  filterTimeJson: alertTimeConfigSchema.prefault({}),
  /** Comma list of user ids (spec); an array is accepted too. */
  warnUserIds: z.union([z.string().max(5000), z.array(id).max(1000)]).default(''),
  /** Ours: departments whose members (sub-departments included) are notified as they are at send time. */
  warnDeptIds: z.union([z.string().max(5000), z.array(id).max(1000)]).default(''),
  checkedWays: z.array(z.enum(ALERT_WAYS)).max(ALERT_WAYS.length).default(['email']),
  smsId: id.nullish(),
  /** Template variable → `field:<cubeColumnId>` or a fixed parameter text. */
  smsParams: z.record(z.string().max(100), z.string().max(500)).default({}),
  messageDynamicContent: z.string().max(2000).default(''),
  /** Third-party push (spec 3 §2): on/off, its reach ways. */
  pushEnabled: z.boolean().default(false),
  warningWays: z
    .array(z.object({ tenantId: z.string().max(100).default(''), warningWayEnum: z.string().trim().min(1).max(50) }))
    .max(20)
    .default([]),
  flowId: z.string().max(100).nullish(),
  visualDataJson: z
    .array(z.object({ id, title: z.string().max(200).default('') }))
    .max(20)
    .default([]),
  repeatIntervalSeconds: z
    .number()
    .int()
    .min(ALERT_REQUEST_FREQ_MIN)
    .max(86_400 * 30)
    .default(ALERT_REPEAT_DEFAULT_SECONDS),
  notifyRecovery: z.boolean().default(false),
  quietStart: quietTime,
  quietEnd: quietTime,
});
export type AlertBody = z.input<typeof alertBodySchema>;
export type AlertBodyParsed = z.output<typeof alertBodySchema>;
/** spec 3 §7: the save payload is Base64 of the JSON alert (`{ payload }`); plain JSON is accepted too. */
export const alertSaveSchema = orBase64Payload(alertBodySchema);

/** spec 3 §7 preview: columnList, cubeDataId, filterList, filterRelation, filterTimeJson. */
export const alertPreviewBodySchema = z.object({
  cubeDataId: id,
  columnList: alertBodySchema.shape.columnJson,
  filterList: alertBodySchema.shape.filterJson,
  filterRelation: alertBodySchema.shape.filterRelationJson,
  filterTimeJson: alertBodySchema.shape.filterTimeJson,
});
export const alertPreviewSchema = orBase64Payload(alertPreviewBodySchema);
export type AlertPreviewBody = z.input<typeof alertPreviewBodySchema>;

export const alertListQuerySchema = pageQuerySchema.extend({ name: z.string().trim().max(100).optional() });
export const alertLogQuerySchema = pageQuerySchema.extend({ alertId: z.coerce.number().int().positive().optional() });
export const alertEnabledSchema = z.object({ enableStatus: z.union([z.literal(0), z.literal(1)]) });

export interface AlertRecord extends Omit<AlertBodyParsed, 'warnUserIds' | 'warnDeptIds' | 'filterTimeJson'> {
  id: number;
  warnUserIds: string;
  warnDeptIds: string;
  filterTimeJson: AlertTimeConfigParsed;
  state: AlertState;
  stateSince: string | null;
  lastCheckTime: string | null;
  lastFiredTime: string | null;
  createUserId: number | null;
  createUserName: string | null;
  createTime: string;
  updateTime: string;
}

export interface AlertCheckLog {
  id: number;
  alertId: number;
  alertName: string;
  slot: string;
  status: 'running' | 'done' | 'failed';
  windowStart: string | null;
  windowEnd: string | null;
  rowCount: number | null;
  state: AlertState | null;
  /** started | repeat | recovered | quiet | none: why it notified, or why not. */
  notifyReason: string | null;
  channels: { channel: string; recipient: string; status: string; errMsg: string | null }[];
  errMsg: string | null;
  durationMs: number | null;
  checkTime: string;
}

/** The editor's recipient choice: active users (no contact details) and the department tree. */
export interface AlertRecipients {
  users: { id: number; name: string; realName: string | null; deptId: number | null }[];
  departments: { id: number; parentId: number; deptName: string; sort: number; children: AlertRecipients['departments'] }[];
}

/** The rows a check kept: column titles, then each row's values in that order (as the alert's owner read them). */
export interface AlertCheckRows {
  titles: string[];
  rows: unknown[][];
  rowCount: number | null;
}

const fill = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m);
export const alertMessage = fill;

/** Template variables of an SMS template's content: `${var}`, in order, without repeats. */
export function templateVariables(content: string): string[] {
  return [...new Set([...content.matchAll(/\$\{\s*([^}\s]+)\s*\}/g)].map((m) => m[1]!))];
}

/**
 * The first problem of an alert about to be saved, as the spec's editor reports it (spec 3 §5),
 * or null. `smsVariables`: the chosen template's variables (null when SMS is off or the template
 * is unknown).
 */
export function alertSaveProblem(alert: AlertBodyParsed, smsVariables: string[] | null): string | null {
  const list = (v: string | number[]) => (typeof v === 'string' ? v.split(',').filter((s) => s.trim()) : v);
  if (!alert.name || alert.requestFreq == null || !alert.cubeDataId) return alertMessages.formIncomplete;
  if (list(alert.warnUserIds).length === 0 && list(alert.warnDeptIds).length === 0) return alertMessages.recipientsRequired;
  if (alert.requestFreq < ALERT_REQUEST_FREQ_MIN) return alertMessages.requestFreqMin;
  const fieldsProblem = alertFieldsProblem(alert.columnJson, alert.filterTimeJson, alertMessages.fieldsIncomplete);
  if (fieldsProblem) return fieldsProblem;
  if (alert.pushEnabled) {
    if (alert.warningWays.length === 0) return alertMessages.pushWayRequired;
    if (!alert.messageDynamicContent.trim()) return alertMessages.pushContentRequired;
  }
  if (alert.checkedWays.includes('sms')) {
    if (!alert.smsId || !smsVariables) return alertMessages.smsTemplateRequired;
    const missing = smsVariables.find((v) => !alert.smsParams[v]?.trim());
    if (missing !== undefined) return fill(alertMessages.smsParamMissing, { variable: missing });
  }
  return null;
}

/** A measure and a time column, at most 5 dimensions and 5 measures (save and preview). */
export function alertFieldsProblem(
  columns: readonly { dimensionType: string }[],
  time: { timeColumn?: number | null; calcType?: string; timeTypeColumn?: number | null },
  incomplete: string,
): string | null {
  const measures = columns.filter((c) => c.dimensionType === 'ZHIBIAO').length;
  const dimensions = columns.length - measures;
  if (measures === 0 || !time.timeColumn) return incomplete;
  if (dimensions > ALERT_MAX_DIMENSIONS) return alertMessages.tooManyDimensions;
  if (measures > ALERT_MAX_MEASURES) return alertMessages.tooManyMeasures;
  if (time.calcType === 'SPECIAL' && !time.timeTypeColumn) return alertMessages.timeTypeColumnRequired;
  return null;
}

/** A calendar day as 'yyyy-MM-dd'. */
const day = (y: number, m0: number, d: number) => {
  const date = new Date(Date.UTC(y, m0, d));
  return date.toISOString().slice(0, 10);
};

/**
 * The absolute range an alert reads (spec 3 §3 "timeValue"): whole units of timeType counted from
 * the unit containing `now` on the installation's clock — BEFORE n is n units back, AFTER n units
 * ahead; the range runs from the start of the left unit to the end of the right one, both days
 * included. Defaults 2 BEFORE … 1 BEFORE: with MONTH on 2026-11-25, 2026-09-01 … 2026-10-31.
 */
export function alertWindow(
  config: Pick<AlertTimeConfigParsed, 'timeType' | 'relativeTime'>,
  now: Date,
  timeZoneOffsetMinutes: number,
): { start: string; end: string } {
  const local = new Date(now.getTime() + timeZoneOffsetMinutes * 60_000);
  const [y, m, d] = [local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()];
  const offset = (val: number, modifier: AlertModifier) => (modifier === 'BEFORE' ? -val : val);
  const { leftVal, leftModifier, rightVal, rightModifier } = config.relativeTime;
  const unit = (n: number): [string, string] => {
    switch (config.timeType) {
      case 'DAY':
        return [day(y, m, d + n), day(y, m, d + n)];
      case 'MONTH':
        return [day(y, m + n, 1), day(y, m + n + 1, 0)];
      case 'QUARTER': {
        const q = Math.floor(m / 3) * 3 + n * 3;
        return [day(y, q, 1), day(y, q + 3, 0)];
      }
    }
  };
  return { start: unit(offset(leftVal, leftModifier))[0], end: unit(offset(rightVal, rightModifier))[1] };
}

/** A window day in the compact text the spec's period columns use (yyyyMMdd; yyyyMM for months and quarters). */
export function compactPeriod(isoDay: string, timeType: AlertTimeType): string {
  const compact = isoDay.replaceAll('-', '');
  return timeType === 'DAY' ? compact : compact.slice(0, 6);
}

/** The editor of an alert (spec 3 §2). */
export const alertEditRoute = (id: number) => `/newbi/warning/edit?id=${id}`;
/** The alert log page (route not shown in the spec; ours, docs/alerts.md). */
export const alertCheckRoute = (alertId: number) => `/newbi/warning/log?alertId=${alertId}`;

// ---------- SMS (spec 3 §3 "SMS template"; spec 2 §9 region defaults) ----------

export const SMS_CATEGORIES = ['aliyun', 'qiniu', 'tencent'] as const;
export type SmsCategory = (typeof SMS_CATEGORIES)[number];
export const SMS_CATEGORY_LABELS: Record<SmsCategory, string> = { aliyun: '阿里云', qiniu: '七牛云', tencent: '腾讯云' };
/** Each provider's fields as the configuration screen lists them (label per provider: qiniu's accessKey is its SecretId). */
export const SMS_PROVIDER_FIELDS: Record<SmsCategory, { key: string; label: string; secret?: boolean; default?: string }[]> = {
  aliyun: [
    { key: 'templateId', label: 'templateId' },
    { key: 'accessKey', label: 'accessKey' },
    { key: 'secretKey', label: 'secretKey', secret: true },
    { key: 'regionId', label: 'regionId', default: 'cn-hangzhou' },
    { key: 'signName', label: '短信签名' },
    { key: 'endpoint', label: '接口地址', default: 'https://dysmsapi.aliyuncs.com' },
  ],
  qiniu: [
    { key: 'templateId', label: 'templateId' },
    { key: 'accessKey', label: 'SecretId' },
    { key: 'secretKey', label: 'secretKey', secret: true },
    { key: 'endpoint', label: '接口地址', default: 'https://sms.qiniuapi.com' },
  ],
  tencent: [
    { key: 'templateId', label: 'templateId' },
    { key: 'accessKey', label: 'accessKey' },
    { key: 'secretKey', label: 'secretKey', secret: true },
    { key: 'regionId', label: 'regionId', default: 'ap-beijing' },
    { key: 'appId', label: 'SmsSdkAppId' },
    { key: 'signName', label: '短信签名' },
    { key: 'endpoint', label: '接口地址', default: 'https://sms.tencentcloudapi.com' },
  ],
};
export const SMS_SECRET_MASK = '******';

const providerText = z.string().trim().max(500).default('');
export const smsProviderSchema = z.object({
  category: z.enum(SMS_CATEGORIES),
  templateId: providerText,
  accessKey: providerText,
  /** `******` keeps the stored secret; empty clears it. */
  secretKey: providerText,
  regionId: providerText,
  appId: providerText,
  signName: providerText,
  endpoint: z
    .string()
    .trim()
    .max(500)
    .regex(/^(https?:\/\/[^\s]+)?$/, '接口地址须以 http:// 或 https:// 开头')
    .default(''),
});
export type SmsProvider = z.output<typeof smsProviderSchema>;

export const smsTemplateSchema = z.object({
  id: id.nullish(),
  templateName: z.string({ error: '请输入模板名称' }).trim().min(1, '请输入模板名称').max(100),
  templateContent: z.string({ error: '请输入模板内容' }).trim().min(1, '请输入模板内容').max(1000),
  /** Comma list; computed from the content's `${var}` when empty. */
  templateParams: z.string().max(1000).default(''),
  category: z.enum(SMS_CATEGORIES).default('aliyun'),
});
export type SmsTemplate = z.output<typeof smsTemplateSchema> & { id: number };
export type SmsTemplateSave = z.input<typeof smsTemplateSchema>;

/** Third-party push: where alerts are POSTed as signed JSON (docs/alerts.md). */
export const alertPushSettingsSchema = z.object({
  url: z
    .string()
    .trim()
    .max(1000)
    .regex(/^(https?:\/\/[^\s]+)?$/, '推送地址须以 http:// 或 https:// 开头')
    .default(''),
  /** `******` keeps the stored secret; empty clears it. */
  secret: z.string().max(500).default(''),
});
export type AlertPushSettings = z.output<typeof alertPushSettingsSchema>;

export const ALERT_API = {
  /** GET list (page), POST save (Base64 payload or JSON). */
  alerts: '/api/alert/alerts',
  alert: '/api/alert/alerts/:id',
  copy: '/api/alert/alerts/:id/copy',
  enabled: '/api/alert/alerts/:id/enabled',
  /** POST: run a check now (the same job, claim and log as a due slot). */
  check: '/api/alert/alerts/:id/check',
  preview: '/api/alert/preview',
  /** POST the time config: the computed absolute range (timeValue) for the editor. */
  window: '/api/alert/window',
  logs: '/api/alert/logs',
  /** GET (any user): active users and the department tree, for the editor's recipients. */
  recipients: '/api/alert/recipients',
  /** GET one check's kept rows (ALERT_LOG_ROWS) with their column titles, as the alert's owner read them. */
  logRows: '/api/alert/logs/:id/rows',
  /** GET list (size up to 10000, spec 3 §7), POST save. */
  smsTemplates: '/api/alert/sms/templates',
  smsTemplate: '/api/alert/sms/templates/:id',
  /** GET (administrators): the three providers, secrets masked; PUT one provider. */
  smsProviders: '/api/alert/sms/providers',
  /** GET/PUT (administrators): the third-party push endpoint and its signing secret (masked). */
  push: '/api/alert/push',
} as const;
