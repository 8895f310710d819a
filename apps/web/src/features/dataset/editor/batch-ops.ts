import type { AggregationType, DatasetFieldDraft, FieldId, ViewDataType } from '@shutu/contracts';
import { DATASET_DEFAULTS, dedupeFieldTitle } from '@shutu/contracts';
import type { DimensionType, EditorField } from './model-state.ts';
import { aggregationAllowed, renumber, tempFieldId } from './model-state.ts';

/**
 * Batch configuration of fields (spec 2 §2 "Dataset editor layout", §5 "Dataset"): pure
 * state functions for the 批量配置 tab, and the field check's "add the missing columns".
 */

/** The number formats batch configuration offers: AUTO and the built-in ones (a custom format is excluded, spec §5). */
export const NUMBER_FORMATS: readonly { value: string; label: string }[] = [
  { value: DATASET_DEFAULTS.numberDataFormat, label: '自动' },
  { value: '0', label: '整数（1234）' },
  { value: '0.00', label: '两位小数（1234.57）' },
  { value: '#,##0', label: '千分位整数（1,234）' },
  { value: '#,##0.00', label: '千分位两位小数（1,234.57）' },
  { value: '0%', label: '百分比（12%）' },
  { value: '0.00%', label: '百分比两位小数（12.34%）' },
  { value: '0.0万', label: '万（278.4万）' },
  { value: '0.00亿', label: '亿（1.23亿）' },
];

/** Built-in time patterns, in the product's encoding (`_` for -, `$` for :); the first is the default. */
export const TIME_FORMATS: readonly { value: string; label: string }[] = [
  { value: DATASET_DEFAULTS.timeDataFormat, label: 'yyyy-MM-dd hh:mm:ss' },
  { value: 'yyyy_MM_dd', label: 'yyyy-MM-dd' },
  { value: 'yyyy_MM', label: 'yyyy-MM' },
  { value: 'yyyy', label: 'yyyy' },
  { value: 'yyyyMMdd', label: 'yyyyMMdd' },
  { value: 'yyyyMM', label: 'yyyyMM' },
  { value: 'hh$mm$ss', label: 'hh:mm:ss' },
];

export const isBuiltInNumberFormat = (format: string): boolean => NUMBER_FORMATS.some((f) => f.value === format);

/** The label of a field's format: by its type; a format not among the built-ins shows as it is. */
export function formatLabel(f: Pick<EditorField, 'viewDataType' | 'numberDataFormat' | 'timeDataFormat'>): string | null {
  if (f.viewDataType === 'NUMBER') return NUMBER_FORMATS.find((x) => x.value === f.numberDataFormat)?.label ?? f.numberDataFormat;
  if (f.viewDataType === 'DATETIME') return TIME_FORMATS.find((x) => x.value === f.timeDataFormat)?.label ?? f.timeDataFormat;
  return null;
}

/** What the batch bar sets; absent parts are left as they are. */
export interface BatchSettings {
  viewDataType?: ViewDataType;
  numberDataFormat?: string;
  timeDataFormat?: string;
  aggregationType?: AggregationType;
  hiddenStatus?: 0 | 1;
  dimensionType?: DimensionType;
}

export interface BatchResult {
  fields: EditorField[];
  /** Selected fields whose default aggregation was not set because it is not offered for them. */
  skippedAggregation: number;
}

/**
 * Moves the chosen fields to `kind` (those already there stay put): they go to the end of
 * that group in their current order, and both groups are renumbered from 1.
 */
export function setDimension(fields: readonly EditorField[], ids: readonly FieldId[], kind: DimensionType): EditorField[] {
  const chosen = new Set(ids);
  const moving = fields
    .filter((f) => chosen.has(f.id) && f.dimensionType !== kind)
    .sort((a, b) => (a.dimensionType === b.dimensionType ? a.sortNum - b.sortNum : 0));
  if (moving.length === 0) return [...fields];
  const last = Math.max(0, ...fields.filter((f) => f.dimensionType === kind).map((f) => f.sortNum));
  const next = new Map(moving.map((f, i) => [f.id, last + 1 + i]));
  return renumber(fields.map((f) => (next.has(f.id) ? { ...f, dimensionType: kind, sortNum: next.get(f.id)! } : f)));
}

/**
 * Applies `settings` to the fields `ids`: data type and dimension/indicator first, then the
 * formats and hidden state, then the default aggregation — only where it is offered
 * (aggregationAllowed, judged after the type and group changes); the others are counted.
 */
export function applyBatch(fields: readonly EditorField[], ids: readonly FieldId[], settings: BatchSettings): BatchResult {
  const chosen = new Set(ids);
  let next = settings.dimensionType ? setDimension(fields, ids, settings.dimensionType) : [...fields];
  let skippedAggregation = 0;
  next = next.map((original) => {
    if (!chosen.has(original.id)) return original;
    let f = original;
    if (settings.viewDataType) f = { ...f, viewDataType: settings.viewDataType };
    if (settings.numberDataFormat) f = { ...f, numberDataFormat: settings.numberDataFormat };
    if (settings.timeDataFormat) f = { ...f, timeDataFormat: settings.timeDataFormat };
    if (settings.hiddenStatus !== undefined) f = { ...f, hiddenStatus: settings.hiddenStatus };
    if (settings.aggregationType) {
      if (aggregationAllowed(f)) f = { ...f, aggregationType: settings.aggregationType };
      else skippedAggregation++;
    }
    return f;
  });
  return { fields: next, skippedAggregation };
}

/** True when `settings` changes anything. */
export const hasSettings = (settings: BatchSettings): boolean => Object.values(settings).some((v) => v !== undefined);

/**
 * Field check: the chosen drafts become new fields with temporary ids; titles are made
 * unique against the current fields (spec §4: a hidden draft stays hidden), and each group
 * continues its sortNum.
 */
export function appendDrafts(
  fields: readonly EditorField[],
  drafts: readonly DatasetFieldDraft[],
  makeId: (prefix: string) => string = tempFieldId,
): EditorField[] {
  const all: EditorField[] = [...fields];
  const lastOf = (kind: DimensionType) => Math.max(0, ...all.filter((f) => f.dimensionType === kind).map((f) => f.sortNum));
  for (const draft of drafts) {
    const { columnTitle, hiddenStatus } = dedupeFieldTitle(draft.columnTitle, draft.viewDataType, all);
    all.push({
      ...draft,
      id: makeId(draft.tableAliasName ?? 'f'),
      columnTitle,
      hiddenStatus: draft.hiddenStatus || hiddenStatus ? 1 : 0,
      sortNum: lastOf(draft.dimensionType) + 1,
    });
  }
  return all;
}
