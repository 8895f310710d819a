import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import type { ChartDataRequest } from '@shutu/contracts';
import { fail, mockFetch, ok, type Call } from '../../../test/fetch-mock.ts';
import { BoardView, type BoardControls } from './BoardView.tsx';
import { chartAt, link, makeBoard, salesData } from './test-fixtures.ts';
import { loadChartParts } from '../../../shared/charts/lazy-parts.tsx';

// The charts' parts load on demand (lazy-parts.tsx): fetched once here, so a test waits only for React.
beforeAll(() => loadChartParts(), 120_000);

// antd renders slowly on a loaded machine: wait on conditions for longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

// ECharts cannot draw in jsdom: a fake instance that "finishes" after each setOption.
vi.mock('../../../shared/charts/echarts-setup.ts', () => ({
  echarts: {
    init: () => {
      const handlers = new Map<string, (p: unknown) => void>();
      return {
        setOption: () => queueMicrotask(() => handlers.get('finished')?.({})),
        resize: () => undefined,
        dispose: () => undefined,
        on: (name: string, fn: (p: unknown) => void) => handlers.set(name, fn),
      };
    },
  },
}));

/** The viewport's width in jsdom (which lays nothing out). */
let viewportWidth = 960;
beforeEach(() => {
  viewportWidth = 960;
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('board-viewport') ? viewportWidth : 0;
    },
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const chartCalls = (calls: Call[], key: string) => calls.filter((c) => c.url === '/api/board/chart-data' && (c.body as ChartDataRequest).chartKey === key);

function serve(extra: (body: ChartDataRequest) => ReturnType<typeof ok> | undefined = () => undefined) {
  return mockFetch((c) => {
    if (c.url !== '/api/board/chart-data') return undefined;
    const body = c.body as ChartDataRequest;
    return (
      extra(body) ??
      ok(
        salesData([
          ['浙江', 120],
          ['江苏', 80],
        ]),
      )
    );
  });
}

function mount(ui: React.ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <AntApp>{ui}</AntApp>
    </QueryClientProvider>,
  );
}

const item = (key: string) => screen.getByTestId(`board-item-${key}`);

describe('BoardView, screen boards', () => {
  it('scales the design size to the viewport width (rounded down) and follows resizes', async () => {
    serve();
    const board = makeBoard([chartAt('t1', 'text', '说明', { x: 100, y: 50, w: 400, h: 300, zIndex: 3 }, { text: '本月销售概览' })], {
      width: 1920,
      height: 1080,
      bgColor: '#0b1a3a',
    });
    viewportWidth = 1000; // 1000 / 1920 = 0.5208… → 0.52
    mount(<BoardView board={board} />);
    const stage = screen.getByTestId('board-stage');
    expect(stage.style.transform).toBe('scale(0.52)');
    expect(stage.style.width).toBe('1920px');
    const wrapper = screen.getByTestId('board-stage-wrapper');
    expect(wrapper.style.height).toBe(`${1080 * 0.52}px`);
    expect(wrapper.style.width).toBe(`${1920 * 0.52}px`);
    // Charts sit at their design pixels inside the stage, in their layer.
    expect(item('t1').style.cssText).toContain('left: 100px; top: 50px; width: 400px; height: 300px; z-index: 3');
    expect(screen.getByText('本月销售概览')).toBeTruthy();

    viewportWidth = 1440;
    act(() => window.dispatchEvent(new Event('resize')));
    expect(stage.style.transform).toBe('scale(0.75)');
    expect(wrapper.style.height).toBe('810px');
  });

  it('draws fixed charts in a layer outside the scrolling viewport, at the same scale', () => {
    serve();
    const board = makeBoard([
      chartAt('t1', 'text', '正文', { x: 0, y: 600 }),
      chartAt('logo', 'text', '标识', { x: 10, y: 10, w: 200, h: 80, isFilexd: true }),
    ]);
    mount(<BoardView board={board} />);
    const layer = screen.getByTestId('board-fixed-layer');
    expect(layer.contains(item('logo'))).toBe(true);
    expect(layer.style.transform).toBe('scale(0.5)');
    expect(screen.getByTestId('board-viewport').contains(item('logo'))).toBe(false);
    expect(screen.getByTestId('board-viewport').contains(item('t1'))).toBe(true);
  });

  it('turns dialog charts into header buttons and opens one in a dialog', async () => {
    const calls = serve();
    const board = makeBoard([chartAt('bar', 'bar', '各省金额', { x: 0, y: 0, w: 800, h: 400 }), chartAt('detail', 'table', '明细数据', { isDiglog: true })]);
    let controls: BoardControls | null = null;
    mount(
      <BoardView
        board={board}
        header={(c) => {
          controls = c;
          return (
            <div>
              {c.dialogCharts.map((d) => (
                <button key={d.key} onClick={() => c.openDialog(d.key)}>
                  {d.title}
                </button>
              ))}
            </div>
          );
        }}
      />,
    );
    expect(screen.queryByTestId('board-item-detail')).toBeNull();
    expect(controls!.dialogCharts.map((c) => c.key)).toEqual(['detail']);
    // Not fetched until opened.
    await waitFor(() => expect(chartCalls(calls, 'bar')).toHaveLength(1));
    expect(chartCalls(calls, 'detail')).toHaveLength(0);
    fireEvent.click(screen.getByText('明细数据'));
    const dialog = await screen.findByTestId('board-dialog-chart');
    await waitFor(() => expect(dialog.textContent).toContain('浙江'));
    expect(dialog.textContent).toContain('120');
  });
});

describe('BoardView, quick boards', () => {
  it('places charts on the 24-column grid from the layout (grid units), clamped to the last column', () => {
    serve();
    const board = makeBoard([chartAt('a', 'text', '甲'), chartAt('b', 'text', '乙'), chartAt('c', 'text', '丙', { x: 20, y: 0, w: 8, h: 2 })], {
      type: 'quick',
      layout: [
        { i: 'a', x: 0, y: 0, w: 8, h: 6 },
        { i: 'b', x: 8, y: 6, w: 16, h: 4 },
      ],
    });
    mount(<BoardView board={board} />);
    const grid = screen.getByTestId('board-quick-grid');
    expect(grid.style.gridTemplateColumns).toBe('repeat(24, minmax(0, 1fr))');
    expect(grid.style.gridAutoRows).toBe('48px');
    expect(item('a').style.gridColumn).toBe('1 / span 8');
    expect(item('a').style.gridRow).toBe('1 / span 6');
    expect(item('b').style.gridColumn).toBe('9 / span 16');
    expect(item('b').style.gridRow).toBe('7 / span 4');
    // No layout entry: the site; 20 + 8 would pass column 24.
    expect(item('c').style.gridColumn).toBe('21 / span 4');
  });
});

describe('BoardView linkage and ready', () => {
  it('a row click on a driving table filters the driven chart; 清除联动 restores it', async () => {
    const calls = serve();
    const board = makeBoard(
      [chartAt('table', 'table', '各省汇总', { x: 0, y: 0 }), chartAt('bar', 'bar', '渠道金额', { x: 0, y: 400 }, { filterList: [link('table', 7)] })],
      {
        type: 'quick',
      },
    );
    let controls: BoardControls | null = null;
    mount(
      <BoardView
        board={board}
        header={(c) => {
          controls = c;
          return c.hasLinkage ? <button onClick={c.clearLinkage}>清除联动</button> : null;
        }}
      />,
    );
    const row = await waitFor(() => {
      const cell = [...item('table').querySelectorAll('td')].find((td) => td.textContent === '江苏');
      if (!cell) throw new Error('no row yet');
      return cell;
    });
    expect(chartCalls(calls, 'bar').at(-1)!.body).not.toHaveProperty('links');
    fireEvent.click(row);
    await waitFor(() => expect((chartCalls(calls, 'bar').at(-1)!.body as ChartDataRequest).links).toEqual([{ fieldId: 7, function: 'in', values: ['江苏'] }]));
    expect(controls!.linkApplied).toBe(true);
    // The driver itself is never filtered.
    expect(chartCalls(calls, 'table').every((c) => !(c.body as ChartDataRequest).links)).toBe(true);

    fireEvent.click(screen.getByText('清除联动'));
    await waitFor(() => expect(controls!.linkApplied).toBe(false));
    // Back to the first request's answer (cached) without links.
    const last = chartCalls(calls, 'bar').at(-1)!.body as ChartDataRequest;
    expect(last.links ?? []).toEqual([]);
  });

  it('sends the default of a beginFlag link at first load', async () => {
    const calls = serve();
    const board = makeBoard([
      chartAt('province', 'filterSelect', '省份筛选', { x: 0, y: 0 }, { defaultValue: ['浙江'] }),
      chartAt('bar', 'bar', '各省金额', { x: 0, y: 100 }, { filterList: [link('province', 1, { beginFlag: true })] }),
    ]);
    mount(<BoardView board={board} />);
    await waitFor(() => expect(chartCalls(calls, 'bar')).toHaveLength(1));
    expect((chartCalls(calls, 'bar')[0]!.body as ChartDataRequest).links).toEqual([{ fieldId: 1, function: 'in', values: ['浙江'] }]);
    expect((chartCalls(calls, 'province')[0]!.body as ChartDataRequest).mode).toBe('values');
  });

  it('a filter select applies to every chart of its dataset without links, except the chart opted out', async () => {
    const calls = serve();
    // All charts read dataset 1; the select lists field 1 (省份) and starts on 浙江.
    const board = makeBoard([
      chartAt('province', 'filterSelect', '省份筛选', { x: 0, y: 0 }, { defaultValue: ['浙江'], autoLink: true, autoLinkExclude: ['pie'] }),
      chartAt('bar', 'bar', '各省金额', { x: 0, y: 100 }),
      chartAt('card', 'card', '总金额', { x: 500, y: 100 }),
      chartAt('pie', 'pie', '全国占比', { x: 900, y: 100 }),
    ]);
    let controls: BoardControls | null = null;
    mount(<BoardView board={board} header={(c) => ((controls = c), null)} />);
    await waitFor(() => expect(chartCalls(calls, 'card')).toHaveLength(1));
    const byProvince = [{ fieldId: 1, function: 'in', values: ['浙江'] }];
    expect((chartCalls(calls, 'bar')[0]!.body as ChartDataRequest).links).toEqual(byProvince);
    expect((chartCalls(calls, 'card')[0]!.body as ChartDataRequest).links).toEqual(byProvince);
    expect((chartCalls(calls, 'pie')[0]!.body as ChartDataRequest).links ?? []).toEqual([]);
    expect(controls!.hasLinkage).toBe(true);
    expect(controls!.linkApplied).toBe(true);
  });

  it('is ready once every drawn chart has rendered: drawn, empty, failed, static; dialog charts do not count', async () => {
    let releaseBar: (() => void) | null = null;
    const barAnswer = new Promise<void>((r) => (releaseBar = r));
    mockFetch((c) => {
      const key = (c.body as ChartDataRequest).chartKey;
      if (key === 'failing') return fail(500, '查询超时');
      if (key === 'empty') return ok(salesData([]));
      return ok(salesData([['浙江', 1]]));
    });
    // The bar's answer is held back until released.
    const original = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (typeof init?.body === 'string' && init.body.includes('"chartKey":"bar"')) await barAnswer;
      return original(input, init);
    });
    const onReady = vi.fn();
    const board = makeBoard([
      chartAt('bar', 'bar', '各省金额', { x: 0, y: 0 }),
      chartAt('failing', 'table', '失败的表', { x: 0, y: 300 }),
      chartAt('empty', 'pie', '空饼图', { x: 500, y: 300 }),
      chartAt('text', 'text', '说明', { x: 900, y: 0 }, { text: '说明文字' }),
      chartAt('dialog', 'bar', '弹窗图', { isDiglog: true }),
    ]);
    mount(<BoardView board={board} onReady={onReady} />);
    await screen.findByText('查询超时');
    await screen.findByText('暂无数据');
    expect(onReady).not.toHaveBeenCalled();
    act(() => releaseBar!());
    await waitFor(() => expect(onReady).toHaveBeenCalledTimes(1));
  });
});
