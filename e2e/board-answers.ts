import type { Page, Response } from 'playwright-core';

/**
 * The next answer of a board chart, whichever way the page asked for it (issue 26): its own
 * POST /api/board/chart-data, or its line of the board's streamed POST chart-data/batch —
 * /newbi/preview and /openview ask for every drawn chart's first answer in one batch; linkage,
 * paging and dialogs still ask per chart. `withLinks` tells a linked request from a first one.
 */
export interface ChartAnswer<D> {
  /** The links the chart was asked with. */
  links: unknown[];
  data: D;
}

interface ChartRequest {
  chartKey?: string;
  links?: unknown[];
}

const CHART_DATA = '/api/board/chart-data';
const BATCH = '/api/board/chart-data/batch';

const matches = (body: ChartRequest, key: string, withLinks: boolean) => body.chartKey === key && (body.links?.length ?? 0) > 0 === withLinks;

interface BatchLine<D> {
  index: number;
  data: D | null;
  error: unknown;
  /** The request answered, when the server chose the charts (a batch without `charts`: the page's first script). */
  request?: ChartRequest;
}

/** The batch's items (NDJSON lines, or the JSON form's envelope), each with the request it answers. */
async function batchItems<D>(r: Response): Promise<(BatchLine<D> & { asked: ChartRequest | undefined })[]> {
  const charts = (r.request().postDataJSON() as { charts?: ChartRequest[] }).charts;
  const text = await r.text();
  const items: BatchLine<D>[] = text.trimStart().startsWith('{"code"')
    ? (JSON.parse(text) as { data: Omit<BatchLine<D>, 'index'>[] }).data.map((item, i) => ({ index: i, ...item }))
    : text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as BatchLine<D>);
  return items.map((item) => ({ ...item, asked: item.request ?? charts?.[item.index] }));
}

export function chartAnswer<D>(page: Page, key: string, withLinks: boolean): Promise<ChartAnswer<D>> {
  let found: ChartAnswer<D> | null = null;
  return page
    .waitForResponse(async (r: Response) => {
      if (r.request().method() !== 'POST') return false;
      const path = new URL(r.url()).pathname;
      if (path === CHART_DATA) {
        const body = r.request().postDataJSON() as ChartRequest;
        if (!matches(body, key, withLinks)) return false;
        found = { links: body.links ?? [], data: ((await r.json()) as { data: D }).data };
        return true;
      }
      if (path !== BATCH) return false;
      const item = (await batchItems<D>(r)).find((i) => i.asked && matches(i.asked, key, withLinks));
      if (!item) return false;
      if (!item.data) throw new Error(`chart ${key}: no answer in the batch (${JSON.stringify(item.error ?? null)})`);
      found = { links: item.asked!.links ?? [], data: item.data };
      return true;
    })
    .then(() => found!);
}
