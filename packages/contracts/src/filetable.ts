import { z } from 'zod';
import { zhCN } from './messages.ts';
import { VIEW_DATA_TYPES, formatMessage } from './cube.ts';
import type { FieldError } from './envelope.ts';

/**
 * File tables (spec 2 §2 "File-upload drawer", §3 "File table form", §5 "File table",
 * §7 "File tables"): an uploaded xlsx / xls / csv becomes a table in a data source.
 */

/** Allowed file types (spec 2 §9); only the first sheet of a workbook is read. */
export const FILE_TABLE_EXTENSIONS = ['xlsx', 'xls', 'csv'] as const;
export type FileTableExtension = (typeof FILE_TABLE_EXTENSIONS)[number];
/** Default table name: this prefix plus a date-time stamp (the client fills it in, spec 2 §4). */
export const FILE_TABLE_NAME_PREFIX = 'file_table_';
export const TABLE_NAME_MAX_LENGTH = 30;
export const TABLE_COMMENT_MAX_LENGTH = 100;
/** Column names follow the table-name rule. */
export const COLUMN_NAME_MAX_LENGTH = 30;
export const COLUMN_COMMENT_MAX_LENGTH = 100;
/** A letter, then letters, digits or underscores (spec 2 §5 "请检查表名拼写"). */
export const TABLE_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/;
/** Default upload size limit (UPLOAD_MAX_MB). */
export const DEFAULT_UPLOAD_MAX_MB = 200;
/** Most columns a file may have. */
export const FILE_TABLE_MAX_COLUMNS = 500;
/** Data rows the structure call returns as a preview. */
export const FILE_PREVIEW_ROWS = 10;

/** A byte count as the size messages show it: 200 MB, 1.5 MB, 64 KB. */
export function formatFileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${+(bytes / 1024).toFixed(1)} KB`;
}

/** `file_table_` + YYYYMMDDHHmmss in China's wall clock (UTC+8). */
export function defaultFileTableName(now: Date = new Date()): string {
  const iso = new Date(now.getTime() + 8 * 3_600_000).toISOString();
  return `${FILE_TABLE_NAME_PREFIX}${iso.slice(0, 19).replace(/[-T:]/g, '')}`;
}

/** Column entry (spec 2 §3): comment = original header, columnName = physical name. */
export const fileColumnSchema = z.object({
  comment: z.string(),
  columnName: z.string(),
  columnType: z.enum(VIEW_DATA_TYPES),
});
export type FileColumn = z.infer<typeof fileColumnSchema>;

export const filePreviewValueSchema = z.union([z.string(), z.number(), z.null()]);

/** Answer of the structure call. */
export const fileStructureSchema = z.object({
  fileName: z.string(),
  fileType: z.enum(FILE_TABLE_EXTENSIONS),
  /** CSV only: how the text was decoded (UTF-8, with or without BOM, else GBK). */
  encoding: z.enum(['UTF-8', 'GBK']).nullable(),
  columns: z.array(fileColumnSchema),
  /** The first data rows keyed by columnName, as read (dates as 'YYYY-MM-DD HH:mm:ss'). */
  previewRows: z.array(z.record(z.string(), filePreviewValueSchema)),
  /** How many data rows the column types were detected from. */
  sampledRows: z.number(),
  /**
   * Names the received file in the confirm call (its `fileToken` field) instead of sending it
   * again; valid for an hour, for this user, until a table is created from it.
   */
  fileToken: z.string(),
});
export type FileStructure = z.infer<typeof fileStructureSchema>;

/** The text fields of the confirm call (multipart, next to `file`). */
export interface FileTableForm {
  /** The structure call's fileToken, when the form has no file part. */
  fileToken?: string | undefined;
  tableName?: string | undefined;
  tableComment?: string | undefined;
  dsId?: string | number | undefined;
  /** JSON text of FileColumn[]. */
  tableColumnList?: string | undefined;
}

export interface CheckedFileTableForm {
  tableName: string;
  tableComment: string;
  dsId: number;
  columns: FileColumn[];
}

const issue = (field: string, message: string): FieldError => ({ field, message });

/** Checks one column list entry against the naming rules; returns the first problem. */
function columnErrors(columns: FileColumn[]): FieldError[] {
  const seen = new Set<string>();
  for (const c of columns) {
    const name = c.columnName;
    if (!TABLE_NAME_PATTERN.test(name)) return [issue('tableColumnList', formatMessage(zhCN.fileColumnNameInvalid, { name }))];
    if (name.length > COLUMN_NAME_MAX_LENGTH)
      return [issue('tableColumnList', formatMessage(zhCN.fileColumnNameTooLong, { name, max: COLUMN_NAME_MAX_LENGTH }))];
    if (seen.has(name.toLowerCase())) return [issue('tableColumnList', formatMessage(zhCN.fileColumnDuplicate, { name }))];
    seen.add(name.toLowerCase());
    if (c.comment.length > COLUMN_COMMENT_MAX_LENGTH)
      return [issue('tableColumnList', formatMessage(zhCN.fileColumnCommentTooLong, { name, max: COLUMN_COMMENT_MAX_LENGTH }))];
  }
  return [];
}

/**
 * The confirm form's rules in the spec's order (spec 2 §5): 请填写表名, 请填写表注释名,
 * 请检查表名拼写, at most 30 characters; then the data source and the column list. The
 * browser runs the same function before sending; the server's answer is the one that counts.
 */
export function checkFileTableForm(form: FileTableForm): { ok: true; value: CheckedFileTableForm } | { ok: false; errors: FieldError[] } {
  const tableName = (form.tableName ?? '').trim();
  const tableComment = (form.tableComment ?? '').trim();
  const fail = (errors: FieldError[]) => ({ ok: false as const, errors });
  if (!tableName) return fail([issue('tableName', zhCN.tableNameRequired)]);
  if (!tableComment) return fail([issue('tableComment', zhCN.tableCommentRequired)]);
  if (!TABLE_NAME_PATTERN.test(tableName)) return fail([issue('tableName', zhCN.tableNameInvalid)]);
  if (tableName.length > TABLE_NAME_MAX_LENGTH) return fail([issue('tableName', formatMessage(zhCN.tableNameTooLong, { max: TABLE_NAME_MAX_LENGTH }))]);
  if (tableComment.length > TABLE_COMMENT_MAX_LENGTH)
    return fail([issue('tableComment', formatMessage(zhCN.tableCommentTooLong, { max: TABLE_COMMENT_MAX_LENGTH }))]);
  const dsId = Number(typeof form.dsId === 'string' ? form.dsId.trim() : form.dsId);
  if (form.dsId === undefined || form.dsId === '' || !Number.isInteger(dsId) || dsId <= 0) return fail([issue('dsId', zhCN.fileTableDsRequired)]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(form.tableColumnList ?? '');
  } catch {
    return fail([issue('tableColumnList', zhCN.fileColumnsInvalid)]);
  }
  const list = z
    .array(fileColumnSchema.extend({ comment: z.string().nullish() }))
    .min(1)
    .safeParse(parsed);
  if (!list.success) {
    const bad = list.error.issues.find((i) => i.path.at(-1) === 'columnType');
    return fail([issue('tableColumnList', bad ? zhCN.fileColumnTypeInvalid : zhCN.fileColumnsInvalid)]);
  }
  const columns = list.data.map((c) => ({
    columnName: c.columnName.trim(),
    columnType: c.columnType,
    comment: (c.comment ?? '').trim() || c.columnName.trim(),
  }));
  const errors = columnErrors(columns);
  if (errors.length > 0) return fail(errors);
  return { ok: true, value: { tableName, tableComment, dsId, columns } };
}

/** A recorded file table (tableFileList: datasourceId, tableComment, tableName, and more). */
export const fileTableSchema = z.object({
  id: z.number(),
  datasourceId: z.number(),
  tableName: z.string(),
  tableComment: z.string(),
  fileName: z.string(),
  rowCount: z.number(),
  columns: z.array(fileColumnSchema),
  createTime: z.string(),
});
export type FileTable = z.infer<typeof fileTableSchema>;

export const fileTableListQuerySchema = z.object({
  dsId: z.coerce.number({ error: zhCN.fileTableDsRequired }).int(zhCN.fileTableDsRequired).positive(zhCN.fileTableDsRequired),
});
export type FileTableListQuery = z.input<typeof fileTableListQuerySchema>;

/**
 * 文件表目标数据源 (issue 27): the data source uploaded file tables go to unless the uploader
 * picks another — null is the built-in warehouse (the DuckDB file); in a cluster a shared
 * PostgreSQL or ClickHouse source, so every server process sees the tables.
 */
export const fileTableSourceSchema = z.object({ datasourceId: z.number().int().positive().nullable() });
export type FileTableSource = z.infer<typeof fileTableSourceSchema>;
