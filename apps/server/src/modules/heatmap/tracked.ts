import type { HeatmapQueryParsed, HeatmapResult } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { serverTimeZoneOffsetMinutes } from '../system/index.ts';
import type { TrackFilter } from './track-repo.ts';

/**
 * Tracked clicks beside the warehouse's (docs/heatmap.md): the same conditions, read from the
 * product's store. Their times are instants; the query's days are the installation's
 * (系统设置 → 时区), like the warehouse's wall-clock times.
 */

/** The instant a day (YYYY-MM-DD) starts in the installation's zone. */
export async function dayStart(ctx: AppContext, day: string): Promise<Date> {
  const utcMidnight = new Date(`${day}T00:00:00Z`);
  const offset = await serverTimeZoneOffsetMinutes(ctx, utcMidnight);
  return new Date(utcMidnight.getTime() - offset * 60_000);
}

export async function trackFilter(ctx: AppContext, q: HeatmapQueryParsed, endExclusive: string): Promise<TrackFilter> {
  return {
    event: q.event,
    from: await dayStart(ctx, q.startTime),
    to: await dayStart(ctx, endExclusive),
    distinctId: q.distinctId,
    platformType: q.platformType,
    project: q.proj,
  };
}

type PageCount = HeatmapResult['pages'][number];

/** Counts per page of both sources, added up per page, busiest first. */
export function mergePageCounts(a: readonly PageCount[], b: readonly PageCount[]): PageCount[] {
  const byPage = new Map<string, PageCount>();
  for (const p of [...a, ...b]) {
    const key = `${p.title}\u0000${p.url}`;
    const seen = byPage.get(key);
    byPage.set(key, seen ? { ...seen, count: seen.count + p.count } : { ...p });
  }
  return [...byPage.values()].sort((x, y) => y.count - x.count || x.title.localeCompare(y.title, 'zh-CN'));
}
