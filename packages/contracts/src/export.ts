import { z } from 'zod';
import { pageQuerySchema } from './envelope.ts';
import { chartLinkValueSchema } from './board.ts';
import { globalParamValuesSchema } from './query.ts';

/**
 * Table export to Excel (spec 1 §2.10 "导出", §7 "Export Excel and export records", §9):
 * a detail, summary or pivot table of a board is written to an .xlsx file by a background
 * job ('chart-export'), with the export owner's permission filters and the links and
 * parameters they had when they clicked 导出. Each export is a task row with its status and
 * progress; the owner downloads the file from the chart's export-record popover or from the
 * 任务管理 page (/newbi/mine/export). docs/exports.md.
 */

export const exportMessages = {
  chartNotExportable: '该图表不支持导出',
  taskNotFound: '导出任务不存在',
  fileMissing: '导出文件已不存在，请重新导出',
  jobsOff: '任务服务未启动',
  fileNameTooLong: '文件名最多 100 个字符',
  submitted: '已提交导出任务',
  deleted: '删除成功',
  failed: '导出失败',
  userMissing: '导出用户不存在或已停用',
  tooManyRows: '数据超过 {max} 行，仅导出前 {max} 行',
  retryOnlyFailed: '只有失败的导出任务可以重试',
  resubmitted: '已重新提交导出任务',
  pivotTooLarge: '透视表超过 {max} 个分组，仅导出前 {max} 个',
} as const;

/** File formats of an export: Excel, or CSV (UTF-8 with a BOM, so Excel reads Chinese correctly). */
export const EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_FORMAT_LABELS: Record<ExportFormat, string> = { xlsx: 'Excel', csv: 'CSV' };

export const EXPORT_STATUSES = ['waiting', 'running', 'done', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];
export const EXPORT_STATUS_LABELS: Record<ExportStatus, string> = { waiting: '等待中', running: '导出中', done: '已完成', failed: '失败' };

/** Export records of a chart shown in its popover (spec 1 §7, §9: size 5). */
export const EXPORT_RECORD_PAGE_SIZE = 5;
/** Tasks per page on the 任务管理 page. */
export const EXPORT_TASK_PAGE_SIZE = 10;
/** Most rows one export writes; beyond it the file holds the first rows and the task says so. */
export const EXPORT_MAX_ROWS = 1_000_000;
/** Longest file name, without the .xlsx extension. */
export const EXPORT_FILE_NAME_MAX_LENGTH = 100;
/** Tasks and their files are removed this many days after they were created. */
export const EXPORT_KEEP_DAYS = 7;
/** The background job that writes an export. */
export const EXPORT_JOB = 'chart-export';

const ILLEGAL_FILE_NAME_CHARS = /[\\/:*?"<>|]/g;
/** Control characters (below U+0020, and DEL) are illegal in file names too. */
const withoutControls = (text: string) => Array.from(text, (ch) => (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f ? '_' : ch)).join('');

/** Text as part of a file name: trimmed, characters file systems refuse and control characters replaced by '_'. */
export function cleanFileName(text: string | null | undefined): string {
  return withoutControls((text ?? '').trim().replace(ILLEGAL_FILE_NAME_CHARS, '_')).trim();
}

/** A typed file name's extension, dropped before the format's own is appended. */
const EXPORT_EXTENSION = /\.(xlsx|csv)$/i;

/**
 * The file name an export is saved under: the typed name (else the fallback, the chart's
 * title; else 导出数据), trimmed, characters that are illegal in file names replaced by '_',
 * cut to 100 characters, with the format's extension (.xlsx, .csv) appended (once).
 */
export function exportFileName(typed: string | null | undefined, fallback: string, format: ExportFormat = 'xlsx'): string {
  const clean = (text: string | null | undefined) => cleanFileName((text ?? '').trim().replace(EXPORT_EXTENSION, ''));
  const base = clean(typed) || clean(fallback) || '导出数据';
  return `${Array.from(base).slice(0, EXPORT_FILE_NAME_MAX_LENGTH).join('')}.${format}`;
}

export const exportCreateSchema = z.object({
  boardId: z.number().int().positive(),
  chartKey: z.string().trim().min(1).max(64),
  /** Default: the chart's title. Without .xlsx; at most 100 characters. */
  fileName: z
    .string()
    .trim()
    .refine((v) => Array.from(v.replace(EXPORT_EXTENSION, '')).length <= EXPORT_FILE_NAME_MAX_LENGTH, { message: exportMessages.fileNameTooLong })
    .nullish(),
  /** xlsx (default) or csv. */
  format: z.enum(EXPORT_FORMATS).default('xlsx'),
  /** The driving charts' values applied when the user clicked 导出. */
  links: z.array(chartLinkValueSchema).max(50).default([]),
  params: globalParamValuesSchema.default({}),
});
export type ExportCreate = z.input<typeof exportCreateSchema>;
export type ExportCreateParsed = z.output<typeof exportCreateSchema>;

export const exportTaskSchema = z.object({
  id: z.number(),
  boardId: z.number(),
  /** The board's title now; null once the board is deleted. */
  boardTitle: z.string().nullable(),
  chartKey: z.string(),
  fileName: z.string(),
  format: z.enum(EXPORT_FORMATS),
  status: z.enum(EXPORT_STATUSES),
  /** 0–100. */
  progress: z.number(),
  /** Rows written so far. */
  rowCount: z.number(),
  /** Rows the export will write (known once the job has counted them). */
  totalRows: z.number().nullable(),
  /** Bytes of the finished file. */
  fileSize: z.number().nullable(),
  /** Why it failed (Chinese), or a note on a finished export (rows cut at the cap). */
  errMsg: z.string().nullable(),
  createTime: z.string(),
  startTime: z.string().nullable(),
  finishTime: z.string().nullable(),
});
export type ExportTask = z.infer<typeof exportTaskSchema>;

/** Export records of one chart for the caller, newest first (popover: size 5). */
export const exportRecordsQuerySchema = pageQuerySchema.extend({
  boardId: z.coerce.number().int().positive(),
  chartKey: z.string().trim().min(1).max(64),
  size: z.coerce.number().int().min(1).max(100).default(EXPORT_RECORD_PAGE_SIZE),
});
export type ExportRecordsQuery = z.input<typeof exportRecordsQuerySchema>;

/** The caller's tasks, newest first, optionally of one status. */
export const exportTasksQuerySchema = pageQuerySchema.extend({
  size: z.coerce.number().int().min(1).max(100).default(EXPORT_TASK_PAGE_SIZE),
  status: z.enum(EXPORT_STATUSES).optional(),
});
export type ExportTasksQuery = z.input<typeof exportTasksQuerySchema>;

/** What the 'chart-export' job is sent. */
export interface ExportJobData {
  taskId: number;
}

/**
 * 任务管理 (/newbi/mine/export): the caller's chart exports and slideshow PDFs in one list,
 * newest first (one query across both, so paging and sorting span them). `kind` says which:
 * its id, download and retry are those of that kind (chart: /api/export/tasks/:id…, pdf:
 * /api/ppt/pdf-tasks/:taskId…).
 */
export const TASK_KINDS = ['chart', 'pdf'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];
export const TASK_KIND_LABELS: Record<TaskKind, string> = { chart: '图表导出', pdf: '幻灯片PDF' };

export const taskEntrySchema = z.object({
  kind: z.enum(TASK_KINDS),
  /** The export task's number, or the PDF task's UUID, as text. */
  id: z.string(),
  fileName: z.string(),
  /** The board's title (chart) or the slideshow's name (pdf) now; null once it is deleted. */
  source: z.string().nullable(),
  /** The board's id (chart) or the slideshow's (pdf). */
  sourceId: z.number(),
  /** A chart export's rows written and rows to write (null for a PDF). */
  rowCount: z.number().nullable(),
  totalRows: z.number().nullable(),
  /** A PDF's pages (null for a chart export). */
  pages: z.number().nullable(),
  status: z.enum(EXPORT_STATUSES),
  /** 0–100: rows written of the rows counted, or pages rendered of the pages. */
  progress: z.number(),
  fileSize: z.number().nullable(),
  errMsg: z.string().nullable(),
  createTime: z.string(),
  finishTime: z.string().nullable(),
});
export type TaskEntry = z.infer<typeof taskEntrySchema>;

/** 任务管理's list: both kinds unless `kind`, optionally of one status. */
export const taskEntriesQuerySchema = exportTasksQuerySchema.extend({ kind: z.enum(TASK_KINDS).optional() });
export type TaskEntriesQuery = z.input<typeof taskEntriesQuerySchema>;
