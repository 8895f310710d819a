import type { ApiParam, Chart, ChartDataResult, DataApiParamDatatype, ShowField } from '@shutu/contracts';
import { dataApiNoteSchema, type DataApiNote } from '@shutu/contracts';

/**
 * The editors' pure rules (spec 2 §4, §5 "Data API"): the note's fields and parameters, the
 * parameter object, fields from the first preview row, the panels and the chart kinds.
 */

export function parseNote(note: string | null | undefined): DataApiNote {
  try {
    return dataApiNoteSchema.parse(JSON.parse(note || '{}'));
  } catch {
    return { showFields: [], params: [] };
  }
}

/** The parameter object: key → default; parameters with an empty key are ignored, the first of a key wins. */
export function paramObject(params: readonly ApiParam[]): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {};
  for (const p of params) {
    const key = p.key.trim();
    if (!key || key in out) continue;
    out[key] = p.def ?? null;
  }
  return out;
}

/** How a default is typed in (spec 2 §5): the format each datatype expects, checked before save. */
export const PARAM_FORMATS: Record<DataApiParamDatatype, { pattern: RegExp; example: string }> = {
  string: { pattern: /^[\s\S]*$/, example: '' },
  number: { pattern: /^-?\d+(\.\d+)?$/, example: '100' },
  date: { pattern: /^\d{4}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/, example: '20240131' },
  month: { pattern: /^\d{4}(0[1-9]|1[0-2])$/, example: '202401' },
  time: { pattern: /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/, example: '08:30:00' },
  timestamp: { pattern: /^\d+$/, example: '1704067200000' },
};

/** Whether `value` suits the datatype (empty is fine: no default). */
export function validDefault(datatype: DataApiParamDatatype, value: string | number | null | undefined): boolean {
  if (value === null || value === undefined || String(value) === '') return true;
  return PARAM_FORMATS[datatype].pattern.test(String(value));
}

export type PanelKey = 'rows' | 'cols' | 'indicators';
export interface Panels {
  rows: string[];
  cols: string[];
  indicators: string[];
}
export const EMPTY_PANELS: Panels = { rows: [], cols: [], indicators: [] };

/**
 * The fields of a preview (spec 2 §4): from the first row's columns; a field already in the saved
 * showFields keeps its settings, others are dimensions titled by their name.
 */
export function fieldsFromRow(row: unknown, saved: readonly ShowField[]): ShowField[] {
  if (!row || typeof row !== 'object' || Array.isArray(row)) return [...saved];
  return Object.keys(row).map((columnName) => saved.find((f) => f.columnName === columnName) ?? { columnName, columnComments: columnName, dataType: 0 });
}

/** Dimensions go to the row panel, indicators to the indicator panel (spec 2 §4). */
export function panelsOf(fields: readonly ShowField[]): Panels {
  return {
    rows: fields.filter((f) => f.dataType === 0).map((f) => f.columnName),
    cols: [],
    indicators: fields.filter((f) => f.dataType === 1).map((f) => f.columnName),
  };
}

/** Adds a field to a panel; one already there is ignored (spec 2 §5: duplicates by column name). */
export function addToPanel(panels: Panels, panel: PanelKey, columnName: string): Panels {
  if (panels[panel].includes(columnName)) return panels;
  return { ...panels, [panel]: [...panels[panel], columnName] };
}

/** Takes a field out of every panel and puts it into `panel`. */
export function movePanel(panels: Panels, columnName: string, panel: PanelKey): Panels {
  const out = {
    rows: panels.rows.filter((c) => c !== columnName),
    cols: panels.cols.filter((c) => c !== columnName),
    indicators: panels.indicators.filter((c) => c !== columnName),
  };
  return addToPanel(out, panel, columnName);
}

/**
 * Drag reordering: takes a field out of every panel and puts it into `panel` just before `before`
 * (a field of that panel), or at its end when `before` is null or not there.
 */
export function placeInPanel(panels: Panels, panel: PanelKey, columnName: string, before: string | null): Panels {
  if (columnName === before) return panels;
  const out = movePanel(panels, columnName, panel);
  const list = out[panel].filter((c) => c !== columnName);
  const at = before === null ? -1 : list.indexOf(before);
  list.splice(at < 0 ? list.length : at, 0, columnName);
  return { ...out, [panel]: list };
}

export function removeFromPanel(panels: Panels, panel: PanelKey, columnName: string): Panels {
  return { ...panels, [panel]: panels[panel].filter((c) => c !== columnName) };
}

export const CHART_KINDS = ['table', 'pivot', 'bar', 'line', 'pie', 'json'] as const;
export type ChartKind = (typeof CHART_KINDS)[number];

/** Pie is disabled with more than one indicator (spec 2 §4). */
export function kindEnabled(kind: ChartKind, panels: Panels): boolean {
  return kind !== 'pie' || panels.indicators.length <= 1;
}

/** The kind to show: the chosen one, or the first enabled one when it became disabled. */
export function effectiveKind(kind: ChartKind, panels: Panels): ChartKind {
  return kindEnabled(kind, panels) ? kind : CHART_KINDS.find((k) => kindEnabled(k, panels))!;
}

type Cell = string | number | boolean | null;
const cell = (v: unknown): Cell => (v === null || v === undefined ? null : typeof v === 'object' ? JSON.stringify(v) : (v as Cell));

/**
 * The preview rows as the shared chart renderer's input: row then column dimensions (d0…),
 * indicators (m0…), titles from the field settings; so table, pivot, bar, line and pie draw
 * exactly as on boards.
 */
export function chartInput(
  kind: Exclude<ChartKind, 'json'>,
  panels: Panels,
  fields: readonly ShowField[],
  rows: readonly Record<string, unknown>[],
): { chart: Chart; data: ChartDataResult } {
  const title = (c: string) => fields.find((f) => f.columnName === c)?.columnComments || c;
  const dims = [...panels.rows, ...(kind === 'pivot' ? panels.cols : [])];
  const fieldDict: ChartDataResult['fieldDict'] = [
    ...dims.map((c, i) => ({
      alias: `d${i}`,
      fieldId: i + 1,
      title: title(c),
      viewDataType: 'STRING' as const,
      kind: 'dimension' as const,
      aggregation: null,
      granularity: null,
    })),
    ...panels.indicators.map((c, i) => ({
      alias: `m${i}`,
      fieldId: 1000 + i,
      title: title(c),
      viewDataType: 'NUMBER' as const,
      kind: 'measure' as const,
      aggregation: 'SUM' as const,
      granularity: null,
    })),
  ];
  const dataList = rows.map((r) => {
    const out: Record<string, Cell> = {};
    dims.forEach((c, i) => (out[`d${i}`] = cell(r[c])));
    panels.indicators.forEach((c, i) => (out[`m${i}`] = cell(r[c])));
    return out;
  });
  const param = (c: string, i: number, from: number) => ({ fieldId: from + i, title: title(c) });
  const chart: Chart = {
    id: 0,
    key: 'dataapi-preview',
    name: kind,
    title: '',
    dataconfig: {
      cubeId: 0,
      rowParamList: panels.rows.map((c, i) => param(c, i, 1)),
      columnParamList: kind === 'pivot' ? panels.cols.map((c, i) => param(c, i, panels.rows.length + 1)) : [],
      indexParamList: panels.indicators.map((c, i) => param(c, i, 1000)),
      sortList: [],
    },
    option: {},
    modalSet: null,
    site: { x: 0, y: 0, w: 12, h: 8, isDiglog: false, isFilexd: false, isSimple: true, zIndex: 0 },
    ext: { filterList: [] },
  } as unknown as Chart;
  return { chart, data: { fieldDict, dataList, total: null, elapsedMs: 0, shared: false } as ChartDataResult };
}

/** The address an editor moves to after its first save (spec 2 §2): the same editor with ?id=. */
export function editorPathAfterSave(pathname: string, id: number): string {
  return `${pathname}?id=${id}`;
}

/** The preview's rows when the answer is a list of objects (type 1 and 3, and handlers that return one). */
export function rowsOf(data: unknown): Record<string, unknown>[] | null {
  if (!Array.isArray(data)) return null;
  return data.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r)) ? (data as Record<string, unknown>[]) : null;
}

export interface DictNode {
  key: string | number;
  value: string | number | null;
  children?: DictNode[];
}

/**
 * The dictionary tree of a preview (spec 2 §3 "Dictionary-from-API"): rows with ID, VALUE and PID
 * (any case); a row whose PID names another row's ID is its child, others are roots. Rows without
 * an ID are skipped; a PID cycle leaves those rows out rather than looping.
 */
export function dictTree(rows: readonly Record<string, unknown>[]): DictNode[] {
  const pick = (row: Record<string, unknown>, name: string) => row[Object.keys(row).find((k) => k.toUpperCase() === name) ?? name];
  const scalar = (v: unknown): string | number | null =>
    typeof v === 'number' || typeof v === 'string' ? v : v === null || v === undefined ? null : String(v);
  const nodes = new Map<string, { node: DictNode; parent: string | null }>();
  for (const row of rows) {
    const id = scalar(pick(row, 'ID'));
    if (id === null || nodes.has(String(id))) continue;
    const pid = scalar(pick(row, 'PID'));
    nodes.set(String(id), { node: { key: id, value: scalar(pick(row, 'VALUE')) }, parent: pid === null || pid === '' ? null : String(pid) });
  }
  const roots: DictNode[] = [];
  for (const [id, { node, parent }] of nodes) {
    const host = parent !== null && parent !== id ? nodes.get(parent) : undefined;
    if (host) (host.node.children ??= []).push(node);
    else roots.push(node);
  }
  return roots;
}
