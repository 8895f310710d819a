import {
  alertFieldsProblem,
  alertMessage,
  alertMessages,
  alertWindow,
  compactPeriod,
  cubeQueryRequestSchema,
  CUBE_PREVIEW_TIMEOUT_MS,
  type AlertBodyParsed,
  type CubeQueryRequest,
  type FilterGroup,
  type ResultField,
} from '@shutu/contracts';
import type { Row } from '@shutu/connectors';
import type { AppContext } from '../../context.ts';
import { badRequest } from '../../platform/http/errors.ts';
import type { Caller } from '../perm/index.ts';
import { compileRead, openRead, readPage, readRows, type OpenRead } from '../read/index.ts';

/**
 * What an alert reads (docs/alerts.md "The query"): its dimensions and measures over the computed
 * time window — a where-condition on the time column (and, calcType SPECIAL, the time-type column
 * equal to the time type) ANDed with the where-filters — and its measure filters as having-
 * conditions (the thresholds). Always through the read module, as the reader given (the editor's
 * user for a preview, the alert's owner for a check): their row filters and hidden columns apply.
 */

export type AlertQuery = Pick<AlertBodyParsed, 'cubeDataId' | 'columnJson' | 'filterJson' | 'filterRelationJson' | 'filterTimeJson'>;

export interface AlertWindow {
  start: string;
  end: string;
}

/** Rows a check reads at most; more mean "at least this many". */
export const CHECK_ROW_LIMIT = 1000;

function titleOf(read: OpenRead, fieldId: number): string {
  const field = read.model.fields.find((f) => f.id === fieldId);
  if (!field) throw badRequest(alertMessage(alertMessages.fieldNotInDataset, { name: String(fieldId) }));
  return field.columnTitle;
}

/** The cube request of an alert for one window. */
export function alertRequest(read: OpenRead, alert: AlertQuery, window: AlertWindow): CubeQueryRequest {
  const time = alert.filterTimeJson;
  const problem = alertFieldsProblem(alert.columnJson, time, alertMessages.fieldsIncomplete);
  if (problem) throw badRequest(problem);
  for (const column of alert.columnJson) titleOf(read, column.cubeColumnId);
  const timeField = read.model.fields.find((f) => f.id === time.timeColumn);
  if (!timeField) throw badRequest(alertMessage(alertMessages.fieldNotInDataset, { name: String(time.timeColumn) }));
  // A date column takes the days; a text period column (yyyyMMdd / yyyyMM, spec 3 §9) compares as text.
  const bounds =
    timeField.viewDataType === 'DATETIME' ? [window.start, window.end] : [compactPeriod(window.start, time.timeType), compactPeriod(window.end, time.timeType)];
  const fixed: FilterGroup['conditions'] = [{ cubeColumnId: timeField.id, conditions: [{ function: 'between', values: bounds }] }];
  if (time.calcType === 'SPECIAL' && time.timeTypeColumn) {
    titleOf(read, time.timeTypeColumn);
    fixed.push({ cubeColumnId: time.timeTypeColumn, conditions: [{ function: 'eq', values: [time.timeType] }] });
  }
  const item = (f: AlertBodyParsed['filterJson'][number]) => ({
    uniqId: f.uniqId,
    cubeColumnId: f.cubeColumnId,
    connectType: f.connectType,
    dateType: f.dateType,
    conditions: f.conditions,
  });
  const whereItems = alert.filterJson.filter((f) => f.connectTime === 'where').map(item);
  const havingItems = alert.filterJson
    .filter((f) => f.connectTime === 'having')
    .map((f) => {
      const measure = alert.columnJson.find((c) => c.cubeColumnId === f.cubeColumnId);
      if (!measure || measure.dimensionType !== 'ZHIBIAO')
        throw badRequest(alertMessage(alertMessages.thresholdOnDimension, { name: titleOf(read, f.cubeColumnId) }));
      return { ...item(f), aggregation: f.aggregationType ?? measure.aggregationType ?? undefined };
    });
  const relation = alert.filterRelationJson;
  return {
    dimensions: alert.columnJson.filter((c) => c.dimensionType === 'WEIDU').map((c) => ({ fieldId: c.cubeColumnId })),
    measures: alert.columnJson
      .filter((c) => c.dimensionType === 'ZHIBIAO')
      .map((c) => ({ fieldId: c.cubeColumnId, aggregation: c.aggregationType ?? undefined })),
    where: { relation: 'AND', conditions: fixed, filters: whereItems.length > 0 ? [{ relation, conditions: whereItems }] : [] },
    having: havingItems.length > 0 ? { relation, conditions: havingItems } : null,
  };
}

/** The window of an alert at `now` on the installation's clock (read.timeZoneOffsetMinutes). */
export function windowOf(read: Pick<OpenRead, 'timeZoneOffsetMinutes'>, alert: AlertQuery, now: Date): AlertWindow {
  const window = alertWindow(alert.filterTimeJson, now, read.timeZoneOffsetMinutes);
  if (window.start > window.end) throw badRequest(alertMessages.windowInverted);
  return window;
}

/** The editor's preview (spec 3 §7): a page of rows and the field dictionary, as `reader` sees them. */
export async function previewAlert(
  ctx: AppContext,
  reader: Caller,
  alert: AlertQuery,
): Promise<{ dataList: Row[]; fieldDict: ResultField[]; total: number | null; timeValue: string[] }> {
  const problem = alertFieldsProblem(alert.columnJson, alert.filterTimeJson, alertMessages.previewNeedsFields);
  if (problem) throw badRequest(problem);
  const read = await openRead(ctx, { viewer: reader }, alert.cubeDataId!, undefined);
  const window = windowOf(read, alert, read.now);
  const { answer, fields } = await readPage(ctx, read, cubeQueryRequestSchema.parse({ ...alertRequest(read, alert, window), limit: 100, withTotal: true }));
  return { dataList: answer.value.dataList, fieldDict: fields, total: answer.value.total, timeValue: [window.start, window.end] };
}

/** A check's read: the rows that make the alert fire (up to CHECK_ROW_LIMIT), as the owner sees them. */
export async function checkRows(
  ctx: AppContext,
  owner: Caller,
  alert: AlertQuery,
  now: Date,
): Promise<{ rows: Row[]; fields: ResultField[]; window: AlertWindow }> {
  const read = await openRead(ctx, { viewer: owner }, alert.cubeDataId!, undefined);
  const window = windowOf(read, alert, now);
  const compiled = compileRead({ ...read, now }, cubeQueryRequestSchema.parse({ ...alertRequest(read, alert, window), limit: CHECK_ROW_LIMIT }));
  const rows = await readRows(read.driver, compiled, CHECK_ROW_LIMIT, { timeoutMs: CUBE_PREVIEW_TIMEOUT_MS });
  return { rows, fields: compiled.fields, window };
}
