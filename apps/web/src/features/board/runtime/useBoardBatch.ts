import { useState } from 'react';
import { useQuery, useQueryClient, type Query } from '@tanstack/react-query';
import type { ChartDataBatchItem, ChartDataBody, ChartDataResult } from '@shutu/contracts';
import { API, http } from '../../../shared/api.ts';
import { chartDataBody, chartDataKeys } from '../../../shared/charts/index.ts';

/**
 * The first data of a board in one call (POST chart-data/batch, issue 26): the charts drawn on
 * the page ask together, so the server reads the charts that share a dataset and its filters
 * in one statement. Each answer is put where the chart's own query (useChartData) looks for
 * it, so the charts render from it without a request of their own; a chart whose answer is an
 * error asks again by itself and shows its own failure. Later changes (linkage, paging, 全屏
 * dialogs) go through each chart's own request. When the batch itself fails, every chart asks
 * by itself, as before the batch existed.
 *
 * Returns whether the batch is still running: the charts wait for it instead of asking twice.
 */
/** Answers the batch put in the cache, not yet replaced by a chart's own request. */
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

export function useBoardBatch(boardId: number, requests: readonly ChartDataBody[]): boolean {
  const client = useQueryClient();
  // The requests of the first render only: the page's first load.
  const [first] = useState(() => requests.map(chartDataBody));
  const query = useQuery({
    queryKey: ['board', 'chart-batch', boardId, first] as const,
    queryFn: async () => {
      const charts = first.map((b) => ({ chartKey: b.chartKey!, mode: b.mode, links: b.links ?? [], current: b.current ?? 1, size: b.size ?? null }));
      const items = await http.post<ChartDataBatchItem[]>(API.board.chartDataBatch, { boardId, charts });
      items.forEach((item, i) => {
        if (!item.data || !first[i]) return;
        batchAnswers.add(item.data);
        client.setQueryData(chartDataKeys.request(first[i]), item.data);
      });
      return items.length;
    },
    enabled: first.length > 0,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    meta: { silent: true },
  });
  return first.length > 0 && query.isPending;
}
