import { useEffect, useState } from 'react';
import { useQueryClient, type Query } from '@tanstack/react-query';
import { CHART_DATA_BATCH_STREAM_TYPE, type ChartDataBatchLine, type ChartDataBody, type ChartDataResult } from '@shutu/contracts';
import { API, authToken } from '../../../shared/api.ts';
import { chartDataBody, chartDataKeys } from '../../../shared/charts/useChartData.ts';

/**
 * The first data of a board in one call (POST chart-data/batch, issue 26): the charts drawn on
 * the page ask together, so the server reads the charts that share a dataset and its filters
 * in one statement. The answer is streamed (NDJSON), one line per chart as the engine answers
 * it, and each line is put where the chart's own query (useChartData) looks for it, so the
 * chart draws at once without a request of its own while the others are still being read. A
 * chart whose line is an error asks again by itself and shows its own failure. Later changes
 * (linkage, paging, 全屏 dialogs) go through each chart's own request. When the batch itself
 * fails, every chart not yet answered asks by itself, as before the batch existed.
 */

/** Answers of the batch put in the cache, not yet replaced by a chart's own request. */
const batchAnswers = new WeakSet<ChartDataResult>();
/** How long a batch answer stands for the chart's own request. */
const BATCH_FRESH_MS = 30_000;

/**
 * The staleTime of a board chart's query: a batch answer is fresh for a while (the chart does
 * not ask again when it starts asking itself); any other answer is stale at once, as before.
 */
export function boardChartStaleTime(query: Query<ChartDataResult, Error, ChartDataResult, readonly unknown[]>): number {
  const data = query.state.data;
  return data && batchAnswers.has(data) && Date.now() - query.state.dataUpdatedAt < BATCH_FRESH_MS ? BATCH_FRESH_MS : 0;
}

/** Reads the NDJSON answer, calling `onLine` for each chart's line as it arrives. */
async function readBatch(boardId: number, bodies: readonly ChartDataBody[], onLine: (line: ChartDataBatchLine) => void, signal: AbortSignal): Promise<void> {
  const token = authToken();
  const response = await fetch(API.board.chartDataBatch, {
    method: 'POST',
    headers: { Accept: CHART_DATA_BATCH_STREAM_TYPE, 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({
      boardId,
      charts: bodies.map((b) => ({ chartKey: b.chartKey!, mode: b.mode, links: b.links ?? [], current: b.current ?? 1, size: b.size ?? null })),
    }),
    signal,
  });
  if (!response.ok || !response.body || !response.headers.get('content-type')?.includes(CHART_DATA_BATCH_STREAM_TYPE))
    throw new Error(`batch ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let rest = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (value) rest += value;
    const lines = rest.split('\n');
    rest = done ? '' : lines.pop()!;
    for (const line of lines) if (line.trim()) onLine(JSON.parse(line) as ChartDataBatchLine);
    if (done) return;
  }
}

/** Returns whether a chart still waits for its line of the batch (it does not ask by itself meanwhile). */
export function useBoardBatch(boardId: number, requests: readonly ChartDataBody[]): (chartKey: string) => boolean {
  const client = useQueryClient();
  // The requests of the first render only: the page's first load.
  const [first] = useState(() => requests.map(chartDataBody));
  const [waiting, setWaiting] = useState<ReadonlySet<string>>(() => new Set(first.map((b) => b.chartKey!)));
  useEffect(() => {
    if (first.length === 0) return;
    const abort = new AbortController();
    const answered = (key: string) =>
      setWaiting((s) => {
        const next = new Set(s);
        next.delete(key);
        return next;
      });
    readBatch(
      boardId,
      first,
      (line) => {
        const body = first[line.index];
        if (!body) return;
        if (line.data) {
          batchAnswers.add(line.data);
          client.setQueryData(chartDataKeys.request(body), line.data);
        }
        answered(body.chartKey!);
      },
      abort.signal,
    )
      .catch(() => undefined)
      // Whatever was not answered asks by itself.
      .finally(() => !abort.signal.aborted && setWaiting(new Set()));
    return () => abort.abort();
  }, [boardId, first, client]);
  return (chartKey) => waiting.has(chartKey);
}
