import type { Chart, ChartDataResult } from '@shutu/contracts';
import type { CubeCell } from './format.ts';
import { formatDimension } from './format.ts';

/**
 * Reading a chart's display options and splitting a chart-data result into its row
 * dimensions, column dimensions and measures.
 */

export type ResultField = ChartDataResult['fieldDict'][number];
export type ResultRow = ChartDataResult['dataList'][number];

/**
 * The display options the renderer reads from `chart.option` (kept as sent by the editor;
 * anything of the wrong type is ignored).
 */
export interface ChartDisplayOptions {
  /** Series colours, in order. */
  colors: string[] | null;
  /** Default true. */
  showLegend: boolean;
  /** Value labels on bars / points / slices (pie: default true; others: false). */
  showLabel: boolean;
  stack: boolean;
  /** Line: smooth curves. */
  smooth: boolean;
  /** Bar: bars along the y axis. */
  horizontal: boolean;
  /** Pie: a ring. */
  donut: boolean;
  axisFontSize: number | null;
  axisFontColor: string | null;
  /** numberDataFormat by field id (string or number key). */
  formats: Record<string, string>;
  /** Pivot: a totals row. */
  showTotal: boolean;
  /** Pivot: the 结构筛选 control (default on; false closes it). */
  structureFilter: boolean;
  /** Text chart. */
  textFontSize: number | null;
  textColor: string | null;
  textAlign: 'left' | 'center' | 'right';
}

const bool = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

export function readOptions(chart: Pick<Chart, 'name' | 'option'>): ChartDisplayOptions {
  const o = chart.option ?? {};
  const colors = Array.isArray(o.colors) ? o.colors.filter((c): c is string => typeof c === 'string' && c.trim() !== '') : [];
  const formats: Record<string, string> = {};
  if (o.formats && typeof o.formats === 'object' && !Array.isArray(o.formats)) {
    for (const [k, v] of Object.entries(o.formats as Record<string, unknown>)) if (typeof v === 'string') formats[k] = v;
  }
  return {
    colors: colors.length > 0 ? colors : null,
    showLegend: bool(o.showLegend, true),
    showLabel: bool(o.showLabel, chart.name === 'pie'),
    stack: bool(o.stack, false),
    smooth: bool(o.smooth, false),
    horizontal: bool(o.horizontal, false),
    donut: bool(o.donut, false),
    axisFontSize: num(o.axisFontSize),
    axisFontColor: str(o.axisFontColor),
    formats,
    showTotal: bool(o.showTotal, false),
    structureFilter: bool(o.structureFilter, true),
    textFontSize: num(o.fontSize),
    textColor: str(o.color),
    textAlign: o.textAlign === 'center' || o.textAlign === 'right' ? o.textAlign : 'left',
  };
}

/** The format of a field by its id, or undefined (AUTO). */
export function formatOf(options: ChartDisplayOptions, field: Pick<ResultField, 'fieldId'>): string | undefined {
  return options.formats[String(field.fieldId)];
}

export interface SplitFields {
  rowDims: ResultField[];
  colDims: ResultField[];
  measures: ResultField[];
}

/**
 * The result's dimensions in fieldDict order are the row dimensions (rowParamList) followed
 * by the column dimensions (columnParamList); measures follow indexParamList. Without a
 * dataconfig every dimension is a row dimension.
 */
export function splitFields(chart: Pick<Chart, 'dataconfig'>, data: Pick<ChartDataResult, 'fieldDict'>): SplitFields {
  const dims = data.fieldDict.filter((f) => f.kind === 'dimension');
  const measures = data.fieldDict.filter((f) => f.kind === 'measure');
  const config = chart.dataconfig;
  const colCount = config?.columnParamList.length ?? 0;
  const rowCount = Math.max(0, dims.length - colCount);
  return {
    rowDims: retitle(dims.slice(0, rowCount), config?.rowParamList),
    colDims: retitle(dims.slice(rowCount), config?.columnParamList),
    measures: retitle(measures, config?.indexParamList),
  };
}

/** The titles the chart gives its fields (dataconfig `title`) replace the dataset's, position by position. */
export function retitle(fields: ResultField[], params: readonly { fieldId: number; title?: string | null }[] | undefined): ResultField[] {
  if (!params) return fields;
  return fields.map((f, i) => {
    const p = params[i];
    return p && p.title && String(p.fieldId) === String(f.fieldId) ? { ...f, title: p.title } : f;
  });
}

/** The label of a tuple of dimension values: joined with ' / '. */
export function tupleLabel(values: readonly CubeCell[], fields?: readonly Pick<ResultField, 'granularity'>[]): string {
  return values.map((v, i) => formatDimension(v, fields?.[i]?.granularity)).join(' / ');
}

/** Tuples of dimension values: the same helpers the shared pivot layout uses. */
export { distinctTuples, tupleKey, tupleOf } from '@shutu/contracts/pivot-layout';

/** Keeps a URL only when it is http(s), protocol-relative, root-relative or a data: image. */
export function safeUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  const u = url.trim();
  if (/^(https?:)?\/\//i.test(u) || /^\/(?!\/)/.test(u) || /^data:image\/(png|jpe?g|gif|webp|svg\+xml);/i.test(u)) return u;
  if (/^[\w\-./]+$/.test(u) && !u.includes(':')) return u;
  return null;
}
