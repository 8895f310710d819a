import { useEffect, useState, useSyncExternalStore } from 'react';
import { useQueryClient, type Query, type QueryClient } from '@tanstack/react-query';
import { CHART_DATA_BATCH_STREAM_TYPE } from '@shutu/contracts/board-constants';
import type { ChartDataBatchChartInput, ChartDataBatchLine, ChartDataBatchRequest, ChartDataBody, ChartDataResult } from '@shutu/contracts';
import { batchChartOf, chartBodyOf, type BoardChartRequest } from '@shutu/contracts/board-linkage';
import { API, authToken, takeEarlyBatch } from '../../../shared/api.ts';
import { chartDataBody, chartDataKeys, fetchChartData } from '../../../shared/charts/useChartData.ts';

/**
 * The first data of a board in one call (POST chart-data/batch, issue 26): the charts drawn on
 * the page ask together, each read by its own statement as its own request reads it (the
 * server shares one statement among exact distinct counts of one column, and among time axes of
 * one column; its GROUPING SETS form, slower to the last chart, is not asked for). The answer is
 * streamed (NDJSON), one line per chart as the engine answers it, and each line is put where the chart's own query (useChartData) looks for it, so the
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

/**
 * Reads the NDJSON answer, calling `onLine` for each chart's line as it arrives. The call the
 * page's first script made (early.js: the board's first data, the charts chosen by the server
 * with the same `boardFirstRequests`) is taken when there is one.
 */
async function readBatch(
  boardId: number,
  charts: readonly ChartDataBatchChartInput[],
  onLine: (line: ChartDataBatchLine) => void,
  signal: AbortSignal,
): Promise<void> {
  const token = authToken();
  const early = takeEarlyBatch(boardId, token);
  // Without an early call, the request goes out now, before the caller goes on.
  const response =
    (early && (await early)) ||
    (await fetch(API.board.chartDataBatch, {
      method: 'POST',
      headers: { Accept: CHART_DATA_BATCH_STREAM_TYPE, 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({
        boardId,
        charts: [...charts],
        grouped: false,
      } satisfies ChartDataBatchRequest),
      signal,
    }));
  if (!response.ok || !response.body || !response.headers.get('content-type')?.includes(CHART_DATA_BATCH_STREAM_TYPE))
    throw new Error(`batch ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  // The early call was sent without this page's signal.
  signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
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

/** One batch call under way: the keys answered so far, and whether the call has ended. */
interface BatchRun {
  answered: Set<string>;
  done: boolean;
  /** When the call ended (Date.now()), for a render that comes to it later. */
  endedAt: number | null;
  /** The mounted boards reading it: the call ends when the last one leaves. */
  readers: number;
  abort: AbortController;
  /** Counts every change, for useSyncExternalStore. */
  version: number;
  listeners: Set<() => void>;
}

/** A board's first requests: as the charts' queries key them, and as the batch call names them (same order). */
interface FirstRequests {
  bodies: ChartDataBody[];
  charts: ChartDataBatchChartInput[];
}

/**
 * The batch's lines are filed once the charts' code is there too (`codeReady`): a chart given its
 * data before its ECharts or table code has loaded suspends, and React then holds every loaded
 * chart back for 300 ms after that fallback (its Suspense throttle). The early call's answer is
 * often complete before the code is (the phone viewer), so its charts would all wait so.
 */
function startBatch(client: QueryClient, boardId: number, first: FirstRequests, codeReady: () => Promise<unknown>): BatchRun {
  const { bodies, charts } = first;
  const run: BatchRun = {
    answered: new Set(),
    done: false,
    endedAt: null,
    readers: 0,
    abort: new AbortController(),
    version: 0,
    listeners: new Set(),
  };
  const byRequest = new Map(bodies.map((body) => [JSON.stringify(body), body]));
  const changed = () => {
    run.version += 1;
    run.listeners.forEach((listener) => listener());
  };
  const file = (line: ChartDataBatchLine) => {
    // A line of the early call says which request it answers: filed where this page's chart
    // looks for it, if this page asks the same (a board changed in between: that chart asks by itself).
    const body = line.request ? byRequest.get(JSON.stringify(chartDataBody(chartBodyOf(boardId, line.request)))) : bodies[line.index];
    if (!body) return;
    if (line.data) {
      // Structural sharing keeps an earlier answer, or a mix of it and this one: what is marked
      // fresh is what the cache holds, as setQueryData returns it (a new object went unmarked,
      // and every chart asked again).
      const stored = client.setQueryData<ChartDataResult>(chartDataKeys.request(body), line.data);
      if (stored) batchAnswers.add(stored);
    }
    run.answered.add(body.chartKey!);
  };
  let held: ChartDataBatchLine[] | null = [];
  const read = readBatch(
    boardId,
    charts,
    (line) => {
      if (held) return void held.push(line);
      file(line);
      changed();
    },
    run.abort.signal,
  );
  // The code after the request (sent first: on HTTP/1.1 the chunks would queue it).
  const code = codeReady()
    .catch(() => undefined)
    .then(() => {
      const lines = held ?? [];
      held = null;
      lines.forEach(file);
      if (lines.length > 0) changed();
    });
  read
    .catch(() => undefined)
    .then(() => code)
    // Whatever was not answered asks by itself (not when the page left: nobody asks then).
    .finally(() => {
      run.endedAt = Date.now();
      if (run.abort.signal.aborted) return;
      run.done = true;
      changed();
    });
  return run;
}

/** Answers of the charts' own first requests sent before the charts rendered (prefetchFirstAnswers). */
const prefetchedAnswers = new WeakSet<ChartDataResult>();

/**
 * refetchOnMount of a board chart's query: not when its answer is the one asked for just before
 * the chart rendered (prefetchFirstAnswers); otherwise as before (when stale, i.e. at once for
 * a chart's own answers, so a chart that comes back to an earlier request asks again).
 */
export function boardChartRefetchOnMount(query: Query<ChartDataResult, Error, ChartDataResult, readonly unknown[]>): boolean {
  const data = query.state.data;
  return !(data && prefetchedAnswers.has(data));
}

/**
 * The first requests of the charts' own queries (a board without `batch`), sent while the board
 * renders instead of when each chart has rendered and subscribed: the same queries (key,
 * request, silent failures) that useChartData asks, so each chart joins the request in flight
 * or takes its answer on mount without asking again (boardChartRefetchOnMount).
 */
function prefetchFirstAnswers(client: QueryClient, bodies: readonly ChartDataBody[]): void {
  for (const body of bodies) {
    const queryKey = chartDataKeys.request(body);
    void client
      .prefetchQuery({
        queryKey,
        queryFn: () =>
          fetchChartData(body).then((data) => {
            prefetchedAnswers.add(data);
            return data;
          }),
        meta: { silent: true },
      })
      .then(() => {
        // As with the batch: structural sharing may have kept or mixed an earlier answer.
        const stored = client.getQueryData<ChartDataResult>(queryKey);
        if (stored) prefetchedAnswers.add(stored);
      });
  }
}

const noSubscription = () => () => undefined;

/**
 * Calls started by a render that has not been committed, by query client and request. A render
 * of the board can be thrown away and started again (a transition that suspended on the charts'
 * code: the share link on a slow phone); the render that commits takes the call the first one
 * started instead of asking the server for the whole board a second time.
 */
const unclaimedRuns = new WeakMap<QueryClient, Map<string, BatchRun>>();

function unclaimedOf(client: QueryClient): Map<string, BatchRun> {
  let runs = unclaimedRuns.get(client);
  if (!runs) unclaimedRuns.set(client, (runs = new Map()));
  return runs;
}

/** A call a render may take over: not cancelled, and not ended longer ago than its answers stay fresh. */
function reusable(run: BatchRun | undefined): run is BatchRun {
  return !!run && !run.abort.signal.aborted && (run.endedAt === null || Date.now() - run.endedAt < BATCH_FRESH_MS);
}

/**
 * A mounted board reads the call: it is no longer one for a later render to take. Returns what
 * the board calls when it leaves; the call ends when the last board reading it has left.
 */
function claimRun(client: QueryClient, { key, run }: { key: string; run: BatchRun }): () => void {
  const runs = unclaimedOf(client);
  if (runs.get(key) === run) runs.delete(key);
  run.readers += 1;
  return () => {
    run.readers -= 1;
    // Not at once: StrictMode (development) unmounts and mounts again in the same commit, and
    // the call started while rendering must go on.
    queueMicrotask(() => {
      if (run.readers === 0) run.abort.abort();
    });
  };
}

/** The call for these first requests: the one an earlier, uncommitted render started, or a new one. */
function batchFor(client: QueryClient, boardId: number, first: FirstRequests, codeReady: () => Promise<unknown>): { key: string; run: BatchRun } {
  const key = `${boardId}|${JSON.stringify(first.charts)}`;
  const runs = unclaimedOf(client);
  const earlier = runs.get(key);
  if (reusable(earlier)) return { key, run: earlier };
  for (const [k, r] of runs) if (!reusable(r)) runs.delete(k);
  const run = startBatch(client, boardId, first, codeReady);
  runs.set(key, run);
  return { key, run };
}

/**
 * The board's first data, asked for while the board renders its first time (not after every chart
 * has rendered, which on a phone is most of a second): in one batch call when `batch`, else the
 * charts' own requests at once. Returns whether a chart still waits for its line of the
 * batch (it does not ask by itself meanwhile).
 */
export function useBoardBatch(
  boardId: number,
  requests: () => readonly BoardChartRequest[],
  batch: boolean | undefined,
  codeReady: () => Promise<unknown> = () => Promise.resolve(),
): (chartKey: string) => boolean {
  const client = useQueryClient();
  // The requests of the first render only: the page's first load.
  const [first] = useState((): FirstRequests => {
    const asked = requests();
    return { bodies: asked.map(chartDataBody), charts: asked.map(batchChartOf) };
  });
  const [started] = useState<{ key: string; run: BatchRun } | null>(() => {
    if (!batch) prefetchFirstAnswers(client, first.bodies);
    return batch && first.bodies.length > 0 ? batchFor(client, boardId, first, codeReady) : null;
  });
  const run = started?.run ?? null;
  useSyncExternalStore(
    run
      ? (listener: () => void) => {
          run.listeners.add(listener);
          return () => run.listeners.delete(listener);
        }
      : noSubscription,
    () => run?.version ?? 0,
  );
  // The call ends when the board leaves the page (claimRun).
  useEffect(() => (started ? claimRun(client, started) : undefined), [client, started]);
  return (chartKey) => !!run && !run.done && !run.answered.has(chartKey);
}
