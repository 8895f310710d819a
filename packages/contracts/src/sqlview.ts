import { z } from 'zod';
import { zhCN } from './messages.ts';
import { requiredText } from './common.ts';
import { VIEW_DATA_TYPES } from './cube.ts';

/**
 * SQL views (spec 2 §2 "SQL view editor", §3 "SQL view", §5 "SQL view", §7 "SQL views"):
 * a saved single SELECT over one data source, used like a table by datasets.
 */

export const SQL_NAME_MAX_LENGTH = 100;
export const VIEW_NAME_MAX_LENGTH = 64;
export const SQL_STATEMENT_MAX_LENGTH = 100_000;
/** A letter, then letters, digits or underscores: the view is used as a table alias. */
export const VIEW_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/;
export const SQL_VIEW_NAME_PREFIX = 'V_SQL_';
/** Rows the preview returns (spec 2 §9 "chart preview rows: first 100"). */
export const SQL_PREVIEW_ROWS = 100;
/** Statement timeout of a preview. */
export const SQL_PREVIEW_TIMEOUT_MS = 30_000;

/** V_SQL_ + YYYYMMDDHHmm in China's wall clock (UTC+8), the default name of a new view. */
export function defaultSqlViewName(now: Date = new Date()): string {
  const iso = new Date(now.getTime() + 8 * 3_600_000).toISOString();
  return `${SQL_VIEW_NAME_PREFIX}${iso.slice(0, 16).replace(/[-T:]/g, '')}`;
}

export const sqlViewSchema = z.object({
  id: z.number(),
  datasourceId: z.number(),
  sqlName: z.string(),
  viewName: z.string(),
  sqlStatement: z.string(),
  /** Who wrote it: non-administrators may change and delete only their own views. */
  createUserId: z.number().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type SqlView = z.infer<typeof sqlViewSchema>;

/** A dataset that uses a view, and the columns it needs that the view's statement no longer gives (issue 28). */
export const sqlViewUsageSchema = z.object({ id: z.number(), cubeName: z.string(), missingColumns: z.array(z.string()) });
export type SqlViewUsage = z.infer<typeof sqlViewUsageSchema>;

/** The answer of viewSave: the view, and on an edit the datasets using it (the editor warns about them). */
export const sqlViewSavedSchema = sqlViewSchema.extend({ usedBy: z.array(sqlViewUsageSchema) });
export type SqlViewSaved = z.infer<typeof sqlViewSavedSchema>;

const quoted = (names: readonly string[]) => names.map((n) => `【${n}】`).join('、');

/** The message of a save that changed a view datasets use: which datasets, and the fields they lost. */
export function sqlViewSavedMessage(usedBy: readonly SqlViewUsage[]): string {
  if (usedBy.length === 0) return zhCN.saved;
  const broken = usedBy.filter((u) => u.missingColumns.length > 0);
  if (broken.length === 0) return `保存成功。数据集${quoted(usedBy.map((u) => u.cubeName))}使用此视图，请检查它们的数据`;
  const lost = broken.map((u) => `数据集【${u.cubeName}】用到的列${quoted(u.missingColumns)}`).join('；');
  return `保存成功。${lost}已不在视图中，请修改这些数据集`;
}

/** A used view cannot be renamed or deleted: the datasets name it. */
export const sqlViewInUseMessage = (action: '改名' | '删除', usedBy: readonly { cubeName: string }[]): string =>
  `视图正在被数据集${quoted(usedBy.map((u) => u.cubeName))}使用，不能${action}`;

/**
 * viewSave. Keys are in the spec's order of checks (sqlName, viewName, sqlStatement), so
 * the first message is the spec's. With `id` the view is updated. A new view's default
 * name comes from the default-name call (V_SQL_YYYYMMDDHHmm).
 */
export const sqlViewSaveSchema = z.object({
  sqlName: requiredText(zhCN.sqlNameRequired, SQL_NAME_MAX_LENGTH),
  viewName: requiredText(zhCN.viewNameRequired, VIEW_NAME_MAX_LENGTH).regex(VIEW_NAME_PATTERN, zhCN.viewNameInvalid),
  sqlStatement: z
    .string({ error: zhCN.sqlStatementRequired })
    .max(SQL_STATEMENT_MAX_LENGTH)
    .refine((s) => s.trim() !== '', zhCN.sqlStatementRequired),
  datasourceId: z.number({ error: zhCN.fileTableDsRequired }).int().positive(zhCN.fileTableDsRequired),
  id: z.number().int().positive().nullish(),
});
export type SqlViewSave = z.input<typeof sqlViewSaveSchema>;

export const sqlViewListQuerySchema = z.object({
  datasourceId: z.coerce.number({ error: zhCN.fileTableDsRequired }).int().positive(zhCN.fileTableDsRequired),
});
export type SqlViewListQuery = z.input<typeof sqlViewListQuerySchema>;

/**
 * viewPreview: the data source and the SQL as Base64 of its UTF-8 text (spec 2 §7, kept so
 * proxies that inspect bodies do not trip over SQL). `sql` (plain text) is accepted too.
 */
export const sqlViewPreviewSchema = z.object({
  datasourceId: z.number({ error: zhCN.fileTableDsRequired }).int().positive(zhCN.fileTableDsRequired),
  sqlStatement: z
    .string()
    .max(SQL_STATEMENT_MAX_LENGTH * 2)
    .optional(),
  sql: z.string().max(SQL_STATEMENT_MAX_LENGTH).optional(),
});
export type SqlViewPreview = z.input<typeof sqlViewPreviewSchema>;

/** Base64 of UTF-8 text, as the editor sends SQL. */
export function encodeSqlBase64(sql: string): string {
  const bytes = new TextEncoder().encode(sql);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

export const sqlPreviewColumnSchema = z.object({
  name: z.string(),
  databaseType: z.string(),
  viewDataType: z.enum(VIEW_DATA_TYPES),
});

export const sqlViewPreviewResultSchema = z.object({
  columns: z.array(sqlPreviewColumnSchema),
  rows: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))),
  /** More rows exist beyond the first SQL_PREVIEW_ROWS. */
  truncated: z.boolean(),
  elapsedMs: z.number(),
});
export type SqlViewPreviewResult = z.infer<typeof sqlViewPreviewResultSchema>;

export const defaultViewNameSchema = z.object({ viewName: z.string() });
