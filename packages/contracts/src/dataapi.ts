import { z } from 'zod';
import { pageQuerySchema } from './envelope.ts';
import { requiredText } from './common.ts';
import { orBase64Payload } from './query.ts';
import { dataApiMessages } from './dataapi-constants.ts';

export * from './dataapi-constants.ts';

/**
 * Data APIs (spec 2 §2 "Data-API editor", §3 "Data API", §4, §5 "Data API", §7 "Data APIs", §9;
 * docs/dataapi.md): endpoints fed by SQL over a data source (apiType 1), by an external URL whose
 * answer a JavaScript handler reshapes (apiType 2), or by a table with a typed parameter list
 * (apiType 3), published at `/open/api/{apiKey}` for access keys and signed-in users.
 */

/** spec 2 §3: 1 database (SQL over a data source), 2 external URL, 3 table with a parameter list. */
export const DATA_API_TYPES = [1, 2, 3] as const;
export type DataApiType = (typeof DATA_API_TYPES)[number];
/** 0 standard, 1 flying-line chart, 2 basic indicator, 3 other (1-3 only for external APIs). */
export const DATA_API_CHART_TYPES = [0, 1, 2, 3] as const;
/** 0 offline, 1 online, 2 faulty. */
export const DATA_API_STATUSES = [0, 1, 2] as const;
export const DATA_API_STATUS_LABELS = { 0: '下线', 1: '上线', 2: '故障' } as const;
export const DATA_API_METHODS = ['get', 'post'] as const;
/** 0 json, 1 urlencoded (post only). */
export const DATA_API_PARAM_TYPES = [0, 1] as const;
/** spec 2 §3: the default handler returns the response data unchanged. */
export const DEFAULT_API_JS_FUNCTION = 'function (data) {\n  return data;\n}';
/** After this many consecutive failed calls an online API turns faulty (docs/dataapi.md). */
export const DATA_API_FAULT_THRESHOLD = 5;
/** Rows a published call answers at most; the preview keeps the first 100 for the view (spec 2 §9). */
export const DATA_API_MAX_ROWS = 10_000;
export const DATA_API_PREVIEW_ROWS = 100;
export const DATA_API_TIMEOUT_MS = 30_000;
/** A signed call's timestamp may differ from the server's clock by this much; its nonce is kept as long. */
export const DATA_API_SIGNATURE_WINDOW_MS = 5 * 60_000;
/** Calls per minute per access key unless the key says otherwise. */
export const DATA_API_DEFAULT_RATE_LIMIT = 600;
/** apiKey: it names the published path. */
export const API_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,99}$/;

/** spec 2 §3 "Parameter": datatype and the formats of its defaults (yyyyMMdd, yyyyMM, HH:mm:ss). */
export const DATA_API_PARAM_DATATYPES = ['string', 'number', 'date', 'month', 'time', 'timestamp'] as const;
export type DataApiParamDatatype = (typeof DATA_API_PARAM_DATATYPES)[number];
export const DATA_API_PARAM_LABELS: Record<DataApiParamDatatype, string> = {
  string: '文本',
  number: '数字',
  date: '日期（yyyyMMdd）',
  month: '月份（yyyyMM）',
  time: '时间（HH:mm:ss）',
  timestamp: '时间戳（毫秒，整数）',
};

export const showFieldSchema = z.object({
  columnName: z.string().min(1).max(200),
  columnComments: z.string().max(200).default(''),
  /** 0 dimension, 1 indicator. */
  dataType: z.union([z.literal(0), z.literal(1)]).default(0),
});
export type ShowField = z.infer<typeof showFieldSchema>;

export const apiParamSchema = z.object({
  name: z.string().max(100).default(''),
  /** Parameters with an empty key are ignored (spec 2 §5). */
  key: z.string().max(100).default(''),
  datatype: z.enum(DATA_API_PARAM_DATATYPES).default('string'),
  /** The default; a parameter without one is required. */
  def: z.union([z.string(), z.number()]).nullish(),
});
export type ApiParam = z.infer<typeof apiParamSchema>;

/** `note`: a JSON string of this (spec 2 §3). */
export const dataApiNoteSchema = z.object({
  showFields: z.array(showFieldSchema).default([]),
  params: z.array(apiParamSchema).default([]),
});
export type DataApiNote = z.infer<typeof dataApiNoteSchema>;

/** Type-3 column types (spec 2 §3 "Type-3 queryParam item"). */
export const QUERY_PARAM_COLUMN_TYPES = ['STRING', 'DATETIME', 'INT', 'LONG', 'FLT'] as const;
export type QueryParamColumnType = (typeof QUERY_PARAM_COLUMN_TYPES)[number];

export const queryParamItemSchema = z.object({
  title: z.string().max(100).default(''),
  columnName: z.string().min(1).max(200),
  paramName: z.string().min(1).max(100),
  /** STRING may carry its size in brackets, e.g. STRING(64). */
  columnType: z.string().regex(/^(STRING(\(\d+\))?|DATETIME|INT|LONG|FLT)$/),
  /** 1 required, 0 optional (decision: the spec does not say which is which). */
  optionalStatus: z.union([z.literal(0), z.literal(1)]).default(0),
});
export type QueryParamItem = z.infer<typeof queryParamItemSchema>;

export const dataApiSchema = z.object({
  id: z.number(),
  apiKey: z.string(),
  apiName: z.string(),
  categoryId: z.number().nullable(),
  apiFormal: z.number(),
  remark: z.string(),
  datasourceId: z.number().nullable(),
  queryTable: z.string().nullable(),
  querySql: z.string().nullable(),
  apiType: z.number(),
  chartType: z.number(),
  apiStatus: z.number(),
  apiUrl: z.string().nullable(),
  apiMethod: z.enum(DATA_API_METHODS),
  apiParamType: z.number(),
  apiJsFunction: z.string(),
  apiHeaders: z.record(z.string(), z.string()),
  /** JSON string of { showFields, params }. */
  note: z.string(),
  queryParam: z.array(queryParamItemSchema),
  /** Consecutive failed published calls (reset by a success). */
  failCount: z.number(),
  createUserId: z.number().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type DataApi = z.infer<typeof dataApiSchema>;

const optionalId = z.number().int().positive().nullish();

/** JSON text parsed to its value (text that is not JSON stays text, for the schema to refuse). */
function jsonTextOrValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/**
 * dataapiSubmit. Keys are in the spec's order of checks (category, key, name, then data source
 * and table for type 3), so the first message is the spec's; with `id` the API is updated.
 */
export const dataApiSaveBodySchema = z
  .object({
    categoryId: z.number({ error: dataApiMessages.categoryRequired }).int().positive(dataApiMessages.categoryRequired),
    apiKey: requiredText(dataApiMessages.apiKeyRequired, 100).regex(API_KEY_PATTERN, dataApiMessages.apiKeyInvalid),
    apiName: requiredText(dataApiMessages.apiNameRequired, 100),
    apiType: z.union([z.literal(1), z.literal(2), z.literal(3)]).default(1),
    datasourceId: optionalId,
    queryTable: z.string().max(200).nullish(),
    querySql: z.string().max(100_000).nullish(),
    apiFormal: z.number().int().default(1),
    remark: z.string().max(500).default(''),
    chartType: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]).default(0),
    apiStatus: z.union([z.literal(0), z.literal(1), z.literal(2)]).default(1),
    apiUrl: z.string().max(2000).nullish(),
    apiMethod: z.enum(DATA_API_METHODS).default('get'),
    apiParamType: z.union([z.literal(0), z.literal(1)]).default(0),
    apiJsFunction: z.string().max(100_000).nullish(),
    apiHeaders: z.record(z.string().max(200), z.string().max(4000)).default({}),
    note: z.string().max(200_000).default('{}'),
    /** The type-3 editor sends it as JSON text (spec 2 §7 dataapiSubmit); an array is taken too. */
    queryParam: z.preprocess(jsonTextOrValue, z.array(queryParamItemSchema).max(100)).default([]),
    id: optionalId,
  })
  .superRefine((v, issue) => {
    const need = (ok: boolean, path: string, message: string) => {
      if (!ok) issue.addIssue({ code: 'custom', path: [path], message });
    };
    if (v.apiType === 1 || v.apiType === 3) need(v.datasourceId != null, 'datasourceId', dataApiMessages.datasourceRequired);
    if (v.apiType === 3) need((v.queryTable ?? '').trim() !== '', 'queryTable', dataApiMessages.tableRequired);
    if (v.apiType === 1) need((v.querySql ?? '').trim() !== '', 'querySql', dataApiMessages.sqlRequired);
    if (v.apiType === 2) need((v.apiUrl ?? '').trim() !== '', 'apiUrl', dataApiMessages.urlRequired);
  });
export type DataApiSave = z.input<typeof dataApiSaveBodySchema>;
export type DataApiSaveParsed = z.output<typeof dataApiSaveBodySchema>;
/** dataapiSubmit as the spec sends it, `{ payload: Base64 of the JSON form }`, or the JSON form itself. */
export const dataApiSaveSchema = orBase64Payload(dataApiSaveBodySchema);

export const dataApiListQuerySchema = pageQuerySchema.extend({
  categoryId: z.coerce.number().int().positive().optional(),
  apiName: z.string().max(100).optional(),
  apiStatus: z.coerce.number().int().min(0).max(2).optional(),
  apiFormal: z.coerce.number().int().optional(),
  /** '1,2': comma-separated apiType values (spec 2 §7 dataapiList). */
  apiTypes: z
    .string()
    .regex(/^[123](,[123])*$/)
    .optional(),
});
export type DataApiListQuery = z.infer<typeof dataApiListQuerySchema>;

export const dataApiKeyParamSchema = z.object({ apiKey: z.string().min(1).max(100) });

export const dataApiStatusSchema = z.object({ apiStatus: z.union([z.literal(0), z.literal(1), z.literal(2)]) });

export const dataApiCopySchema = z.object({
  apiKey: requiredText(dataApiMessages.apiKeyRequired, 100).regex(API_KEY_PATTERN, dataApiMessages.apiKeyInvalid).optional(),
});

/** openurl (preview): the API's key and parameter values; for apiType 2 also one apiParam JSON string. */
export const dataApiPreviewSchema = z.object({
  apiKey: z.string({ error: dataApiMessages.mustSaveToPreview }).min(1, dataApiMessages.mustSaveToPreview).max(100),
  params: z.record(z.string(), z.unknown()).default({}),
  apiParam: z.string().max(100_000).optional(),
});

export const dataApiRunResultSchema = z.object({
  /** The rows (type 1 and 3), or what the handler returned (type 2, any JSON). */
  data: z.unknown(),
  rows: z.number(),
  elapsedMs: z.number(),
  truncated: z.boolean(),
});
export type DataApiRunResult = z.infer<typeof dataApiRunResultSchema>;

export const dataApiCategorySchema = z.object({ id: z.number(), categoryName: z.string(), sort: z.number(), apiCount: z.number() });
export type DataApiCategory = z.infer<typeof dataApiCategorySchema>;
export const dataApiCategorySaveSchema = z.object({
  categoryName: requiredText(dataApiMessages.categoryNameRequired, 100),
  sort: z.number().int().default(0),
});

export const dataApiAccessKeySchema = z.object({
  id: z.number(),
  keyName: z.string(),
  accessKey: z.string(),
  enabled: z.boolean(),
  rateLimit: z.number(),
  apiIds: z.array(z.number()),
  createUserId: z.number().nullable(),
  createTime: z.string(),
  lastUsedTime: z.string().nullable(),
});
export type DataApiAccessKey = z.infer<typeof dataApiAccessKeySchema>;
/** The answer of creating a key: the secret, shown this once. */
export const dataApiAccessKeyCreatedSchema = dataApiAccessKeySchema.extend({ secret: z.string() });
export const dataApiAccessKeySaveSchema = z.object({
  keyName: requiredText(dataApiMessages.keyNameRequired, 100),
  apiIds: z.array(z.number().int().positive()).max(1000).default([]),
  rateLimit: z.number().int().min(1).max(100_000).default(DATA_API_DEFAULT_RATE_LIMIT),
  enabled: z.boolean().default(true),
});
export const dataApiAccessKeyUpdateSchema = dataApiAccessKeySaveSchema.partial();

export const dataApiCallLogSchema = z.object({
  id: z.number(),
  apiId: z.number().nullable(),
  apiKey: z.string(),
  accessKey: z.string().nullable(),
  userId: z.number().nullable(),
  params: z.string(),
  status: z.number(),
  rows: z.number(),
  durationMs: z.number(),
  errorMsg: z.string().nullable(),
  createTime: z.string(),
});
export type DataApiCallLog = z.infer<typeof dataApiCallLogSchema>;
export const dataApiCallLogQuerySchema = pageQuerySchema.extend({ apiId: z.coerce.number().int().positive().optional() });

export const dataApiStatsSchema = z.array(
  z.object({ apiId: z.number(), apiKey: z.string(), calls: z.number(), failures: z.number(), p95Ms: z.number().nullable() }),
);

/** The outgoing-host allow-list of external APIs (administrators). */
/** Days the call log keeps a call unless an administrator says otherwise; older calls are deleted hourly. */
export const DATA_API_LOG_RETENTION_DAYS = 90;
/** Host names (exact, or *.example.com for its sub-domains); empty: no external API may be called. */
const allowedHostsSchema = z.array(z.string().trim().min(1).max(253)).max(500);
const logRetentionDaysSchema = z
  .number({ error: '日志保留天数须为 1 到 3650 的整数' })
  .int('日志保留天数须为 1 到 3650 的整数')
  .min(1, '日志保留天数须为 1 到 3650 的整数')
  .max(3650, '日志保留天数须为 1 到 3650 的整数');
const cacheMessage = '缓存时间须为 0 到 3600 的整数秒（0 为不缓存）';
/** Seconds a published type-1 or type-3 answer is shared by identical calls (0: every call reads the source). */
const cacheSecondsSchema = z.number({ error: cacheMessage }).int(cacheMessage).min(0, cacheMessage).max(3600, cacheMessage);
export const dataApiSettingsSchema = z.object({
  allowedHosts: allowedHostsSchema,
  logRetentionDays: logRetentionDaysSchema.default(DATA_API_LOG_RETENTION_DAYS),
  cacheSeconds: cacheSecondsSchema.default(0),
});
/** A save changes what it names and keeps the rest. */
export const dataApiSettingsSaveSchema = z.object({
  allowedHosts: allowedHostsSchema.optional(),
  logRetentionDays: logRetentionDaysSchema.optional(),
  cacheSeconds: cacheSecondsSchema.optional(),
});
export type DataApiSettingsSave = z.infer<typeof dataApiSettingsSaveSchema>;
export type DataApiSettings = z.infer<typeof dataApiSettingsSchema>;

/** One node of an enumeration dictionary saved from a preview (spec 2 §3 "Dictionary-from-API"). */
export interface DataApiDictNode {
  key: string | number;
  value: string | number | null;
  children?: DataApiDictNode[];
}
export const dataApiDictNodeSchema: z.ZodType<DataApiDictNode> = z
  .object({
    key: z.union([z.string().max(500), z.number()]),
    value: z.union([z.string().max(2000), z.number(), z.null()]),
    get children() {
      return z.array(dataApiDictNodeSchema).max(100_000).optional();
    },
  })
  // A named schema: the API document refers to it from itself and lists it under components.
  .meta({ id: 'DataApiDictNode' });
/** Save from a preview: keyCode (the dictionary's name) and content, the JSON text of the tree. */
export const dataApiDictSaveSchema = z.object({
  keyCode: requiredText(dataApiMessages.dictNameRequired, 100),
  content: z.string().max(5_000_000),
  apiId: z.number().int().positive().nullish(),
});
export const dataApiDictSchema = z.object({
  id: z.number(),
  keyCode: z.string(),
  apiId: z.number().nullable(),
  content: z.array(dataApiDictNodeSchema),
  updateTime: z.string(),
});
export type DataApiDict = z.infer<typeof dataApiDictSchema>;
/** A filter pick-list from a published API (enumSource 2): value from the first field, label from the second. */
export const DATA_API_OPTIONS_MAX = 1000;
export const dataApiOptionSchema = z.object({ value: z.union([z.string(), z.number()]), label: z.string() });
export type DataApiOption = z.infer<typeof dataApiOptionSchema>;
export const dataApiOptionsQuerySchema = z.object({ q: z.string().max(100).optional() });
export const dataApiOptionsSchema = z.object({ options: z.array(dataApiOptionSchema) });
export const dataApiPickSourceSchema = z.object({ id: z.number(), apiName: z.string(), apiKey: z.string() });
export type DataApiPickSource = z.infer<typeof dataApiPickSourceSchema>;

export const dataApiDictCodeParamSchema = z.object({ keyCode: z.string().min(1).max(100) });

export { DATA_API_PATHS } from './constants.ts';
