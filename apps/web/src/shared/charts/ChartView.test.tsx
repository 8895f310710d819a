import { afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { act, cleanup, configure, fireEvent, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { API } from '@shutu/contracts';
import { mockFetch, ok } from '../../test/fetch-mock.ts';
import { ChartScaleContext, chartPixelRatio } from './chart-scale.ts';
import { ChartView } from './ChartView.tsx';
import { loadChartParts } from './lazy-parts.tsx';
import { tupleKey } from './model.ts';
import { dim, makeChart, makeData, measure, salesFields } from './test-fixtures.ts';
import { chartDataBody, chartDataMode, useChartData } from './useChartData.ts';

// ECharts cannot draw in jsdom: a fake instance records what the wrapper does.
const fake = vi.hoisted(() => {
  const state = {
    init: vi.fn(),
    setOption: vi.fn(),
    resize: vi.fn(),
    dispose: vi.fn(),
    handlers: new Map<string, (params: unknown) => void>(),
  };
  return state;
});

vi.mock('./echarts-setup.ts', () => ({
  echarts: {
    init: (el: HTMLElement, theme: unknown, opts: unknown) => {
      fake.init(el, theme, opts);
      return {
        setOption: fake.setOption,
        resize: fake.resize,
        // The size it drew at: jsdom lays nothing out (clientWidth 0) unless a test says otherwise.
        getWidth: () => 0,
        getHeight: () => 0,
        dispose: fake.dispose,
        on: (name: string, fn: (params: unknown) => void) => fake.handlers.set(name, fn),
      };
    },
  },
}));

// antd's first table render is slow on a loaded machine: wait on conditions for longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

// The renderer's parts load on demand (lazy-parts.tsx): fetched once here, so a test waits only for React.
beforeAll(() => loadChartParts(), 120_000);

beforeEach(() => {
  fake.init.mockClear();
  fake.setOption.mockClear();
  fake.dispose.mockClear();
  fake.handlers.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const barData = makeData(
  [salesFields[0]!, salesFields[2]!],
  [
    { d0: '华东', m0: 10 },
    { d0: '华北', m0: 20 },
  ],
);

describe('ChartView states', () => {
  it('loading: 拼命加载中, not yet rendered', () => {
    const onRendered = vi.fn();
    render(<ChartView chart={makeChart('bar')} data={null} loading onRendered={onRendered} />);
    expect(screen.getByText('拼命加载中')).toBeTruthy();
    expect(onRendered).not.toHaveBeenCalled();
  });

  it('loading on a board: 拼命加载中 without a spinner (twenty of them kept the compositor busy)', () => {
    const { container, rerender } = render(<ChartView chart={makeChart('bar')} data={null} loading />);
    expect(container.querySelector('.ant-spin')).not.toBeNull();
    rerender(<ChartView chart={makeChart('bar')} data={null} loading quietLoading />);
    expect(screen.getByText('拼命加载中')).toBeTruthy();
    expect(container.querySelector('.ant-spin')).toBeNull();
  });

  it('no rows: 暂无数据, and rendered', () => {
    const onRendered = vi.fn();
    render(<ChartView chart={makeChart('bar')} data={makeData(salesFields, [])} loading={false} onRendered={onRendered} />);
    expect(screen.getByText('暂无数据')).toBeTruthy();
    expect(onRendered).toHaveBeenCalledTimes(1);
    expect(fake.init).not.toHaveBeenCalled();
  });

  it('nothing asked yet: 暂无数据', () => {
    render(<ChartView chart={makeChart('pie')} data={null} loading={false} />);
    expect(screen.getByText('暂无数据')).toBeTruthy();
  });

  it('error: the message', () => {
    render(<ChartView chart={makeChart('table')} data={null} loading={false} error="没有此大屏权限" />);
    expect(screen.getByRole('alert').textContent).toBe('没有此大屏权限');
  });

  it('header: title with the site style; none when isSimple', () => {
    const site = { ...makeChart('text').site, titleFontColor: 'rgb(255, 0, 0)', titleFontSize: 20, fontWeight: 'normal' as const };
    const { container, unmount } = render(<ChartView chart={makeChart('text', { title: '标题', site })} data={null} loading={false} />);
    const title = container.querySelector<HTMLElement>('.shutu-chart-title')!;
    expect(title.textContent).toBe('标题');
    expect(title.style.color).toBe('rgb(255, 0, 0)');
    expect(title.style.fontSize).toBe('20px');
    expect(title.style.fontWeight).toBe('normal');
    unmount();
    const simple = render(<ChartView chart={makeChart('text', { title: '标题', site: { ...site, isSimple: true } })} data={null} loading={false} />);
    expect(simple.container.querySelector('.shutu-chart-title')).toBeNull();
  });
});

describe('ECharts charts', () => {
  it('init with the canvas renderer, setOption with notMerge, rendered once on finished, clicks, dispose', async () => {
    const onRendered = vi.fn();
    const onPointClick = vi.fn();
    const { unmount } = render(
      <ChartView chart={makeChart('bar')} data={barData} loading={false} onRendered={onRendered} onPointClick={onPointClick} height={300} />,
    );
    await waitFor(() => expect(fake.init).toHaveBeenCalledTimes(1));
    expect(fake.init.mock.calls[0]![2]).toEqual({ renderer: 'canvas' });
    expect(fake.setOption).toHaveBeenCalledTimes(1);
    const [option, opts] = fake.setOption.mock.calls[0]!;
    expect(opts).toEqual({ notMerge: true });
    // The first picture without animation: 'finished' (the page's ready) comes without 300 ms of frames.
    expect(option.animation).toBe(false);
    expect(option.series).toHaveLength(1);
    expect(option.series[0].barMaxWidth).toBe(30);
    expect(onRendered).not.toHaveBeenCalled();
    act(() => {
      fake.handlers.get('finished')!({});
      fake.handlers.get('finished')!({});
    });
    expect(onRendered).toHaveBeenCalledTimes(1);
    act(() => fake.handlers.get('click')!({ dataIndex: 1, seriesIndex: 0 }));
    expect(onPointClick).toHaveBeenCalledWith(['华北'], [expect.objectContaining({ alias: 'd0', granularity: null })]);
    unmount();
    expect(fake.dispose).toHaveBeenCalledTimes(1);
  });

  it('resizes when its box changes size, not when the observer first reports the size it was drawn at', async () => {
    const reports: (() => void)[] = [];
    // test/setup.ts's stand-in is writable, not configurable: replaced for this test, put back after.
    const original = window.ResizeObserver;
    window.ResizeObserver = class {
      constructor(report: () => void) {
        reports.push(report);
      }
      observe() {}
      unobserve() {}
      disconnect() {}
    } as unknown as typeof ResizeObserver;
    onTestFinished(() => {
      window.ResizeObserver = original;
    });
    fake.resize.mockClear();
    const { container } = render(<ChartView chart={makeChart('bar')} data={barData} loading={false} height={300} />);
    await waitFor(() => expect(fake.setOption).toHaveBeenCalledTimes(1));
    expect(reports).toHaveLength(1);
    // The observer's first report: the size the chart was just drawn at.
    act(() => reports[0]!());
    expect(fake.resize).not.toHaveBeenCalled();
    // The board's box grew: the chart follows it.
    const box = fake.init.mock.calls[0]![0] as HTMLElement;
    expect(container.contains(box)).toBe(true);
    Object.defineProperty(box, 'clientWidth', { configurable: true, value: 480 });
    act(() => reports[0]!());
    expect(fake.resize).toHaveBeenCalledTimes(1);
  });

  it('new data: setOption again on the same instance, animated', async () => {
    const { rerender } = render(<ChartView chart={makeChart('line')} data={barData} loading={false} />);
    await waitFor(() => expect(fake.setOption).toHaveBeenCalledTimes(1));
    rerender(<ChartView chart={makeChart('line')} data={makeData(barData.fieldDict, [{ d0: 'x', m0: 1 }])} loading={false} />);
    expect(fake.init).toHaveBeenCalledTimes(1);
    expect(fake.setOption).toHaveBeenCalledTimes(2);
    expect(fake.setOption.mock.calls[1]![0].xAxis.data).toEqual(['x']);
    expect(fake.setOption.mock.calls[1]![0].animation).toBeUndefined();
  });

  it('a chart on a scaled screen board draws its canvas for the size it is shown at', async () => {
    vi.stubGlobal('devicePixelRatio', 3);
    render(
      <ChartScaleContext.Provider value={0.2}>
        <ChartView chart={makeChart('bar')} data={barData} loading={false} height={300} />
      </ChartScaleContext.Provider>,
    );
    await waitFor(() => expect(fake.init).toHaveBeenCalledTimes(1));
    // 3 × 0.2 = 0.6 device pixels per CSS pixel would blur under pinch zoom: at least 1.
    expect(fake.init.mock.calls[0]![2]).toEqual({ renderer: 'canvas', devicePixelRatio: 1 });
    expect(chartPixelRatio(3, 0.5)).toBe(1.5);
    expect(chartPixelRatio(2, 1)).toBe(2);
    expect(chartPixelRatio(1.75, 0.21)).toBe(1);
  });
});

describe('static charts', () => {
  it('text is text: markup is not interpreted, line breaks kept', () => {
    const text = '<img src=x onerror="alert(1)"><b>粗体</b>\n第二行';
    const { container } = render(<ChartView chart={makeChart('text', { ext: { filterList: [], text } })} data={null} loading={false} />);
    const el = screen.getByTestId('chart-text');
    expect(el.textContent).toBe(text);
    expect(el.style.whiteSpace).toBe('pre-wrap');
    expect(container.querySelector('b')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
  });

  it('image: a safe URL only', () => {
    const { container, unmount } = render(
      <ChartView chart={makeChart('image', { ext: { filterList: [], imageUrl: '/api/files/a.png' } })} data={null} loading={false} />,
    );
    expect(container.querySelector('img')!.getAttribute('src')).toBe('/api/files/a.png');
    unmount();
    const bad = render(<ChartView chart={makeChart('image', { ext: { filterList: [], imageUrl: 'javascript:alert(1)' } })} data={null} loading={false} />);
    expect(bad.container.querySelector('img')).toBeNull();
    expect(screen.getByText('未设置图片')).toBeTruthy();
  });
});

describe('card and tables', () => {
  it('indicator card', () => {
    const data = makeData([measure('m0', '本月', 100), measure('m1', '上月', 101)], [{ m0: 1500, m1: 1000 }]);
    render(<ChartView chart={makeChart('card', { rows: 0 })} data={data} loading={false} />);
    expect(screen.getByTestId('chart-card-value').textContent).toBe('1,500');
    expect(screen.getByText('本月')).toBeTruthy();
    expect(screen.getByText(/上月 1,000/)).toBeTruthy();
  });

  it('summary table: columns and formatted cells; a row click reports its dimensions; rendered once drawn', async () => {
    const onPointClick = vi.fn();
    const onRendered = vi.fn();
    const data = makeData([salesFields[0]!, salesFields[2]!], [{ d0: '华东', m0: 1234567.5 }]);
    render(<ChartView chart={makeChart('table')} data={data} loading={false} onPointClick={onPointClick} onRendered={onRendered} />);
    expect(await screen.findByText('1,234,567.5')).toBeTruthy();
    expect(onRendered).toHaveBeenCalledTimes(1);
    expect(screen.getAllByText('区域').length).toBeGreaterThan(0);
    fireEvent.click(screen.getByText('华东'));
    expect(onPointClick).toHaveBeenCalledWith(['华东'], [expect.objectContaining({ alias: 'd0' })]);
  });

  it("summary table with 合计: the server's totals in a bold last row, not clickable", async () => {
    const onPointClick = vi.fn();
    const data = {
      ...makeData(
        [salesFields[0]!, salesFields[2]!],
        [
          { d0: '华东', m0: 100 },
          { d0: '华北', m0: 300 },
        ],
      ),
      totals: { grand: { m0: 250 }, byColumn: [] },
    };
    const { container } = render(
      <ChartView chart={makeChart('table', { option: { showTotal: true } })} data={data} loading={false} onPointClick={onPointClick} />,
    );
    await screen.findByText('合计');
    const rows = container.querySelectorAll('.ant-table-tbody tr.ant-table-row');
    expect(rows).toHaveLength(3);
    const total = rows[2] as HTMLElement;
    expect(total.textContent).toBe('合计250');
    expect(total.style.fontWeight).toBe('600');
    fireEvent.click(within(total).getByText('合计'));
    expect(onPointClick).not.toHaveBeenCalled();
  });

  it('detail table pages through onPage', async () => {
    const onPage = vi.fn();
    const rows = Array.from({ length: 10 }, (_, i) => ({ d0: `订单${i}` }));
    const data = makeData([dim('d0', '订单号', 1)], rows, 35);
    render(<ChartView chart={makeChart('detail')} data={data} loading={false} onPage={onPage} page={{ current: 1, size: 10 }} />);
    expect(await screen.findByText('共 35 条')).toBeTruthy();
    expect(screen.getByText('订单9')).toBeTruthy();
    fireEvent.click(screen.getByTitle('2'));
    expect(onPage).toHaveBeenCalledWith(2, 10);
  });

  it('pivot: nested headers and the structure filter', async () => {
    const fields = [dim('d0', '区域', 1), dim('d1', '年份', 10), dim('d2', '产品', 11), measure('m0', '金额', 100), measure('m1', '数量', 101)];
    const data = makeData(fields, [
      { d0: '华东', d1: 2023, d2: 'A', m0: 10, m1: 1 },
      { d0: '华北', d1: 2024, d2: 'B', m0: 40, m1: 4 },
    ]);
    const { container } = render(<ChartView chart={makeChart('pivot', { cols: 2 })} data={data} loading={false} />);
    await screen.findByText('华北');
    const headerRows = container.querySelectorAll('thead tr');
    expect(headerRows).toHaveLength(3);
    expect(within(headerRows[0] as HTMLElement).getByText('2023')).toBeTruthy();
    expect(within(headerRows[2] as HTMLElement).getAllByText('金额')).toHaveLength(2);
    expect(screen.getByText('华北')).toBeTruthy();

    fireEvent.click(await screen.findByText('结构筛选'));
    const rowsPanel = await screen.findByTestId('structure-行');
    const north = within(rowsPanel).getByText('华北').closest('.ant-tree-treenode')!;
    fireEvent.click(north.querySelector('.ant-tree-checkbox')!);
    await waitFor(() => expect(container.querySelector('.ant-table-tbody')!.textContent).not.toContain('华北'));
    expect(container.querySelector('.ant-table-tbody')!.textContent).toContain('华东');
    expect(tupleKey(['华北'])).toBe('["华北"]');
  });

  it("pivot with 合计: a bold 合计 column of the server's row totals, the grand total in its corner", async () => {
    const fields = [dim('d0', '区域', 1), dim('d1', '产品', 10), measure('m0', '金额', 100)];
    const data = {
      ...makeData(fields, [
        { d0: '华东', d1: 'A', m0: 10 },
        { d0: '华东', d1: 'B', m0: 30 },
        { d0: '华北', d1: 'A', m0: 40 },
      ]),
      // Averages over every order: not the sums (or averages) of the cells shown.
      totals: {
        grand: { m0: 27.5 },
        byColumn: [
          { d1: 'A', m0: 25 },
          { d1: 'B', m0: 30 },
        ],
        byRow: [
          { d0: '华东', m0: 22 },
          { d0: '华北', m0: 40 },
        ],
      },
    };
    const { container } = render(<ChartView chart={makeChart('pivot', { cols: 1, option: { showTotal: true } })} data={data} loading={false} />);
    await screen.findByText('华北');
    const header = container.querySelector('thead tr') as HTMLElement;
    expect([...header.querySelectorAll('th')].map((th) => th.textContent)).toEqual(['区域', 'A', 'B', '合计']);
    const rows = [...container.querySelectorAll('.ant-table-tbody tr.ant-table-row')] as HTMLElement[];
    const cells = rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent));
    expect(cells).toEqual([
      ['华东', '10', '30', '22'],
      ['华北', '40', '', '40'],
      ['合计', '25', '30', '27.5'],
    ]);
    const totalCell = rows[0]!.querySelectorAll('td')[3] as HTMLElement;
    expect(totalCell.style.fontWeight).toBe('600');
  });

  it('pivot: no structure filter when closed', async () => {
    const data = makeData([salesFields[0]!, salesFields[2]!], [{ d0: '华东', m0: 1 }]);
    render(<ChartView chart={makeChart('pivot', { option: { structureFilter: false } })} data={data} loading={false} />);
    await screen.findByText('华东');
    expect(screen.queryByText('结构筛选')).toBeNull();
  });
});

describe('filter controls', () => {
  it('select: the values, the default, and onFilterChange', async () => {
    const onFilterChange = vi.fn();
    const data = makeData([dim('d0', '区域', 1)], [{ d0: '华东' }, { d0: '华北' }, { d0: '华南' }]);
    render(
      <ChartView
        chart={makeChart('filterSelect', { ext: { filterList: [], defaultValue: ['华东'] } })}
        data={data}
        loading={false}
        onFilterChange={onFilterChange}
      />,
    );
    fireEvent.mouseDown(await screen.findByRole('combobox'));
    const option = await screen.findByTitle('华北');
    fireEvent.click(option);
    // the default value (华东) was selected: the new choice adds to it
    expect(onFilterChange).toHaveBeenCalledWith(['华东', '华北']);
  });

  it('date range: the default value', async () => {
    const { container } = render(
      <ChartView chart={makeChart('filterDate', { ext: { filterList: [], defaultValue: ['2024-01-01', '2024-01-31'] } })} data={null} loading={false} />,
    );
    await waitFor(() => expect([...container.querySelectorAll('input')].map((i) => i.value)).toEqual(['2024-01-01', '2024-01-31']));
    expect(screen.queryByText('拼命加载中')).toBeNull();
  });
});

describe('useChartData', () => {
  const wrapper = (client: QueryClient) =>
    function Wrapper({ children }: { children: ReactNode }) {
      return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    };

  it('modes and bodies', () => {
    expect(chartDataMode('text')).toBeNull();
    expect(chartDataMode('filterDate')).toBeNull();
    expect(chartDataMode('detail')).toBe('detail');
    expect(chartDataMode('filterSelect')).toBe('values');
    expect(chartDataMode('pivot')).toBe('aggregate');
    expect(chartDataBody({ boardId: 3, chartKey: 'a', mode: 'aggregate', links: [], params: {} })).toEqual({ boardId: 3, chartKey: 'a', mode: 'aggregate' });
    expect(chartDataBody({ boardId: 3, chartKey: 'a', mode: 'detail', size: 20 })).toEqual({ boardId: 3, chartKey: 'a', mode: 'detail', current: 1, size: 20 });
    expect(chartDataBody({ boardId: 3, chartKey: 'a', dataconfig: { cubeId: 9 } })).toEqual({ dataconfig: { cubeId: 9 }, mode: 'aggregate' });
    // An editor's unsaved chart tells its type; a saved chart's type is on the board.
    expect(chartDataBody({ dataconfig: { cubeId: 9 }, chartType: 'pie' })).toEqual({ dataconfig: { cubeId: 9 }, chartType: 'pie', mode: 'aggregate' });
    expect(chartDataBody({ boardId: 3, chartKey: 'a', chartType: 'pie' })).toEqual({ boardId: 3, chartKey: 'a', mode: 'aggregate' });
    // An editor's chart says whether it shows 合计; a saved chart's style is read on the server.
    expect(chartDataBody({ dataconfig: { cubeId: 9 }, chartType: 'table', showTotal: true })).toEqual({
      dataconfig: { cubeId: 9 },
      chartType: 'table',
      mode: 'aggregate',
      showTotal: true,
    });
    expect(chartDataBody({ dataconfig: { cubeId: 9 }, chartType: 'table', showTotal: false })).toEqual({
      dataconfig: { cubeId: 9 },
      chartType: 'table',
      mode: 'aggregate',
    });
    expect(chartDataBody({ boardId: 3, chartKey: 'a', showTotal: true })).toEqual({ boardId: 3, chartKey: 'a', mode: 'aggregate' });
  });

  it('identical requests share one call', async () => {
    const calls = mockFetch((call) => (call.url === API.board.chartData ? ok(barData) : undefined));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const input = { boardId: 1, chartKey: 'c1', mode: 'aggregate' as const, links: [{ fieldId: 1, values: ['华东'] }] };
    const { result } = renderHook(
      () => {
        const a = useChartData(input);
        const b = useChartData({ ...input, links: [{ fieldId: 1, values: ['华东'] }] });
        return { a, b };
      },
      { wrapper: wrapper(client) },
    );
    await waitFor(() => expect(result.current.a.data).not.toBeNull());
    expect(result.current.b.data).toEqual(barData);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.method).toBe('POST');
    expect(calls[0]!.body).toEqual({ boardId: 1, chartKey: 'c1', mode: 'aggregate', links: [{ fieldId: 1, values: ['华东'] }] });
  });

  it('null input fetches nothing', () => {
    const calls = mockFetch(() => undefined);
    const client = new QueryClient();
    const { result } = renderHook(() => useChartData(null), { wrapper: wrapper(client) });
    expect(result.current.data).toBeNull();
    expect(result.current.loading).toBe(false);
    expect(calls).toHaveLength(0);
  });
});
