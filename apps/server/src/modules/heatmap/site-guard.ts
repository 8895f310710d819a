import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { SharedWindow } from '../../platform/ratelimit/shared-window.ts';
import type { SiteCounts } from './sites.ts';

/**
 * Per-site limits and counters of the ingestion (docs/heatmap.md "Sites and write keys").
 *
 * Rate limit: a site may send two seconds' worth of its events per second in each fixed two-second
 * window, counted by every serving process together (the shared window of scope `track`,
 * platform/ratelimit/shared-window.ts: one statement per site and second per process, never one per
 * batch), so a page's burst of batches passes and a runaway script is refused with 429 at once.
 * Counters: what each site's batches did (accepted events, refused invalid batches and their
 * events, rate-limited batches) gathered in memory and added to track_site in one statement per
 * site by `drain` (every few seconds and on close), so a flood of bad batches costs no write each.
 */

const WINDOW_SECONDS = 2;

export class SiteGuard {
  private readonly window: SharedWindow;
  private counts = new Map<number, SiteCounts>();

  constructor(db: Kysely<Database>, clock?: () => number) {
    this.window = new SharedWindow(db, { scope: 'track', windowMs: WINDOW_SECONDS * 1000, ...(clock ? { clock } : {}) });
  }

  /** Takes `events` from the site's window; false (nothing taken) when there are not that many left. */
  take(siteId: number, rate: number, events: number): Promise<boolean> {
    return this.window.take(String(siteId), events, rate * WINDOW_SECONDS);
  }

  /** Adds the events taken here and not yet counted in the store (on close). */
  flushWindow(): Promise<void> {
    return this.window.flush();
  }

  private countsOf(siteId: number): SiteCounts {
    let c = this.counts.get(siteId);
    if (!c) {
      c = { accepted: 0, invalidBatches: 0, invalidEvents: 0, limitedBatches: 0, lastEventTime: null };
      this.counts.set(siteId, c);
    }
    return c;
  }

  accepted(siteId: number, events: number, at: Date): void {
    const c = this.countsOf(siteId);
    c.accepted += events;
    if (!c.lastEventTime || at > c.lastEventTime) c.lastEventTime = at;
  }

  invalid(siteId: number, events: number): void {
    const c = this.countsOf(siteId);
    c.invalidBatches += 1;
    c.invalidEvents += events;
  }

  /** Events of an accepted batch dropped as invalid. */
  dropped(siteId: number, events: number): void {
    this.countsOf(siteId).invalidEvents += events;
  }

  limited(siteId: number): void {
    this.countsOf(siteId).limitedBatches += 1;
  }

  /** Hands over (and forgets) the counts gathered so far. */
  drain(): Map<number, SiteCounts> {
    const counts = this.counts;
    this.counts = new Map();
    return counts;
  }

  /** Puts counts back after a failed write, added to those gathered since. */
  restore(counts: ReadonlyMap<number, SiteCounts>): void {
    for (const [id, c] of counts) {
      const now = this.countsOf(id);
      now.accepted += c.accepted;
      now.invalidBatches += c.invalidBatches;
      now.invalidEvents += c.invalidEvents;
      now.limitedBatches += c.limitedBatches;
      if (c.lastEventTime && (!now.lastEventTime || c.lastEventTime > now.lastEventTime)) now.lastEventTime = c.lastEventTime;
    }
  }
}
