import {
  CHART_TYPE_LABELS,
  DEFAULT_SCREEN_SIZE,
  QUICK_GRID,
  FILTER_CHART_TYPES,
  STATIC_CHART_TYPES,
  type Board,
  type BoardContentParsed,
  type BoardKind,
  type BoardSave,
  type BoardType,
  type ChartSave,
  type ChartType,
  type LayoutItem,
} from '@shutu/contracts';
import type { ChartDraft } from './types.ts';

/**
 * The board editors' state as a pure reducer: the document being edited (title, category,
 * content, charts), the selection, and an undo / redo history of documents. Drags and resizes
 * are recorded once, when they end (the canvases keep the moving rectangle themselves);
 * typing in one field within a second is one entry (`coalesce`).
 */

export type EditorContent = BoardContentParsed;
export type ChartSite = ChartDraft['site'];

export interface EditorDoc {
  title: string;
  categoryId: number | null;
  content: EditorContent;
  charts: ChartDraft[];
}

export interface EditorState {
  boardId: number | null;
  doc: EditorDoc;
  /** The document as last loaded or saved: the editor is dirty while `doc` is another object. */
  savedDoc: EditorDoc | null;
  selectedKey: string | null;
  past: EditorDoc[];
  future: EditorDoc[];
  /** The coalescing key and time of the last recorded change. */
  last: { key: string; at: number } | null;
}

export const HISTORY_LIMIT = 100;
/** Changes with the same coalescing key closer than this are one undo step (typing). */
export const COALESCE_MS = 1000;
/** Screen boards: moves and resizes snap to this grid (design pixels). */
export const SNAP_GRID = 10;
/** Screen boards: a new chart's size (design pixels). */
export const DEFAULT_SCREEN_CHART = { w: 480, h: 300 } as const;
/** Quick boards: a new widget's size (grid units). */
export const DEFAULT_QUICK_CHART = { w: 8, h: 6 } as const;
export const MIN_SCREEN_CHART = 20;
/** A new text chart's text, until the configuration panel changes it. */
export const NEW_TEXT = '请输入文本内容';

export type LayerOp = 'forward' | 'backward' | 'front' | 'back';
export interface Coalesce {
  key: string;
  at: number;
}
export interface SitePatch {
  key: string;
  site: Partial<ChartSite>;
}

export type EditorAction =
  | { type: 'load'; boardId: number | null; doc: EditorDoc }
  /** `doc`: the document that was sent (changes made while saving stay unsaved). */
  | { type: 'saved'; boardId: number; doc?: EditorDoc }
  | { type: 'select'; key: string | null }
  | { type: 'setTitle'; title: string; at?: number }
  | { type: 'setCategory'; categoryId: number }
  | { type: 'setContent'; patch: Partial<EditorContent>; coalesce?: Coalesce }
  | { type: 'addChart'; chart: ChartDraft }
  | { type: 'updateChart'; chart: ChartDraft; coalesce?: Coalesce }
  | { type: 'updateSites'; patches: SitePatch[]; coalesce?: Coalesce }
  /** Quick boards: the grid's own compaction, not a user change (no history entry). */
  | { type: 'syncLayout'; patches: SitePatch[] }
  | { type: 'removeChart'; key: string }
  | { type: 'duplicateChart'; key: string; newKey: string }
  | { type: 'layer'; key: string; op: LayerOp }
  | { type: 'undo' }
  | { type: 'redo' };

// ---------------------------------------------------------------------------------------
// Documents

export const isQuick = (doc: EditorDoc) => doc.content.type === 'quick';

export function defaultContent(type: BoardType): EditorContent {
  return {
    type,
    layout: [],
    width: DEFAULT_SCREEN_SIZE.width,
    height: DEFAULT_SCREEN_SIZE.height,
    editSwitch: false,
  };
}

export function newDoc(type: BoardType, title: string, categoryId: number | null): EditorDoc {
  return { title, categoryId, content: defaultContent(type), charts: [] };
}

/**
 * The document of a loaded board. Quick boards take each chart's place from content.layout
 * (grid units) when it names the chart; screen boards keep the sites (pixels).
 */
export function docFromBoard(board: Board, type: BoardType): EditorDoc {
  const content: EditorContent = { ...defaultContent(type), ...board.content, type };
  const byKey = new Map(board.content.layout.map((l) => [l.i, l]));
  const charts = board.charts.map((chart) => {
    const item = type === 'quick' ? byKey.get(chart.key) : undefined;
    return item ? { ...chart, site: { ...chart.site, x: item.x, y: item.y, w: item.w, h: item.h } } : chart;
  });
  return { title: board.title, categoryId: board.categoryId, content, charts };
}

export function initialState(doc: EditorDoc, boardId: number | null = null): EditorState {
  return { boardId, doc, savedDoc: boardId === null ? null : doc, selectedKey: null, past: [], future: [], last: null };
}

export const isDirty = (s: EditorState) => s.boardId === null || s.doc !== s.savedDoc;

// ---------------------------------------------------------------------------------------
// New charts

let keyCounter = 0;
/** A fresh chart key: 'c' + base-36 time + a counter (unique within a session, readable). */
export function newChartKey(now = Date.now()): string {
  keyCounter = (keyCounter + 1) % 1296;
  return `c${now.toString(36)}${keyCounter.toString(36).padStart(2, '0')}`;
}

/** The dataset a new chart starts from: the editor's `?ds=`, else the last chart's dataset. */
export function defaultCubeOf(charts: readonly ChartDraft[], ds: number | null): number | null {
  if (ds) return ds;
  for (let i = charts.length - 1; i >= 0; i--) {
    const cubeId = charts[i]!.dataconfig?.cubeId;
    if (cubeId) return cubeId;
  }
  return null;
}

const maxZ = (charts: readonly ChartDraft[]) => charts.reduce((m, c) => Math.max(m, c.site.zIndex), -1);
/** Filter controls and indicator cards are small; everything else gets the default size. */
export function defaultChartSize(type: ChartType, quick: boolean): { w: number; h: number } {
  if (FILTER_CHART_TYPES.includes(type)) return quick ? { w: 6, h: 2 } : { w: 360, h: 100 };
  if (type === 'card') return quick ? { w: 6, h: 3 } : { w: 360, h: 180 };
  return quick ? DEFAULT_QUICK_CHART : DEFAULT_SCREEN_CHART;
}

/** Quick boards: the first place, row by row and left to right, where a w × h widget overlaps nothing. */
export function firstFreeQuickSpot(charts: readonly ChartDraft[], w: number, h: number): { x: number; y: number } {
  const overlaps = (x: number, y: number) => charts.some((c) => x < c.site.x + c.site.w && c.site.x < x + w && y < c.site.y + c.site.h && c.site.y < y + h);
  for (let y = 0; ; y++) {
    for (let x = 0; x + w <= QUICK_GRID.columns; x++) if (!overlaps(x, y)) return { x, y };
  }
}

export interface NewChartOptions {
  key: string;
  cubeId: number | null;
  /** Where it was dropped (screen: design pixels of its top-left corner; quick: grid units). */
  at?: { x: number; y: number } | null;
}

/**
 * A chart of `type` with the type's label as title (the configuration panel replaces it with
 * the fields' names as they are added), a default place and, for data charts, the dataset with
 * empty lists.
 */
export function newChart(doc: EditorDoc, type: ChartType, { key, cubeId, at }: NewChartOptions): ChartDraft {
  const quick = isQuick(doc);
  let site: ChartSite;
  if (quick) {
    const { w, h } = defaultChartSize(type, true);
    const place = at ? { x: clamp(Math.round(at.x), 0, QUICK_GRID.columns - w), y: Math.max(0, Math.round(at.y)) } : firstFreeQuickSpot(doc.charts, w, h);
    site = baseSite({ ...place, w, h });
  } else {
    const { w, h } = defaultChartSize(type, false);
    const cascade = (doc.charts.length % 10) * 20;
    const x = at ? at.x : 40 + cascade;
    const y = at ? at.y : 40 + cascade;
    site = baseSite({
      x: clamp(snap(x, SNAP_GRID), 0, Math.max(0, doc.content.width - w)),
      y: clamp(snap(y, SNAP_GRID), 0, Math.max(0, doc.content.height - h)),
      w,
      h,
      zIndex: maxZ(doc.charts) + 1,
    });
  }
  const isStatic = STATIC_CHART_TYPES.includes(type);
  return {
    id: 0,
    key,
    name: type,
    title: CHART_TYPE_LABELS[type],
    dataconfig: !isStatic && cubeId ? { cubeId, rowParamList: [], columnParamList: [], indexParamList: [], sortList: [] } : null,
    option: {},
    modalSet: null,
    site,
    // A new filter control applies board-wide (docs/board-preview.md "Board-wide filters").
    ext: { filterList: [], ...(type === 'text' ? { text: NEW_TEXT } : {}), ...(FILTER_CHART_TYPES.includes(type) ? { autoLink: true } : {}) },
  };
}

function baseSite(place: Pick<ChartSite, 'x' | 'y' | 'w' | 'h'> & { zIndex?: number }): ChartSite {
  return { isDiglog: false, isFilexd: false, isSimple: false, zIndex: 0, ...place };
}

// ---------------------------------------------------------------------------------------
// Geometry: snapping (screen boards)

export const clamp = (v: number, min: number, max: number) => Math.min(Math.max(v, min), max);
export const snap = (v: number, grid: number) => Math.round(v / grid) * grid;

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}
/** A guide line: vertical lines at x = pos, horizontal at y = pos (design pixels). */
export interface Guide {
  axis: 'x' | 'y';
  pos: number;
}

/** The lines another chart (or the board itself) offers on one axis: its two edges and its centre. */
function targetLines(others: readonly Rect[], board: { width: number; height: number }, axis: 'x' | 'y'): number[] {
  const size = axis === 'x' ? board.width : board.height;
  const lines = [0, size / 2, size];
  for (const r of others) {
    const start = axis === 'x' ? r.x : r.y;
    const len = axis === 'x' ? r.w : r.h;
    lines.push(start, start + len / 2, start + len);
  }
  return lines;
}

/** The nearest target to any of `points` within `threshold`: the shift to apply and the guide's position. */
function nearest(points: readonly number[], targets: readonly number[], threshold: number): { shift: number; pos: number } | null {
  let best: { shift: number; pos: number } | null = null;
  for (const p of points) {
    for (const t of targets) {
      const d = t - p;
      if (Math.abs(d) <= threshold && (!best || Math.abs(d) < Math.abs(best.shift))) best = { shift: d, pos: t };
    }
  }
  return best;
}

export interface SnapOptions {
  board: { width: number; height: number };
  others: readonly Rect[];
  /** Design pixels within which an edge or centre snaps to another's (the canvas passes a few screen pixels / scale). */
  threshold: number;
  grid?: number;
}

/**
 * A moved rectangle: on each axis its edges or centre snap to the nearest edge or centre of
 * another chart or of the board (with a guide line); failing that, its corner snaps to the
 * grid. It stays inside the board.
 */
export function snapMove(rect: Rect, { board, others, threshold, grid = SNAP_GRID }: SnapOptions): { rect: Rect; guides: Guide[] } {
  const guides: Guide[] = [];
  const place = (axis: 'x' | 'y') => {
    const start = axis === 'x' ? rect.x : rect.y;
    const len = axis === 'x' ? rect.w : rect.h;
    const limit = (axis === 'x' ? board.width : board.height) - len;
    const hit = nearest([start, start + len / 2, start + len], targetLines(others, board, axis), threshold);
    if (hit) guides.push({ axis, pos: hit.pos });
    return clamp(hit ? start + hit.shift : snap(start, grid), 0, Math.max(0, limit));
  };
  return { rect: { x: place('x'), y: place('y'), w: rect.w, h: rect.h }, guides };
}

/** A resize handle: n, s, e, w and the four corners. */
export type Handle = 'n' | 's' | 'e' | 'w' | 'ne' | 'nw' | 'se' | 'sw';
export const HANDLES: readonly Handle[] = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'];

/**
 * A rectangle resized by `handle` by (dx, dy): only the dragged edges move; each snaps to
 * another chart's or the board's line (with a guide) or else to the grid; it keeps a
 * minimum size and stays inside the board.
 */
export function resizeRect(
  start: Rect,
  handle: Handle,
  dx: number,
  dy: number,
  { board, others, threshold, grid = SNAP_GRID }: SnapOptions,
): { rect: Rect; guides: Guide[] } {
  const guides: Guide[] = [];
  let left = start.x;
  let right = start.x + start.w;
  let top = start.y;
  let bottom = start.y + start.h;
  const xLines = targetLines(others, board, 'x');
  const yLines = targetLines(others, board, 'y');
  const edge = (value: number, axis: 'x' | 'y') => {
    const hit = nearest([value], axis === 'x' ? xLines : yLines, threshold);
    if (hit) {
      guides.push({ axis, pos: hit.pos });
      return hit.pos;
    }
    return snap(value, grid);
  };
  if (handle.includes('w')) left = clamp(edge(left + dx, 'x'), 0, right - MIN_SCREEN_CHART);
  if (handle.includes('e')) right = clamp(edge(right + dx, 'x'), left + MIN_SCREEN_CHART, board.width);
  if (handle.includes('n')) top = clamp(edge(top + dy, 'y'), 0, bottom - MIN_SCREEN_CHART);
  if (handle.includes('s')) bottom = clamp(edge(bottom + dy, 'y'), top + MIN_SCREEN_CHART, board.height);
  return { rect: { x: left, y: top, w: right - left, h: bottom - top }, guides };
}

/** Arrow-key nudge: 1 design pixel (10 with Shift), kept inside the board. */
export function nudge(rect: Rect, dx: number, dy: number, board: { width: number; height: number }): Rect {
  return { ...rect, x: clamp(rect.x + dx, 0, Math.max(0, board.width - rect.w)), y: clamp(rect.y + dy, 0, Math.max(0, board.height - rect.h)) };
}

// ---------------------------------------------------------------------------------------
// Layers (screen boards)

/** Charts from back to front (zIndex, then their order in the list). */
export function byLayer(charts: readonly ChartDraft[]): ChartDraft[] {
  return charts
    .map((c, i) => ({ c, i }))
    .sort((a, b) => a.c.site.zIndex - b.c.site.zIndex || a.i - b.i)
    .map(({ c }) => c);
}

/** Moves a chart one step or to an end of the layer order; zIndex becomes 0..n-1 back to front. */
export function reorderLayers(charts: readonly ChartDraft[], key: string, op: LayerOp): ChartDraft[] {
  const order = byLayer(charts);
  const from = order.findIndex((c) => c.key === key);
  if (from < 0) return [...charts];
  const to = { forward: Math.min(from + 1, order.length - 1), backward: Math.max(from - 1, 0), front: order.length - 1, back: 0 }[op];
  const [moved] = order.splice(from, 1);
  order.splice(to, 0, moved!);
  const z = new Map(order.map((c, i) => [c.key, i]));
  return charts.map((c) => (c.site.zIndex === z.get(c.key) ? c : { ...c, site: { ...c.site, zIndex: z.get(c.key)! } }));
}

// ---------------------------------------------------------------------------------------
// The reducer

function applySites(charts: readonly ChartDraft[], patches: readonly SitePatch[]): ChartDraft[] | null {
  const byKey = new Map(patches.map((p) => [p.key, p.site]));
  let changed = false;
  const next = charts.map((c) => {
    const patch = byKey.get(c.key);
    if (!patch) return c;
    const site = { ...c.site, ...patch };
    if ((Object.keys(patch) as (keyof ChartSite)[]).every((k) => site[k] === c.site[k])) return c;
    changed = true;
    return { ...c, site };
  });
  return changed ? next : null;
}

/** Records `doc` as the new document: one history entry, or merged into the last when coalescing. */
function commit(state: EditorState, doc: EditorDoc, coalesce?: Coalesce, selectedKey = state.selectedKey): EditorState {
  const merge = !!coalesce && !!state.last && state.last.key === coalesce.key && coalesce.at - state.last.at < COALESCE_MS && state.past.length > 0;
  const past = merge ? state.past : [...state.past, state.doc].slice(-HISTORY_LIMIT);
  return { ...state, doc, past, future: [], selectedKey, last: coalesce ?? null };
}

const withCharts = (doc: EditorDoc, charts: ChartDraft[]): EditorDoc => ({ ...doc, charts });
const keepSelection = (doc: EditorDoc, key: string | null) => (key && doc.charts.some((c) => c.key === key) ? key : null);

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  const { doc } = state;
  switch (action.type) {
    case 'load':
      return initialState(action.doc, action.boardId);
    case 'saved':
      return { ...state, boardId: action.boardId, savedDoc: action.doc ?? doc, last: null };
    case 'select':
      return state.selectedKey === action.key ? state : { ...state, selectedKey: keepSelection(doc, action.key) };
    case 'setTitle':
      return action.title === doc.title ? state : commit(state, { ...doc, title: action.title }, { key: 'title', at: action.at ?? Date.now() });
    case 'setCategory':
      return action.categoryId === doc.categoryId ? state : commit(state, { ...doc, categoryId: action.categoryId });
    case 'setContent':
      return commit(state, { ...doc, content: { ...doc.content, ...action.patch } }, action.coalesce);
    case 'addChart':
      return commit(state, withCharts(doc, [...doc.charts, action.chart]), undefined, action.chart.key);
    case 'updateChart': {
      const i = doc.charts.findIndex((c) => c.key === action.chart.key);
      if (i < 0) return state;
      const charts = doc.charts.slice();
      charts[i] = action.chart;
      return commit(state, withCharts(doc, charts), action.coalesce);
    }
    case 'updateSites': {
      const charts = applySites(doc.charts, action.patches);
      return charts ? commit(state, withCharts(doc, charts), action.coalesce) : state;
    }
    case 'syncLayout': {
      const charts = applySites(doc.charts, action.patches);
      if (!charts) return state;
      const next = withCharts(doc, charts);
      return { ...state, doc: next, savedDoc: state.savedDoc === doc ? next : state.savedDoc };
    }
    case 'removeChart': {
      const charts = doc.charts.filter((c) => c.key !== action.key);
      if (charts.length === doc.charts.length) return state;
      return commit(state, withCharts(doc, charts), undefined, state.selectedKey === action.key ? null : state.selectedKey);
    }
    case 'duplicateChart': {
      const source = doc.charts.find((c) => c.key === action.key);
      if (!source) return state;
      const site = isQuick(doc)
        ? { ...source.site, ...firstFreeQuickSpot(doc.charts, source.site.w, source.site.h) }
        : {
            ...source.site,
            x: clamp(source.site.x + 20, 0, Math.max(0, doc.content.width - source.site.w)),
            y: clamp(source.site.y + 20, 0, Math.max(0, doc.content.height - source.site.h)),
            zIndex: maxZ(doc.charts) + 1,
          };
      const copy: ChartDraft = { ...structuredClone(source), id: 0, key: action.newKey, site };
      return commit(state, withCharts(doc, [...doc.charts, copy]), undefined, copy.key);
    }
    case 'layer':
      return commit(state, withCharts(doc, reorderLayers(doc.charts, action.key, action.op)));
    case 'undo': {
      const prev = state.past.at(-1);
      if (!prev) return state;
      return {
        ...state,
        doc: prev,
        past: state.past.slice(0, -1),
        future: [doc, ...state.future],
        selectedKey: keepSelection(prev, state.selectedKey),
        last: null,
      };
    }
    case 'redo': {
      const next = state.future[0];
      if (!next) return state;
      return {
        ...state,
        doc: next,
        past: [...state.past, doc].slice(-HISTORY_LIMIT),
        future: state.future.slice(1),
        selectedKey: keepSelection(next, state.selectedKey),
        last: null,
      };
    }
  }
}

// ---------------------------------------------------------------------------------------
// Saving

const round = (v: number) => Math.round(v);

/** The layout entries of the charts: `i` the chart key, the place in the board's units (grid units or design pixels). */
export function layoutOf(charts: readonly ChartDraft[]): LayoutItem[] {
  return charts.map((c) => ({ i: c.key, x: round(c.site.x), y: round(c.site.y), w: Math.max(1, round(c.site.w)), h: Math.max(1, round(c.site.h)) }));
}

function chartToSave(chart: ChartDraft): ChartSave {
  const { site, dataconfig } = chart;
  return {
    key: chart.key,
    name: chart.name,
    title: chart.title,
    dataconfig: STATIC_CHART_TYPES.includes(chart.name) ? null : dataconfig,
    option: chart.option,
    modalSet: chart.modalSet,
    site: { ...site, x: round(site.x), y: round(site.y), w: Math.max(1, round(site.w)), h: Math.max(1, round(site.h)) },
    ext: chart.ext,
  } as ChartSave;
}

/** The editor save body (POST API.board.boards): content.layout mirrors the sites, one entry per chart. */
export function buildSavePayload(state: EditorState, kind: BoardKind, categoryId: number | null = state.doc.categoryId): BoardSave {
  const { doc } = state;
  return {
    ...(state.boardId ? { id: state.boardId } : {}),
    kind,
    title: doc.title.trim(),
    categoryId: categoryId ?? 0,
    content: { ...doc.content, layout: layoutOf(doc.charts) },
    charts: doc.charts.map(chartToSave),
  };
}
