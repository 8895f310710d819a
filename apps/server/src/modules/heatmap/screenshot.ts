import { formatMessage, trackMessages, type HeatmapFrame } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../platform/http/errors.ts';
import { rendererOf } from '../../platform/render/renderer.ts';
import { screenshotSite } from '../../platform/render/site-shot.ts';
import type { Caller } from '../perm/index.ts';
import { frameDecision } from './frame.ts';
import { heatmapTitles } from './service.ts';

/**
 * The screenshot fallback (docs/heatmap.md): only pages of the caller's heat-map titles are checked
 * or taken (the titles' read applies the caller's grants, and the server fetches no address a user
 * typed). Answers are kept five minutes per page (and width): a page's framing rules and looks do
 * not change between two queries, and a screenshot costs seconds of Chromium.
 */

const KEEP_MS = 5 * 60_000;
const KEEP_MAX = 20;

interface Kept<T> {
  value: Promise<T>;
  at: number;
}

const frames = new WeakMap<AppContext, Map<string, Kept<HeatmapFrame>>>();
const shots = new WeakMap<AppContext, Map<string, Kept<Buffer>>>();

function kept<T>(all: WeakMap<AppContext, Map<string, Kept<T>>>, ctx: AppContext, key: string, make: () => Promise<T>): Promise<T> {
  let map = all.get(ctx);
  if (!map) all.set(ctx, (map = new Map()));
  const now = Date.now();
  const hit = map.get(key);
  if (hit && now - hit.at < KEEP_MS) return hit.value;
  if (map.size >= KEEP_MAX) map.delete(map.keys().next().value!);
  const value = make();
  map.set(key, { value, at: now });
  // A failure is not kept: the next query tries again.
  value.catch(() => map.delete(key));
  return value;
}

async function viewUrlOfTitle(ctx: AppContext, caller: Caller, title: string): Promise<string> {
  const page = (await heatmapTitles(ctx, caller)).find((t) => t.title === title);
  if (!page) throw notFound(formatMessage(trackMessages.pageUnknown, { title }));
  return page.viewUrl;
}

export async function pageFrame(ctx: AppContext, caller: Caller, title: string, productOrigin: string): Promise<HeatmapFrame> {
  const viewUrl = await viewUrlOfTitle(ctx, caller, title);
  return kept(frames, ctx, `${productOrigin} ${viewUrl}`, () => frameDecision(viewUrl, productOrigin));
}

export async function pageScreenshot(ctx: AppContext, caller: Caller, title: string, width: number): Promise<Buffer> {
  const viewUrl = await viewUrlOfTitle(ctx, caller, title);
  const url = viewUrl.startsWith('/') ? `${ctx.selfUrl ?? ''}${viewUrl}` : viewUrl;
  return kept(shots, ctx, `${width} ${url}`, () => screenshotSite(rendererOf(ctx), { url, width }));
}
