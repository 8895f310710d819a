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

export function chartAnswer<D>(page: Page, key: string, withLinks: boolean): Promise<ChartAnswer<D>> {
  return page
    .waitForResponse((r: Response) => {
      if (r.request().method() !== 'POST') return false;
      const path = new URL(r.url()).pathname;
      if (path === CHART_DATA) return matches(r.request().postDataJSON() as ChartRequest, key, withLinks);
      if (path !== BATCH) return false;
      const charts = (r.request().postDataJSON() as { charts?: ChartRequest[] }).charts ?? [];
      return charts.some((c) => matches(c, key, withLinks));
    })
    .then(async (r) => {
      if (new URL(r.url()).pathname === CHART_DATA) {
        const body = r.request().postDataJSON() as ChartRequest;
        return { links: body.links ?? [], data: ((await r.json()) as { data: D }).data };
      }
      const charts = (r.request().postDataJSON() as { charts: ChartRequest[] }).charts;
      const index = charts.findIndex((c) => matches(c, key, withLinks));
      // NDJSON: one `{ index, chartKey, data, error }` line per chart (the JSON form: the envelope's array).
      const text = await r.text();
      const items = text.trimStart().startsWith('{"code"')
        ? ((JSON.parse(text) as { data: { data: D | null; error: unknown }[] }).data.map((item, i) => ({ index: i, ...item })) as {
            index: number;
            data: D | null;
            error: unknown;
          }[])
        : text
            .split('\n')
            .filter((line) => line.trim() !== '')
            .map((line) => JSON.parse(line) as { index: number; data: D | null; error: unknown });
      const item = items.find((i) => i.index === index);
      if (!item?.data) throw new Error(`chart ${key}: no answer in the batch (${JSON.stringify(item?.error ?? null)})`);
      return { links: charts[index]!.links ?? [], data: item.data };
    });
}
