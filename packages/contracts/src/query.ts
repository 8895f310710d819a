import { z } from 'zod';
import { zhCN } from './messages.ts';
import {
  AGGREGATION_TYPES,
  MAX_FORMULA_LENGTH,
  TIME_UNITS,
  VIEW_DATA_TYPES,
  cubeFieldSchema,
  cubeMessages,
  cubeModelSchema,
  cubeQueryRequestSchema,
  MAX_FILTER_VALUES,
  type ResultField,
} from './cube.ts';
import { DATA_SOURCE_TYPES } from './datasource.ts';

/**
 * The dataset editor's query calls (spec 2 §7 "Dataset editor"): preview cube, check whether
 * a formula has aggregation, functions by data source type. Both POST bodies may also come
 * in the spec's form, `{ payload: Base64 of the JSON }`; it is decoded and validated by the
 * same schema.
 *
 * The spec's saved-dataset names map onto the cube model: columnList → `model.fields`,
 * cubeData's cubeTableNames / linksJoin → `model.tables` / `model.joins`, orderByList →
 * `request.sort`. Previewing a saved dataset by cubeDataId is the dataset module's
 * (`datasetPreviewSchema`); here `cubeDataId` applies that dataset's permission filters.
 */

/** Rows a preview returns unless the request names a limit (spec 2 §9: first 100). */
export const CUBE_PREVIEW_DEFAULT_ROWS = 100;
/** Most rows one preview returns: a larger `request.limit` is lowered to this. */
export const CUBE_PREVIEW_MAX_ROWS = 10_000;
/** Statement timeout of the preview (and of its count query). */
export const CUBE_PREVIEW_TIMEOUT_MS = 30_000;
/** Longest Base64 `payload` accepted (the body limit is 10 MiB). */
const PAYLOAD_MAX_LENGTH = 8 * 1024 * 1024;

/** Base64 of the UTF-8 JSON of `value`: the spec's request form. */
export function encodeBase64Json(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The JSON value Base64 text holds, or undefined when it is not Base64 of UTF-8 JSON. */
export function decodeBase64Json(text: string): unknown {
  const compact = text.replace(/\s+/g, '');
  if (compact === '' || !BASE64.test(compact) || compact.length % 4 === 1) return undefined;
  try {
    const binary = atob(compact);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown;
  } catch {
    return undefined;
  }
}

/** `schema`, also accepting `{ payload: Base64 of the JSON }` in place of the object itself. */
export function orBase64Payload<T extends z.ZodType>(schema: T) {
  return z.preprocess((input, ctx) => {
    if (input === null || typeof input !== 'object' || Array.isArray(input) || !('payload' in input)) return input;
    const { payload } = input as { payload: unknown };
    const decoded = typeof payload === 'string' && payload.length <= PAYLOAD_MAX_LENGTH ? decodeBase64Json(payload) : undefined;
    if (decoded === undefined) {
      ctx.addIssue({ code: 'custom', path: ['payload'], message: zhCN.queryPayloadInvalid, input });
      return z.NEVER;
    }
    return decoded;
  }, schema);
}

const datasourceId = z.number({ error: zhCN.fileTableDsRequired }).int().positive(zhCN.fileTableDsRequired);

/** A global parameter's key (paramKey): a letter, then letters, digits or underscores. */
export const PARAM_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/;
export const PARAM_KEY_MAX_LENGTH = 64;

const globalParamValue = z.union([z.string().max(10000), z.number()]);

/**
 * Global parameter values by paramKey, as a request gives them: a value, a list (a filter
 * condition takes all of it, a formula its first element) or null. Read by the dataset's
 * global filter and by formulas' `${key}` references (docs/datasets.md "Parameters in formulas").
 */
export const globalParamValuesSchema = z
  .record(z.string().max(PARAM_KEY_MAX_LENGTH), z.union([globalParamValue, z.array(globalParamValue).max(MAX_FILTER_VALUES)]).nullable())
  .default({});
export type GlobalParamValues = z.output<typeof globalParamValuesSchema>;

/**
 * Preview cube: a cube model and a request over one data source. `request.limit` is the
 * number of rows (default CUBE_PREVIEW_DEFAULT_ROWS, at most CUBE_PREVIEW_MAX_ROWS);
 * `request.withTotal` adds the total row (or group) count. Permission filters are never
 * taken from the body: the server applies the caller's.
 */
export const cubePreviewSchema = orBase64Payload(
  z.object({
    datasourceId,
    model: cubeModelSchema,
    request: cubeQueryRequestSchema,
    /**
     * When editing a saved dataset: the caller must be allowed to see it, and a
     * non-administrator's preview is restricted by that dataset's permission filters for
     * their groups (row filters and excluded columns), as every read of the dataset is.
     */
    cubeDataId: z.number().int().positive().nullish(),
    /** Global parameter values for the formulas' `${key}` references (none: they read NULL). */
    params: globalParamValuesSchema,
  }),
).describe('预览数据集：{ datasourceId, model, request, cubeDataId?, params? }，或 { payload: 以上 JSON 的 Base64 }');
export type CubePreview = z.input<typeof cubePreviewSchema>;
export type CubePreviewParsed = z.output<typeof cubePreviewSchema>;

/** One column of the preview: `alias` is its key in every row of dataList (d0, d1, … m0, m1, …). */
export const resultFieldSchema = z.object({
  alias: z.string(),
  fieldId: z.union([z.number(), z.string()]),
  title: z.string(),
  viewDataType: z.enum(VIEW_DATA_TYPES),
  kind: z.enum(['dimension', 'measure']),
  aggregation: z.enum(AGGREGATION_TYPES).nullable(),
  granularity: z.enum(TIME_UNITS).nullable(),
}) satisfies z.ZodType<ResultField>;

export const cubeCellSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const cubePreviewResultSchema = z.object({
  /** The first rows, keyed by the fieldDict aliases; values normalised by the connector. */
  dataList: z.array(z.record(z.string(), cubeCellSchema)),
  /** One entry per column, in column order. */
  fieldDict: z.array(resultFieldSchema),
  /** Rows (groups, for an aggregate) the request matches without limit and offset; null unless withTotal. */
  total: z.number().nullable(),
  /** Wall time of the queries. */
  elapsedMs: z.number(),
});
export type CubePreviewResult = z.infer<typeof cubePreviewResultSchema>;

/**
 * Check whether a formula has aggregation. With `fields` (the dataset's fields) references
 * are checked, with types, and referenced computed fields that aggregate count too; without,
 * only the formula's own functions count. Either way the formula must parse and call only
 * functions the data source's engine has, and every `${key}` must name an existing global
 * parameter (parameters count as constants).
 */
export const formulaCheckSchema = orBase64Payload(
  z.object({
    columnFormula: z
      .string({ error: cubeMessages.formulaRequired })
      .max(MAX_FORMULA_LENGTH)
      .refine((s) => s.trim() !== '', cubeMessages.formulaRequired),
    datasourceId,
    fields: z.array(cubeFieldSchema).max(2000).optional(),
  }),
).describe('检查公式是否包含聚合：{ columnFormula, datasourceId, fields? }，或 { payload: 以上 JSON 的 Base64 }');
export type FormulaCheck = z.input<typeof formulaCheckSchema>;
export type FormulaCheckParsed = z.output<typeof formulaCheckSchema>;

/** Refusals of the formula check beyond the engine's (zh-CN). */
export const formulaCheckMessages = {
  /** A `${key}` reference to no existing global parameter (the response carries its position). */
  paramUnknown: '公式使用的全局参数【{key}】不存在',
} as const;

export const formulaCheckResultSchema = z.object({ hasAggregation: z.boolean() });
export type FormulaCheckResult = z.infer<typeof formulaCheckResultSchema>;

/** Functions by data source type. */
export const functionListQuerySchema = z.object({
  dsType: z.enum(DATA_SOURCE_TYPES, { error: zhCN.dsTypeRequired }),
});
export type FunctionListQuery = z.input<typeof functionListQuerySchema>;

export const formulaFunctionSchema = z.object({
  name: z.string(),
  /** A value of `categories` ("function attribute types"). */
  category: z.string(),
  /** Chinese description. */
  description: z.string(),
  /** An example formula. */
  example: z.string(),
  aggregate: z.boolean(),
  minArgs: z.number(),
  maxArgs: z.number(),
});
export type FormulaFunction = z.infer<typeof formulaFunctionSchema>;

export const functionListSchema = z.object({
  dsType: z.enum(DATA_SOURCE_TYPES),
  /** The function picker's groups, in display order. */
  categories: z.array(z.object({ value: z.string(), label: z.string() })),
  functions: z.array(formulaFunctionSchema),
});
export type FunctionList = z.infer<typeof functionListSchema>;
