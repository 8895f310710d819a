import path from 'node:path';
import type { Writable } from 'node:stream';
import {
  boardMessages,
  CHART_MAX_ROWS,
  EXPORT_MAX_ROWS,
  EXPORTABLE_CHART_TYPES,
  exportCreateSchema,
  exportMessages,
  formatMessage,
  type ChartDataConfigParsed,
  type ExportCreateParsed,
  type ExportFormat,
  type ResultField,
} from '@shutu/contracts';
import { ConnectorError } from '@shutu/connectors';
import { QueryError, type CompiledQuery } from '@shutu/query';
import type { Logger } from 'pino';
import type { AppContext } from '../../context.ts';
import { fileStorage, keyOfPath, type FileWriter } from '../../platform/files/storage.ts';
import { AppError, badRequest } from '../../platform/http/errors.ts';
import { openSavedChart, planChartRead, type ChartQueryInput, chartTotals } from '../board/index.ts';
import { keyOf } from '../dataset/index.ts';
import type { Caller } from '../perm/index.ts';
import { compileRead, type OpenRead, streamRows } from '../read/index.ts';
import { countRows, EXPORT_QUERY_TIMEOUT_MS, totalsRows } from './export-reads.ts';
import { claimTask, findTask, findUser, updateTask } from './repo.ts';
import { totalsSheetRows } from './export-totals.ts';
import { CsvSheet } from './csv.ts';
import { writePivotExport } from './pivot-export.ts';
import { StreamingSheet, type RowSink, type SheetColumn } from './workbook.ts';

/**
 * The 'chart-export' job: one task's workbook (docs/exports.md).
 *
 * Everything is checked again as the task's owner when the job runs: the owner's account
 * (still active; administrator or not, from sys_user), the board (403 没有此大屏权限 fails the
 * task), the chart, its dataset, and the owner's permission filters, which the query engine
 * compiles into the query exactly as for the chart on screen (board/chart-query.ts). The
 * links and parameters are those the owner had when clicking 导出.
 *
 * Detail tables export all their rows (up to EXPORT_MAX_ROWS) in the chart's order; summary
 * tables their aggregated rows up to the chart's own limit or else EXPORT_MAX_ROWS; bar, line,
 * pie and indicator charts the rows they draw (their dimensions, then their measures: the
 * chart's limit, else CHART_MAX_ROWS, as on screen). Rows stream from the driver into the
 * file (Excel or CSV); progress is written every PROGRESS_EVERY_ROWS rows. A table whose saved
 * style shows 合计 ends with bold 合计 rows: the chart's totals queries (board/chart-totals.ts)
 * compiled with the same permissions, links and parameters. A pivot is written as the
 * cross-tab on screen (pivot-export.ts).
 */

/** Rows between two progress updates. */
export const PROGRESS_EVERY_ROWS = 5000;

/** The stored request of a task: what the user had on screen. */
export type ExportRequest = Pick<ExportCreateParsed, 'links' | 'params'>;

const requestSchema = exportCreateSchema.pick({ links: true, params: true });

/** Where a task's file lives: its key in the file storage (a path under the data directory by default). */
export const exportFilePath = (userId: number, taskId: number, format: ExportFormat = 'xlsx') => path.join('exports', String(userId), `${taskId}.${format}`);

export interface ExportPlan {
  compiled: CompiledQuery;
  columns: SheetColumn[];
  limit: number;
  /** The opened read the rows come through (driver, permissions). */
  read: OpenRead;
  /** The 合计 queries and layout when the chart shows 合计, else null. */
  totals: { grand: CompiledQuery; byColumn: CompiledQuery | null; byRow: CompiledQuery | null } | null;
  /** A pivot: written as its cross-tab (needs all its rows at once); how many leading dimensions are row dimensions. */
  pivot: { rowDimensionCount: number } | null;
  /** The limit is the screen's (CHART_MAX_ROWS) rather than the chart's own: more rows are noted. */
  screenCap: boolean;
}

async function callerOf(ctx: AppContext, userId: number): Promise<Caller> {
  const user = await findUser(ctx.db, userId);
  if (!user || user.status !== 1) throw new AppError(403, exportMessages.userMissing);
  return { userId: user.id, isAdministrator: user.isAdministrator };
}

/** The chart's titles for its fields, where the chart renames them. */
function chartTitles(dataconfig: ChartDataConfigParsed): Map<string, string> {
  const titles = new Map<string, string>();
  for (const entry of [...dataconfig.rowParamList, ...dataconfig.columnParamList, ...dataconfig.indexParamList]) {
    const key = keyOf(entry.fieldId);
    if (entry.title && !titles.has(key)) titles.set(key, entry.title);
  }
  return titles;
}

/**
 * The query of the export: the chart's own query, all pages, read for the task's owner
 * through the board showing the chart (its creator's restriction applies too), exactly as
 * the chart on screen (board planChartRead).
 */
export async function planExport(ctx: AppContext, caller: Caller, task: { boardId: number; chartKey: string }, request: ExportRequest): Promise<ExportPlan> {
  const saved = await openSavedChart(ctx, caller, task.boardId, task.chartKey);
  if (!EXPORTABLE_CHART_TYPES.includes(saved.chartType)) throw badRequest(exportMessages.chartNotExportable);
  if (!saved.dataconfig) throw badRequest(formatMessage(boardMessages.chartNoDataset, { title: saved.title }));
  const detail = saved.chartType === 'detail';
  // Tables export every row; the other charts exactly what they draw (the screen's cap).
  const tableLike = detail || saved.chartType === 'table';
  const limit = detail ? EXPORT_MAX_ROWS : (saved.dataconfig.limit ?? (tableLike ? EXPORT_MAX_ROWS : CHART_MAX_ROWS));
  const input: ChartQueryInput = {
    chartType: saved.chartType,
    title: saved.title,
    dataconfig: saved.dataconfig,
    mode: detail ? 'detail' : 'aggregate',
    links: request.links,
    current: 1,
    size: limit,
    params: request.params,
    showTotal: saved.chart.option.showTotal === true,
  };
  const subject = { viewer: caller, ownerId: saved.board.createUserId, access: 'granted' as const };
  const { read, request: cubeRequest, totals: totalsQueries } = await planChartRead(ctx, subject, input, { limit, offset: 0, withTotal: true });
  // The export's query and its totals queries alike: the subject's permission filters, the links and parameters.
  const compiled = compileRead(read, cubeRequest);
  const renamed = chartTitles(saved.dataconfig);
  const columns = compiled.fields.map((f: ResultField) => ({
    alias: f.alias,
    title: renamed.get(keyOf(f.fieldId as number)) ?? f.title,
    type: f.viewDataType,
    granularity: f.granularity,
  }));
  const totals = totalsQueries && {
    grand: compileRead(read, totalsQueries.grand),
    byColumn: totalsQueries.byColumn && compileRead(read, totalsQueries.byColumn),
    byRow: totalsQueries.byRow && compileRead(read, totalsQueries.byRow),
  };
  const pivot = saved.chartType === 'pivot' ? { rowDimensionCount: saved.dataconfig.rowParamList.length } : null;
  const screenCap = !tableLike && saved.dataconfig.limit == null;
  return { compiled, columns, limit, read, totals, pivot, screenCap };
}

/** A failure as the task shows it: the Chinese message of a refusal, else 导出失败. */
function failureMessage(error: unknown): string {
  if (error instanceof AppError || error instanceof ConnectorError || error instanceof QueryError) return error.message;
  return exportMessages.failed;
}

/** The flat sink of a format: a streamed workbook, or CSV. */
const sinkOf = (format: ExportFormat, file: Writable, columns: readonly SheetColumn[]): RowSink =>
  format === 'csv' ? new CsvSheet(file, columns) : new StreamingSheet(file, columns);

type Progress = (values: { rowCount: number; progress: number }) => Promise<unknown>;

/** Streams the rows (and 合计 rows) of a flat export into its file; the rows written and whether more matched. */
async function writeFlat(plan: ExportPlan, format: ExportFormat, file: Writable, totalRows: number | null, progress: Progress): Promise<number> {
  const sheet = sinkOf(format, file, plan.columns);
  for await (const row of streamRows(plan.read.driver, plan.compiled, { timeoutMs: EXPORT_QUERY_TIMEOUT_MS })) {
    if (sheet.rowCount >= plan.limit) break;
    await sheet.add(row as Record<string, string | number | boolean | null>);
    if (sheet.rowCount % PROGRESS_EVERY_ROWS === 0) {
      await progress({ rowCount: sheet.rowCount, progress: totalRows ? Math.min(99, Math.floor((sheet.rowCount / totalRows) * 100)) : 0 });
    }
  }
  // A summary table's 合计 (a pivot's are part of its cross-tab, pivot-export.ts).
  if (plan.totals && sheet.rowCount > 0) {
    const totals = chartTotals(await totalsRows(plan.read, plan.totals.grand), null, plan.compiled.fields);
    for (const row of totalsSheetRows(totals, plan.compiled.fields, sheet.rowCount)) await sheet.addTotal(row);
  }
  await sheet.finish();
  return sheet.rowCount;
}

/**
 * Runs one export task (the job's handler) as the job run `runId`. A task that is not waiting
 * any more is left alone; once claimed, only this run writes to it (export/recovery.ts runs
 * it again elsewhere if the process dies).
 */
export async function runExportTask(ctx: AppContext, log: Logger, taskId: number, runId: string | null = null): Promise<void> {
  const task = await findTask(ctx.db, taskId);
  if (!task || !(await claimTask(ctx.db, taskId, new Date(), runId))) return;
  const relative = exportFilePath(task.userId, task.id, task.format);
  const key = keyOfPath(relative);
  const files = fileStorage(ctx);
  let writer: FileWriter | undefined;
  try {
    const caller = await callerOf(ctx, task.userId);
    const stored = requestSchema.safeParse(JSON.parse(task.request || '{}'));
    const request: ExportRequest = stored.success ? stored.data : { links: [], params: {} };
    const plan = await planExport(ctx, caller, task, request);
    const matched = await countRows(plan.read, plan.compiled.count);
    const totalRows = matched === null ? null : Math.min(matched, plan.limit);
    await updateTask(ctx.db, taskId, { totalRows }, runId);

    // Streamed into the file storage (a local file or a multipart upload): visible once complete.
    writer = files.writer(key, { contentType: task.format === 'csv' ? 'text/csv' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    const rowCount = plan.pivot
      ? await writePivotExport(plan, plan.pivot.rowDimensionCount, task.format, writer.stream)
      : await writeFlat(plan, task.format, writer.stream, totalRows, (values) => updateTask(ctx.db, taskId, values, runId));
    const { size } = await writer.done();
    writer = undefined;
    if (!(await findTask(ctx.db, taskId))) {
      // Deleted by its owner while it ran: nothing is left behind.
      await files.delete(key);
      return;
    }
    const cut = matched !== null && matched > plan.limit && (plan.limit === EXPORT_MAX_ROWS || plan.screenCap);
    const note = plan.pivot ? exportMessages.pivotTooLarge : exportMessages.tooManyRows;
    await updateTask(
      ctx.db,
      taskId,
      {
        status: 'done',
        progress: 100,
        rowCount,
        totalRows: rowCount,
        filePath: relative,
        fileSize: size,
        errMsg: cut ? formatMessage(note, { max: plan.limit }) : null,
        finishTime: new Date(),
      },
      runId,
    );
  } catch (error) {
    if (!(error instanceof AppError)) log.error({ err: error, taskId }, 'export failed');
    await writer?.abort();
    await files.delete(key).catch(() => undefined);
    await updateTask(ctx.db, taskId, { status: 'failed', errMsg: failureMessage(error).slice(0, 1000), finishTime: new Date() }, runId);
  }
}
