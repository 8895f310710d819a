import type { SiteCounts } from './sites.ts';

/**
 * Per-site limits and counters of the ingestion (docs/heatmap.md "Sites and write keys").
 *
 * Rate limit: a token bucket per write key in this process, refilled at the site's events per
 * second and holding two seconds' worth, so a page's burst of batches passes and a runaway
 * script is refused with 429 at once. Counters: what each site's batches did (accepted events,
 * refused invalid batches and their events, rate-limited batches) gathered in memory and added to
 * track_site in one statement per site by `drain` (every few seconds and on close), so a flood of
 * bad batches costs no write each.
 */

const BURST_SECONDS = 2;

interface Bucket {
  tokens: number;
  at: number;
  rate: number;
}

export class SiteGuard {
  private readonly buckets = new Map<number, Bucket>();
  private counts = new Map<number, SiteCounts>();

  constructor(private readonly clock: () => number = () => Date.now()) {}

  /** Takes `events` from the site's bucket; false (nothing taken) when there are not that many. */
  take(siteId: number, rate: number, events: number): boolean {
    const now = this.clock();
    let bucket = this.buckets.get(siteId);
    if (!bucket || bucket.rate !== rate) {
      bucket = { tokens: rate * BURST_SECONDS, at: now, rate };
      this.buckets.set(siteId, bucket);
    }
    bucket.tokens = Math.min(rate * BURST_SECONDS, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    if (bucket.tokens < events) return false;
    bucket.tokens -= events;
    return true;
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
