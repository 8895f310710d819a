import { afterEach, expect, it, vi } from 'vitest';
import { cleanup, configure, render, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import { mockFetch, ok } from '../../../test/fetch-mock.ts';
import { BoardView } from './BoardView.tsx';
import { chartAt, makeBoard, salesData } from './test-fixtures.ts';

configure({ asyncUtilTimeout: 10_000 });

/** How often each chart's view rendered, by chart key. */
const renders = new Map<string, number>();

// The chart's view as a counter: it reports its first picture once its data is there, as ChartView does.
vi.mock('../../../shared/charts/ChartView.tsx', async () => {
  const { useEffect } = await import('react');
  return {
    ChartView: ({ chart, data, onRendered }: { chart: { key: string }; data: unknown; onRendered?: () => void }) => {
      renders.set(chart.key, (renders.get(chart.key) ?? 0) + 1);
      useEffect(() => {
        if (!data) return;
        // Each first picture in a task of its own, one after another, as the page's draw queue
        // draws them (shared/charts/draw-queue.ts): the board renders between two of them.
        const drawn = setTimeout(() => onRendered?.(), 5 * Number(chart.key.slice(1)));
        return () => clearTimeout(drawn);
      }, [data, chart.key, onRendered]);
      return <div data-testid={`view-${chart.key}`}>{data ? '已绘制' : '加载中'}</div>;
    },
  };
});

afterEach(() => {
  cleanup();
  renders.clear();
});

/**
 * A regression guard for the board page's own time (issue 26), not a timing assertion: each
 * chart's first picture updates the board's ready state, and that must not draw the board's
 * other charts again (with twenty charts that was 400 renders of tables and ECharts).
 */
it('draws each chart a bounded number of times while a board of many charts becomes ready', async () => {
  mockFetch((c) => (c.url === '/api/board/chart-data' ? ok(salesData([['浙江', 120]])) : undefined));
  const keys = Array.from({ length: 12 }, (_, i) => `c${i + 1}`);
  const board = makeBoard(keys.map((key, i) => chartAt(key, 'bar', `图表${i + 1}`, { x: (i % 4) * 400, y: Math.floor(i / 4) * 300 })));
  const onReady = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AntApp>
        <BoardView board={board} onReady={onReady} />
      </AntApp>
    </QueryClientProvider>,
  );
  await waitFor(() => expect(onReady).toHaveBeenCalledTimes(1));
  for (const key of keys) expect(document.querySelector(`[data-testid="view-${key}"]`)?.textContent).toBe('已绘制');
  // Loading, then its answer (a render or two for the query's states): not once per other chart.
  expect(Math.max(...renders.values())).toBeLessThanOrEqual(4);
});
