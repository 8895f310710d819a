import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import type { Board, BoardSave, BoardType } from '@shutu/contracts';
import { fail, mockFetch, ok, type Call } from '../../../test/fetch-mock.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { makeChart, makeData, salesFields, salesRows } from '../../../shared/charts/test-fixtures.ts';
import { boardCategories } from '../test-fixtures.ts';
import BoardEditorPage from './BoardEditorPage.tsx';
import type { ChartConfigPanelProps } from './types.ts';

// The configuration panel is engineer B's: here only what the editor hands it matters.
vi.mock('./config/ChartConfigPanel.tsx', () => ({
  ChartConfigPanel: (p: ChartConfigPanelProps) => (
    <div data-testid="config-panel" data-cube={String(p.defaultCubeId ?? '')} data-board-type={p.boardType}>
      {`配置：${p.chart.title}`}
      <button type="button" onClick={() => p.onChange({ ...p.chart, title: `${p.chart.title}（改）` })}>
        改标题
      </button>
    </div>
  ),
}));

const savedBoard: Board = {
  id: 5,
  kind: 'visual',
  title: '销售驾驶舱',
  categoryId: 1,
  categoryName: '经营分析',
  backgroundUrl: null,
  type: 'screen',
  publicStatus: 1,
  sortNum: 1,
  createUserId: 1,
  createUserName: '管理员',
  createTime: '2026-01-02T03:04:05.000Z',
  updateTime: '2026-01-02T03:04:05.000Z',
  editable: true,
  content: { type: 'screen', layout: [], width: 1920, height: 1080, editSwitch: false },
  charts: [
    makeChart('table', { key: 'k1', title: '区域销售额', site: { x: 20, y: 20, w: 600, h: 300, isDiglog: false, isFilexd: true, isSimple: false, zIndex: 0 } }),
    makeChart('text', {
      key: 'k2',
      title: '说明',
      dataconfig: null,
      ext: { filterList: [], text: '本月数据截至昨日' },
      site: { x: 700, y: 20, w: 400, h: 200, isDiglog: false, isFilexd: false, isSimple: false, zIndex: 1 },
    }),
  ],
};

function serve(post: (body: BoardSave) => ReturnType<typeof ok> = () => ok(42, '保存成功')) {
  return mockFetch((c: Call) => {
    const url = new URL(c.url, 'http://x');
    if (url.pathname === '/api/board/boards/5' && c.method === 'GET') return ok(savedBoard);
    if (url.pathname === '/api/board/boards' && c.method === 'POST') return post(c.body as BoardSave);
    if (url.pathname === '/api/board/categories') return ok(boardCategories(url.searchParams.get('kind') === 'report' ? 'report' : 'visual'));
    if (url.pathname === '/api/board/chart-data') return ok(makeData(salesFields.slice(0, 3), salesRows));
    return undefined;
  });
}

function open(path: string, mode: BoardType) {
  renderWithApp(
    <Routes>
      <Route path={`/newbi/:kind/${mode === 'quick' ? 'quickEdit' : 'bigdataEdit'}`} element={<BoardEditorPage mode={mode} />} />
      <Route path="/newbi/:kind" element={<div>列表页</div>} />
    </Routes>,
    { path },
  );
}

const charts = () => document.querySelectorAll<HTMLElement>('[data-testid="editor-chart"]');
const titles = () => [...charts()].map((c) => c.getAttribute('data-title'));
const paletteItem = (type: string) => document.querySelector<HTMLElement>(`[data-testid="palette-item"][data-type="${type}"]`)!;
const button = (label: string) => document.querySelector<HTMLElement>(`button[aria-label="${label}"]`)!;
const saveButton = () => document.querySelector<HTMLElement>('[data-testid="save-board"]')!;
const posts = (calls: Call[]) => calls.filter((c) => c.method === 'POST' && c.url === '/api/board/boards');

describe('board editor page', () => {
  let openSpy: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    openSpy = vi.fn(() => null);
    vi.stubGlobal('open', openSpy);
  });
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('loads a board by id: its title, its charts drawn live from their draft config, the fixed badge', async () => {
    const calls = serve();
    open('/newbi/visual/bigdataEdit?id=5', 'screen');
    await waitFor(() => expect(titles()).toEqual(['区域销售额', '说明']));
    expect((screen.getByTestId('board-title') as HTMLInputElement).value).toBe('销售驾驶舱');
    // The table reads through chart-data with its draft dataconfig and type; the text needs nothing.
    await waitFor(() => expect(screen.getAllByText('华北').length).toBeGreaterThan(0), { timeout: 5000 });
    expect(screen.getByText('本月数据截至昨日')).toBeTruthy();
    const dataCall = calls.find((c) => c.url === '/api/board/chart-data')!;
    expect(dataCall.body).toMatchObject({ chartType: 'table', mode: 'aggregate', dataconfig: { cubeId: 1 } });
    expect(charts()[0]!.querySelector('.be-pin')!.textContent).toContain('固定');
    // Charts sit at their site, in design pixels.
    expect(charts()[1]!.style.left).toBe('700px');
    // Nothing selected: the page settings; layers list front first.
    expect(screen.getByTestId('page-panel')).toBeTruthy();
    expect(screen.queryByText('未保存')).toBeNull();
  });

  it('adds a chart from the component panel, selects it for the config panel, and undo / redo take it away and back', async () => {
    serve();
    open('/newbi/visual/bigdataEdit?id=5', 'screen');
    await waitFor(() => expect(charts()).toHaveLength(2));
    fireEvent.click(paletteItem('bar'));
    await waitFor(() => expect(titles()).toEqual(['区域销售额', '说明', '柱状图']));
    // The new chart starts from the board's dataset and waits for fields.
    expect(screen.getByTestId('config-panel').textContent).toContain('配置：柱状图');
    expect(screen.getByTestId('config-panel').getAttribute('data-cube')).toBe('1');
    expect(charts()[2]!.textContent).toContain('请在右侧选择维度或指标');
    expect(screen.getByText('未保存')).toBeTruthy();

    fireEvent.click(button('撤销 (Ctrl+Z)'));
    await waitFor(() => expect(titles()).toEqual(['区域销售额', '说明']));
    expect(screen.queryByTestId('config-panel')).toBeNull();
    expect(screen.queryByText('未保存')).toBeNull();
    fireEvent.keyDown(window, { key: 'y', ctrlKey: true });
    await waitFor(() => expect(titles()).toEqual(['区域销售额', '说明', '柱状图']));
    fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    await waitFor(() => expect(titles()).toEqual(['区域销售额', '说明']));
  });

  it('the config panel’s changes are drawn and undoable; arrows nudge the selected chart', async () => {
    serve();
    open('/newbi/visual/bigdataEdit?id=5', 'screen');
    await waitFor(() => expect(charts()).toHaveLength(2));
    fireEvent.pointerDown(charts()[1]!, { button: 0, clientX: 10, clientY: 10 });
    fireEvent.pointerUp(window);
    await screen.findByText('配置：说明');
    fireEvent.click(screen.getByText('改标题'));
    await waitFor(() => expect(titles()).toEqual(['区域销售额', '说明（改）']));
    fireEvent.keyDown(window, { key: 'ArrowRight', shiftKey: true });
    await waitFor(() => expect(charts()[1]!.style.left).toBe('710px'));
    fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    await waitFor(() => expect(charts()[1]!.style.left).toBe('700px'));
    fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    await waitFor(() => expect(titles()).toEqual(['区域销售额', '说明']));
  });

  it('saves a new quick report: ?cg= and ?ds= in the body, layout mirrors the widgets, the next save updates the new id', async () => {
    const calls = serve();
    open('/newbi/report/quickEdit?cg=2&ds=7', 'quick');
    await screen.findByText('从左侧选择图表，点击或拖动到画布中');
    expect((screen.getByTestId('board-title') as HTMLInputElement).value).toBe('未命名报表');
    fireEvent.click(paletteItem('bar'));
    fireEvent.click(paletteItem('text'));
    await waitFor(() => expect(charts()).toHaveLength(2));
    fireEvent.click(saveButton());
    await screen.findByText('保存成功');
    const body = posts(calls)[0]!.body as BoardSave;
    const [bar, text] = body.charts!;
    expect(body).toMatchObject({ kind: 'report', title: '未命名报表', categoryId: 2, content: { type: 'quick' } });
    expect(body).not.toHaveProperty('id');
    expect(bar).toMatchObject({
      name: 'bar',
      title: '柱状图',
      dataconfig: { cubeId: 7, rowParamList: [], indexParamList: [] },
      site: { x: 0, y: 0, w: 8, h: 6 },
    });
    expect(text).toMatchObject({ name: 'text', dataconfig: null, site: { x: 8, y: 0, w: 8, h: 6 } });
    expect(body.content!.layout).toEqual([
      { i: bar!.key, x: 0, y: 0, w: 8, h: 6 },
      { i: text!.key, x: 8, y: 0, w: 8, h: 6 },
    ]);
    expect(bar!.key).not.toBe(text!.key);
    await waitFor(() => expect(screen.queryByText('未保存')).toBeNull());
    // Saved again: an update of board 42.
    fireEvent.change(screen.getByTestId('board-title'), { target: { value: '门店日报' } });
    fireEvent.click(saveButton());
    await waitFor(() => expect(posts(calls)).toHaveLength(2));
    expect(posts(calls)[1]!.body).toMatchObject({ id: 42, title: '门店日报', categoryId: 2 });
  });

  it('asks for the category when the board has none, and shows the server’s message when saving fails', async () => {
    const calls = serve(() => fail(400, '图表【柱状图】请至少选择一个维度或指标'));
    open('/newbi/visual/bigdataEdit', 'screen');
    await screen.findByText('从左侧选择图表，点击或拖动到画布中');
    fireEvent.click(paletteItem('bar'));
    fireEvent.click(saveButton());
    await screen.findByText('保存报表');
    expect(posts(calls)).toHaveLength(0);
    // Pick 财务 in the dialog's category select.
    fireEvent.mouseDown(document.querySelector('[data-testid="save-category"] .ant-select-selector, [data-testid="save-category"]')!);
    fireEvent.click(await screen.findByTitle('财务'));
    fireEvent.click(document.querySelector<HTMLElement>('.ant-modal-footer .ant-btn-primary')!);
    await screen.findByText('图表【柱状图】请至少选择一个维度或指标');
    expect(posts(calls)[0]!.body).toMatchObject({ kind: 'visual', title: '未命名大屏', categoryId: 3, content: { type: 'screen', width: 1920, height: 1080 } });
  });

  it('预览 opens the preview of a saved, unchanged board in a new tab without saving', async () => {
    const calls = serve();
    open('/newbi/visual/bigdataEdit?id=5', 'screen');
    await waitFor(() => expect(charts()).toHaveLength(2));
    fireEvent.click(screen.getByTestId('preview-board'));
    expect(openSpy).toHaveBeenCalledWith('/newbi/preview/5', '_blank');
    expect(posts(calls)).toHaveLength(0);
  });

  it('the canvas opens as the preview does: a filter default applies to the charts of its dataset', async () => {
    const filter = makeChart('filterSelect', {
      key: 'f1',
      title: '区域',
      ext: { filterList: [], defaultValue: ['华东'], autoLink: true },
      site: { x: 700, y: 300, w: 300, h: 100, isDiglog: false, isFilexd: false, isSimple: false, zIndex: 2 },
    });
    const board: Board = { ...savedBoard, id: 6, charts: [...savedBoard.charts, filter] };
    const calls = mockFetch((c: Call) => {
      const url = new URL(c.url, 'http://x');
      if (url.pathname === '/api/board/boards/6') return ok(board);
      if (url.pathname === '/api/board/categories') return ok(boardCategories('visual'));
      if (url.pathname === '/api/board/chart-data') return ok(makeData(salesFields.slice(0, 3), salesRows));
      return undefined;
    });
    open('/newbi/visual/bigdataEdit?id=6', 'screen');
    const tableCalls = () => calls.filter((c) => c.url === '/api/board/chart-data' && (c.body as { chartType?: string }).chartType === 'table');
    await waitFor(() => expect(tableCalls().length).toBeGreaterThan(0));
    expect(tableCalls().map((c) => (c.body as { links?: unknown }).links)).toEqual([[{ fieldId: 1, function: 'in', values: ['华东'] }]]);
  });
});
