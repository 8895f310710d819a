import { StrictMode } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import { cleanup, configure, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import type { ChartDataBatchRequest, ChartDataRequest } from '@shutu/contracts';
import { fail, mockFetch, ok } from '../../../test/fetch-mock.ts';
import { chartDataBody, chartDataKeys } from '../../../shared/charts/useChartData.ts';
import { BoardView } from './BoardView.tsx';
import { chartAt, link, makeBoard, salesData } from './test-fixtures.ts';

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

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const mount = (ui: React.ReactElement) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AntApp>{ui}</AntApp>
    </QueryClientProvider>,
  );

/** The batch answered as NDJSON, its lines given out as `release` lets them (the rest of mockFetch's calls as mocked). */
function streamBatch(
  lines: (request: ChartDataBatchRequest) => { index: number; chartKey: string; data: unknown; error: unknown }[],
  held: Promise<void>,
  heldFrom: number,
) {
  const original = globalThis.fetch;
  const batches: ChartDataBatchRequest[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input) !== '/api/board/chart-data/batch') return original(input, init);
    const request = JSON.parse(String(init?.body)) as ChartDataBatchRequest;
    batches.push(request);
    const all = lines(request).map((l) => `${JSON.stringify(l)}\n`);
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        for (const [i, line] of all.entries()) {
          if (i === heldFrom) await held;
          controller.enqueue(encoder.encode(line));
        }
        controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'Content-Type': 'application/x-ndjson' } });
  });
  return batches;
}

it('asks for the drawn charts in one streamed batch, draws each as its line arrives, and lets a failed chart ask by itself', async () => {
  const calls = mockFetch((c) => (c.url === '/api/board/chart-data' ? fail(500, '查询超时') : undefined));
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  // The bar's and the filter's lines first; the failing table's line is held back.
  const batches = streamBatch(
    (request) =>
      request
        .charts!.map(({ chartKey }, index) =>
          chartKey === 'failing'
            ? { index, chartKey, data: null, error: { status: 500, msg: '查询超时' } }
            : { index, chartKey, data: salesData([['浙江', 1]]), error: null },
        )
        .sort((a, b) => Number(a.chartKey === 'failing') - Number(b.chartKey === 'failing')),
    held,
    2,
  );
  const onReady = vi.fn();
  const board = makeBoard([
    chartAt('province', 'filterSelect', '省份筛选', { x: 0, y: 0 }, { defaultValue: ['浙江'] }),
    chartAt('bar', 'bar', '各省金额', { x: 0, y: 100 }, { filterList: [link('province', 1, { beginFlag: true })] }),
    chartAt('failing', 'table', '失败的表', { x: 0, y: 300 }),
    chartAt('text', 'text', '说明', { x: 900, y: 0 }, { text: '说明文字' }),
    chartAt('dialog', 'bar', '弹窗图', { isDiglog: true }),
  ]);
  mount(<BoardView board={board} batch onReady={onReady} />);
  // The bar is drawn from its line while the table still waits for its own.
  await waitFor(() => expect(document.querySelector('[data-chart-key="bar"]')?.getAttribute('data-row-count')).toBe('1'));
  expect(document.querySelector('[data-chart-key="failing"]')?.getAttribute('data-loading')).toBe('true');
  expect(onReady).not.toHaveBeenCalled();
  release();
  await screen.findByText('查询超时');
  await waitFor(() => expect(onReady).toHaveBeenCalledTimes(1));

  expect(batches).toHaveLength(1);
  // The drawn charts that read data, with their first-load links (the filter's default); not the text, not the dialog chart.
  expect(batches[0]).toEqual({
    boardId: board.id,
    charts: [
      { chartKey: 'province', mode: 'values', links: [], current: 1, size: null },
      { chartKey: 'bar', mode: 'aggregate', links: [{ fieldId: 1, function: 'in', values: ['浙江'] }], current: 1, size: null },
      { chartKey: 'failing', mode: 'aggregate', links: [], current: 1, size: null },
    ],
    grouped: false,
  });
  // Answered charts do not ask again; the failed one asks by itself and shows its own failure.
  expect(calls.map((c) => (c.body as ChartDataRequest).chartKey)).toEqual(['failing']);
});

it('asks once when the render that started the call is thrown away and done again (StrictMode renders twice)', async () => {
  const calls = mockFetch(() => undefined);
  const batches = streamBatch(
    (request) => request.charts!.map(({ chartKey }, index) => ({ index, chartKey, data: salesData([['浙江', 1]]), error: null })),
    Promise.resolve(),
    0,
  );
  const onReady = vi.fn();
  mount(
    <StrictMode>
      <BoardView
        board={makeBoard([chartAt('bar', 'bar', '各省金额', { x: 0, y: 0 }), chartAt('pie', 'pie', '占比', { x: 500, y: 0 })])}
        batch
        onReady={onReady}
      />
    </StrictMode>,
  );
  await waitFor(() => expect(onReady).toHaveBeenCalledTimes(1));
  expect(batches).toHaveLength(1);
  expect(calls.filter((c) => c.url === '/api/board/chart-data')).toEqual([]);
});

it('keeps the call while the board is on the page (StrictMode mounts it twice) and ends it when the board leaves', async () => {
  mockFetch(() => undefined);
  const original = globalThis.fetch;
  const signals: AbortSignal[] = [];
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input) !== '/api/board/chart-data/batch') return original(input, init);
    signals.push(init!.signal!);
    return new Promise<Response>(() => undefined); // the engine is still reading
  });
  const view = mount(
    <StrictMode>
      <BoardView board={makeBoard([chartAt('bar', 'bar', '各省金额', { x: 0, y: 0 })])} batch />
    </StrictMode>,
  );
  await waitFor(() => expect(signals).toHaveLength(1));
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(signals[0]!.aborted).toBe(false);
  view.unmount();
  await waitFor(() => expect(signals[0]!.aborted).toBe(true));
});

it('does not ask again when the batch answers a chart whose query held an earlier, different answer', async () => {
  const calls = mockFetch(() => undefined);
  streamBatch(
    (request) =>
      request.charts!.map(({ chartKey }, index) => ({
        index,
        chartKey,
        data: salesData([
          ['浙江', 1],
          ['江苏', 2],
        ]),
        error: null,
      })),
    Promise.resolve(),
    0,
  );
  const board = makeBoard([chartAt('bar', 'bar', '各省金额', { x: 0, y: 0 })]);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // An answer of an earlier visit: the cache merges the new one into it (structural sharing), a new object.
  client.setQueryData(
    chartDataKeys.request(chartDataBody({ boardId: board.id, chartKey: 'bar', mode: 'aggregate' })),
    salesData([
      ['浙江', 1],
      ['江苏', 9],
    ]),
  );
  const onReady = vi.fn();
  render(
    <QueryClientProvider client={client}>
      <AntApp>
        <BoardView board={board} batch onReady={onReady} />
      </AntApp>
    </QueryClientProvider>,
  );
  await waitFor(() => expect(onReady).toHaveBeenCalledTimes(1));
  expect(calls.filter((c) => c.url === '/api/board/chart-data')).toEqual([]);
});

it('falls back to one request per chart when the batch fails', async () => {
  const calls = mockFetch((c) => {
    if (c.url === '/api/board/chart-data/batch') return fail(404, '接口不存在');
    if (c.url === '/api/board/chart-data') return ok(salesData([['江苏', 2]]));
    return undefined;
  });
  const onReady = vi.fn();
  mount(
    <BoardView
      board={makeBoard([chartAt('bar', 'bar', '各省金额', { x: 0, y: 0 }), chartAt('pie', 'pie', '占比', { x: 500, y: 0 })])}
      batch
      onReady={onReady}
    />,
  );
  await waitFor(() => expect(onReady).toHaveBeenCalledTimes(1));
  expect(calls.filter((c) => c.url === '/api/board/chart-data').map((c) => (c.body as ChartDataRequest).chartKey)).toEqual(['bar', 'pie']);
});

it("takes the first script's call for the board's first data: each line filed by the request it answers, no batch of its own", async () => {
  const calls = mockFetch(() => undefined);
  const board = makeBoard([
    chartAt('province', 'filterSelect', '省份筛选', { x: 0, y: 0 }, { defaultValue: ['浙江'] }),
    chartAt('bar', 'bar', '各省金额', { x: 0, y: 100 }, { filterList: [link('province', 1, { beginFlag: true })] }),
    chartAt('pie', 'pie', '占比', { x: 500, y: 100 }),
  ]);
  // The server's list (boardFirstRequests), in its own order; the pie's line answers a request this page does not make.
  const lines = [
    {
      index: 0,
      chartKey: 'bar',
      data: salesData([['浙江', 7]]),
      error: null,
      request: { chartKey: 'bar', mode: 'aggregate', links: [{ fieldId: 1, function: 'in', values: ['浙江'] }], current: 1, size: null },
    },
    {
      index: 1,
      chartKey: 'province',
      data: salesData([['浙江', 1]]),
      error: null,
      request: { chartKey: 'province', mode: 'values', links: [], current: 1, size: null },
    },
    { index: 2, chartKey: 'pie', data: salesData([['江苏', 9]]), error: null, request: { chartKey: 'pie', mode: 'detail', links: [], current: 1, size: 5 } },
  ];
  const taken: string[] = [];
  vi.stubGlobal('__shutuEarly', {
    take: (key: string, token: string | null) => {
      taken.push(`${key} ${token}`);
      return key === `POST /api/board/chart-data/batch ${board.id}`
        ? Promise.resolve(new Response(lines.map((l) => `${JSON.stringify(l)}\n`).join(''), { headers: { 'Content-Type': 'application/x-ndjson' } }))
        : null;
    },
  });
  const onReady = vi.fn();
  mount(<BoardView board={board} batch onReady={onReady} />);
  await waitFor(() => expect(onReady).toHaveBeenCalledTimes(1));
  expect(taken).toEqual([`POST /api/board/chart-data/batch ${board.id} null`]);
  expect(document.querySelector('[data-chart-key="bar"]')?.getAttribute('data-row-count')).toBe('1');
  // No batch call of the page's own; only the pie, whose line answered something else, asked by itself.
  expect(calls.filter((c) => c.url === '/api/board/chart-data/batch')).toHaveLength(0);
  expect(calls.filter((c) => c.url === '/api/board/chart-data').map((c) => (c.body as ChartDataRequest).chartKey)).toEqual(['pie']);
});

it("asks for each chart alone (grouped: false), and takes the first script's call for the board", async () => {
  const calls = mockFetch(() => undefined);
  const board = makeBoard([chartAt('bar', 'bar', '各省金额', { x: 0, y: 0 }), chartAt('pie', 'pie', '占比', { x: 500, y: 0 })]);
  const taken: string[] = [];
  vi.stubGlobal('__shutuEarly', {
    take: (key: string) => {
      taken.push(key);
      return null;
    },
  });
  const batches = streamBatch(
    (request) => request.charts!.map(({ chartKey }, index) => ({ index, chartKey, data: salesData([['浙江', 3]]), error: null })),
    Promise.resolve(),
    0,
  );
  const onReady = vi.fn();
  mount(<BoardView board={board} batch onReady={onReady} />);
  await waitFor(() => expect(onReady).toHaveBeenCalledTimes(1));
  expect(taken).toEqual([`POST /api/board/chart-data/batch ${board.id}`]);
  expect(batches).toHaveLength(1);
  expect(batches[0]).toMatchObject({ boardId: board.id, grouped: false });
  expect(batches[0]!.charts!.map((c) => c.chartKey)).toEqual(['bar', 'pie']);
  expect(document.querySelector('[data-chart-key="pie"]')?.getAttribute('data-row-count')).toBe('1');
  // Every chart answered by the call: none asked by itself.
  expect(calls.filter((c) => c.url === '/api/board/chart-data')).toHaveLength(0);
});
