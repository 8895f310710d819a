import { keepPreviousData, useQuery, type UseQueryOptions } from '@tanstack/react-query';
import type { ChartDataBody, ChartDataResult } from '@shutu/contracts';
import { API, http } from '../api.ts';

/**
 * Chart data (POST API.board.chartData). The query key holds the whole request, so charts
 * that ask the same thing share one request in the browser (the server shares executions too).
 */

// What a chart type reads is the board contract's (the server builds a board's first requests with it).
export { chartDataMode, type ChartDataMode } from '@shutu/contracts/board-linkage';

/**
 * The request body: a draft `dataconfig` wins over the saved chart (editor preview); empty
 * links, page 1 and empty params are left out so identical requests get identical keys.
 */
export function chartDataBody(input: ChartDataBody): ChartDataBody {
  const body: ChartDataBody = input.dataconfig ? { dataconfig: input.dataconfig } : { boardId: input.boardId, chartKey: input.chartKey };
  // An unsaved chart's type tells the server how to read it (a saved chart's type is on the board).
  if (input.dataconfig && input.chartType) body.chartType = input.chartType;
  // So does its style's 合计 (a saved chart's saved style decides on the server).
  if (input.dataconfig && input.showTotal) body.showTotal = true;
  body.mode = input.mode ?? 'aggregate';
  if (input.links && input.links.length > 0) body.links = input.links;
  if (body.mode === 'detail') {
    body.current = input.current ?? 1;
    if (input.size) body.size = input.size;
  } else if (input.size) {
    body.size = input.size;
  }
  if (input.params && Object.keys(input.params).length > 0) body.params = input.params;
  return body;
}

export const chartDataKeys = {
  all: ['board', 'chart-data'] as const,
  request: (body: ChartDataBody) => ['board', 'chart-data', body] as const,
};

export function fetchChartData(body: ChartDataBody): Promise<ChartDataResult> {
  return http.post<ChartDataResult>(API.board.chartData, body);
}

/**
 * The data of one chart; `input` null (or `enabled` false) fetches nothing. Failures are not
 * toasted: ChartView shows them in the chart. While a new request runs the previous answer
 * stays (`loading` is true meanwhile).
 */
export function useChartData(
  input: ChartDataBody | null,
  options: {
    enabled?: boolean;
    staleTime?: UseQueryOptions<ChartDataResult>['staleTime'];
    refetchOnMount?: UseQueryOptions<ChartDataResult>['refetchOnMount'];
  } = {},
) {
  const body = input ? chartDataBody(input) : null;
  const query = useQuery({
    queryKey: body ? chartDataKeys.request(body) : [...chartDataKeys.all, null],
    queryFn: () => fetchChartData(body!),
    enabled: body !== null && options.enabled !== false,
    placeholderData: keepPreviousData,
    // A board's batch (features/board/runtime/useBoardBatch.ts) puts answers here: fresh for a while, not fetched again.
    staleTime: options.staleTime ?? 0,
    // A board's first requests, sent before its charts rendered (useBoardBatch.ts): taken on mount.
    refetchOnMount: options.refetchOnMount ?? true,
    meta: { silent: true },
  });
  return {
    query,
    data: query.data ?? null,
    loading: query.isFetching,
    error: query.error ? query.error.message : null,
  };
}
