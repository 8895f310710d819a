import { describe, expect, it } from 'vitest';
import type { Board } from '@shutu/contracts';
import {
  buildSavePayload,
  defaultChartSize,
  firstFreeQuickSpot,
  byLayer,
  defaultCubeOf,
  docFromBoard,
  editorReducer,
  HISTORY_LIMIT,
  initialState,
  isDirty,
  newChart,
  newChartKey,
  newDoc,
  nudge,
  resizeRect,
  snapMove,
  type EditorAction,
  type EditorState,
} from './state.ts';

const run = (state: EditorState, ...actions: EditorAction[]) => actions.reduce(editorReducer, state);

function screenState() {
  return initialState(newDoc('screen', '未命名大屏', 3));
}
function add(state: EditorState, key: string, type: 'bar' | 'text' = 'bar', at?: { x: number; y: number }) {
  return editorReducer(state, { type: 'addChart', chart: newChart(state.doc, type, { key, cubeId: 7, at }) });
}
const site = (s: EditorState, key: string) => s.doc.charts.find((c) => c.key === key)!.site;

describe('new charts', () => {
  it('takes the type label as title, the dataset with empty lists, a snapped place in front, and is selected', () => {
    let s = add(screenState(), 'a');
    s = add(s, 'b', 'bar', { x: 333, y: 127 });
    const b = s.doc.charts[1]!;
    expect(b.title).toBe('柱状图');
    expect(b.dataconfig).toEqual({ cubeId: 7, rowParamList: [], columnParamList: [], indexParamList: [], sortList: [] });
    expect(b.site).toMatchObject({ x: 330, y: 130, w: 480, h: 300, zIndex: 1 });
    expect(site(s, 'a').zIndex).toBe(0);
    expect(s.selectedKey).toBe('b');
  });

  it('a new filter control applies board-wide (autoLink on); other charts carry no such setting', () => {
    const doc = newDoc('quick', '', 1);
    expect(newChart(doc, 'filterSelect', { key: 'f', cubeId: 7 }).ext).toEqual({ filterList: [], autoLink: true });
    expect(newChart(doc, 'filterDate', { key: 'd', cubeId: 7 }).ext.autoLink).toBe(true);
    expect(newChart(doc, 'bar', { key: 'b', cubeId: 7 }).ext).toEqual({ filterList: [] });
  });

  it('static charts have no dataset; a text chart starts with a prompt as text', () => {
    const s = add(screenState(), 't', 'text');
    expect(s.doc.charts[0]!.dataconfig).toBeNull();
    expect(s.doc.charts[0]!.ext.text).toBe('请输入文本内容');
  });

  it('quick widgets are 8×6 grid units in the first free place, row by row; filter controls are 6×2', () => {
    let s = initialState(newDoc('quick', '未命名报表', 1));
    s = add(s, 'a');
    s = add(s, 'b');
    s = add(s, 'c');
    s = add(s, 'd');
    expect(site(s, 'a')).toMatchObject({ x: 0, y: 0, w: 8, h: 6 });
    expect(site(s, 'b')).toMatchObject({ x: 8, y: 0, w: 8, h: 6 });
    expect(site(s, 'c')).toMatchObject({ x: 16, y: 0, w: 8, h: 6 });
    expect(site(s, 'd')).toMatchObject({ x: 0, y: 6, w: 8, h: 6 });
    expect(firstFreeQuickSpot(s.doc.charts, 6, 2)).toEqual({ x: 8, y: 6 });
    expect(defaultChartSize('filterSelect', true)).toEqual({ w: 6, h: 2 });
    expect(defaultChartSize('bar', false)).toEqual({ w: 480, h: 300 });
  });

  it('keys are unique and readable; the default dataset is ?ds= or the last chart that has one', () => {
    const keys = new Set(Array.from({ length: 50 }, () => newChartKey(1_700_000_000_000)));
    expect(keys.size).toBe(50);
    expect([...keys][0]).toMatch(/^c[0-9a-z]+$/);
    const s = add(screenState(), 'a');
    expect(defaultCubeOf(s.doc.charts, null)).toBe(7);
    expect(defaultCubeOf(s.doc.charts, 9)).toBe(9);
    expect(defaultCubeOf([], null)).toBeNull();
  });
});

describe('geometry', () => {
  const board = { width: 1920, height: 1080 };
  it('snaps a moved chart to the 10 px grid when nothing is near', () => {
    const r = snapMove({ x: 123, y: 456, w: 200, h: 100 }, { board, others: [{ x: 1000, y: 900, w: 100, h: 100 }], threshold: 5 });
    expect(r.rect).toEqual({ x: 120, y: 460, w: 200, h: 100 });
    expect(r.guides).toEqual([]);
  });

  it("snaps to another chart's edge or centre with a guide line", () => {
    const other = { x: 500, y: 300, w: 200, h: 100 };
    // left edge 503 → other's left 500; top 397: its bottom 497 is 3 px from nothing, its top 397 → other's bottom 400.
    const r = snapMove({ x: 503, y: 397, w: 100, h: 100 }, { board, others: [other], threshold: 5 });
    expect(r.rect).toMatchObject({ x: 500, y: 400 });
    expect(r.guides).toEqual([
      { axis: 'x', pos: 500 },
      { axis: 'y', pos: 400 },
    ]);
    // The nearest line wins: left 603 is 3 px from the other's centre 600, right 701 only 1 px from its right edge 700.
    const c = snapMove({ x: 603, y: 0, w: 98, h: 50 }, { board, others: [other], threshold: 5 });
    expect(c.rect.x).toBe(602);
    expect(c.guides[0]).toEqual({ axis: 'x', pos: 700 });
  });

  it('keeps a moved chart inside the board and snaps to its centre line', () => {
    expect(snapMove({ x: -50, y: 2000, w: 200, h: 100 }, { board, others: [], threshold: 5 }).rect).toMatchObject({ x: 0, y: 980 });
    const mid = snapMove({ x: 861, y: 0, w: 200, h: 100 }, { board, others: [], threshold: 5 });
    expect(mid.rect.x).toBe(860);
    expect(mid.guides).toContainEqual({ axis: 'x', pos: 960 });
  });

  it('resizes only the dragged edges, snapping them, with a minimum size', () => {
    const start = { x: 100, y: 100, w: 200, h: 100 };
    expect(resizeRect(start, 'se', 33, 47, { board, others: [], threshold: 0 }).rect).toEqual({ x: 100, y: 100, w: 230, h: 150 });
    expect(resizeRect(start, 'nw', -21, 9, { board, others: [], threshold: 0 }).rect).toEqual({ x: 80, y: 110, w: 220, h: 90 });
    expect(resizeRect(start, 'e', -500, 0, { board, others: [], threshold: 0 }).rect.w).toBe(20);
    const guided = resizeRect(start, 'e', 197, 0, { board, others: [{ x: 500, y: 500, w: 10, h: 10 }], threshold: 5 });
    expect(guided.rect.w).toBe(400);
    expect(guided.guides).toEqual([{ axis: 'x', pos: 500 }]);
  });

  it('nudges by whole pixels and stays inside', () => {
    expect(nudge({ x: 5, y: 5, w: 10, h: 10 }, -10, 1, board)).toEqual({ x: 0, y: 6, w: 10, h: 10 });
  });
});

describe('moves, layers, removal, copies', () => {
  it('a move or resize is one history entry', () => {
    let s = add(screenState(), 'a');
    s = editorReducer(s, { type: 'updateSites', patches: [{ key: 'a', site: { x: 300, y: 200, w: 600 } }] });
    expect(site(s, 'a')).toMatchObject({ x: 300, y: 200, w: 600, h: 300 });
    expect(s.past).toHaveLength(2);
    // The same place again records nothing.
    expect(editorReducer(s, { type: 'updateSites', patches: [{ key: 'a', site: { x: 300 } }] })).toBe(s);
    s = editorReducer(s, { type: 'undo' });
    expect(site(s, 'a')).toMatchObject({ x: 40, y: 40, w: 480 });
  });

  it('orders layers: forward, backward, to front, to back', () => {
    let s = add(add(add(screenState(), 'a'), 'b'), 'c');
    const order = (st: EditorState) =>
      byLayer(st.doc.charts)
        .map((c) => c.key)
        .join('');
    expect(order(s)).toBe('abc');
    s = editorReducer(s, { type: 'layer', key: 'a', op: 'forward' });
    expect(order(s)).toBe('bac');
    s = editorReducer(s, { type: 'layer', key: 'c', op: 'back' });
    expect(order(s)).toBe('cba');
    s = editorReducer(s, { type: 'layer', key: 'c', op: 'front' });
    expect(order(s)).toBe('bac');
    s = editorReducer(s, { type: 'layer', key: 'a', op: 'backward' });
    expect(order(s)).toBe('abc');
    expect(s.doc.charts.map((c) => c.site.zIndex)).toEqual([0, 1, 2]);
  });

  it('removes a chart and clears its selection; duplicates with a new key, offset and in front', () => {
    let s = add(add(screenState(), 'a'), 'b');
    s = editorReducer(s, { type: 'duplicateChart', key: 'a', newKey: 'a2' });
    const copy = s.doc.charts.find((c) => c.key === 'a2')!;
    expect(copy.site).toMatchObject({ x: 60, y: 60, zIndex: 2 });
    expect(copy.title).toBe('柱状图');
    expect(s.selectedKey).toBe('a2');
    s = editorReducer(s, { type: 'removeChart', key: 'a2' });
    expect(s.doc.charts.map((c) => c.key)).toEqual(['a', 'b']);
    expect(s.selectedKey).toBeNull();
  });
});

describe('undo and redo', () => {
  it('undoes and redoes adds; a new change drops the redo list', () => {
    let s = add(add(screenState(), 'a'), 'b');
    s = run(s, { type: 'undo' });
    expect(s.doc.charts.map((c) => c.key)).toEqual(['a']);
    expect(s.selectedKey).toBeNull();
    s = run(s, { type: 'redo' });
    expect(s.doc.charts.map((c) => c.key)).toEqual(['a', 'b']);
    s = run(s, { type: 'undo' }, { type: 'undo' });
    expect(s.doc.charts).toEqual([]);
    expect(run(s, { type: 'undo' })).toBe(s);
    s = add(s, 'z');
    expect(s.future).toEqual([]);
    expect(run(s, { type: 'redo' })).toBe(s);
  });

  it('typing the title within a second is one step; a pause starts another', () => {
    let s = run(
      screenState(),
      { type: 'setTitle', title: '销', at: 1000 },
      { type: 'setTitle', title: '销售', at: 1500 },
      { type: 'setTitle', title: '销售看板', at: 2200 },
    );
    expect(s.past).toHaveLength(1);
    s = run(s, { type: 'setTitle', title: '销售看板2', at: 5000 });
    expect(s.past).toHaveLength(2);
    s = run(s, { type: 'undo' });
    expect(s.doc.title).toBe('销售看板');
    s = run(s, { type: 'undo' });
    expect(s.doc.title).toBe('未命名大屏');
  });

  it(`keeps at most ${HISTORY_LIMIT} entries`, () => {
    let s = screenState();
    for (let i = 0; i < HISTORY_LIMIT + 20; i++) s = run(s, { type: 'setCategory', categoryId: i + 10 });
    expect(s.past).toHaveLength(HISTORY_LIMIT);
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) s = run(s, { type: 'undo' });
    expect(s.doc.categoryId).toBe(29);
  });

  it('the grid’s own compaction is no history entry and does not make a saved board dirty', () => {
    let s = add(initialState(newDoc('quick', 'x', 1)), 'a');
    s = editorReducer(s, { type: 'saved', boardId: 5 });
    expect(isDirty(s)).toBe(false);
    const before = s.past.length;
    s = editorReducer(s, { type: 'syncLayout', patches: [{ key: 'a', site: { y: 0, w: 8 } }] });
    s = editorReducer(s, { type: 'syncLayout', patches: [{ key: 'a', site: { x: 2 } }] });
    expect(site(s, 'a').x).toBe(2);
    expect(s.past).toHaveLength(before);
    expect(isDirty(s)).toBe(false);
    s = editorReducer(s, { type: 'updateSites', patches: [{ key: 'a', site: { x: 4 } }] });
    expect(isDirty(s)).toBe(true);
    s = editorReducer(s, { type: 'undo' });
    expect(isDirty(s)).toBe(false);
  });
});

describe('save payload', () => {
  it('screen: layout mirrors the sites in design pixels; whole numbers; id only when saved', () => {
    let s = add(screenState(), 'a');
    s = editorReducer(s, { type: 'updateSites', patches: [{ key: 'a', site: { x: 100.4, y: 50.6 } }] });
    let body = buildSavePayload(s, 'visual');
    expect(body).not.toHaveProperty('id');
    expect(body).toMatchObject({ kind: 'visual', title: '未命名大屏', categoryId: 3 });
    expect(body.content).toMatchObject({ type: 'screen', width: 1920, height: 1080, layout: [{ i: 'a', x: 100, y: 51, w: 480, h: 300 }] });
    expect(body.charts![0]).toMatchObject({ key: 'a', name: 'bar', title: '柱状图', site: { x: 100, y: 51, w: 480, h: 300, zIndex: 0 } });
    s = editorReducer(s, { type: 'saved', boardId: 42 });
    body = buildSavePayload(s, 'visual', 8);
    expect(body.id).toBe(42);
    expect(body.categoryId).toBe(8);
  });

  it('quick: layout in grid units, and a loaded board takes places from its layout', () => {
    const board = {
      id: 9,
      title: '门店日报',
      categoryId: 2,
      content: { type: 'quick', layout: [{ i: 'k', x: 8, y: 2, w: 12, h: 5 }], width: 1920, height: 1080, editSwitch: false },
      charts: [newChart(newDoc('quick', '', 1), 'line', { key: 'k', cubeId: 3 })],
    } as unknown as Board;
    const s = initialState(docFromBoard(board, 'quick'), 9);
    expect(isDirty(s)).toBe(false);
    expect(site(s, 'k')).toMatchObject({ x: 8, y: 2, w: 12, h: 5 });
    const body = buildSavePayload(s, 'report');
    expect(body).toMatchObject({ id: 9, kind: 'report', title: '门店日报', categoryId: 2 });
    expect(body.content!.layout).toEqual([{ i: 'k', x: 8, y: 2, w: 12, h: 5 }]);
    expect(body.content!.type).toBe('quick');
  });
});
