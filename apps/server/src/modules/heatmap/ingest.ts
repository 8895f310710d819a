import {
  formatMessage,
  heatmapMessages,
  trackBatchEnvelopeSchema,
  trackEventSchema,
  trackMessages,
  type TrackBatchResult,
  type TrackEvent,
} from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { AppError, badRequest, forbidden, tooManyRequests } from '../../platform/http/errors.ts';
import { builtinWarehouseAppender } from '../datasource/index.ts';
import { SiteGuard } from './site-guard.ts';
import { addSiteCounts } from './sites.ts';
import { findSiteByKey, insertTrackRows, type TrackRow } from './track-repo.ts';
import { CopySink } from './track-copy.ts';
import { TrackWriter } from './track-writer.ts';
import { appendClicks, moveStoredClicks } from './warehouse-clicks.ts';

/**
 * Ingestion of the tracker's batches (docs/heatmap.md "Tracker and ingestion"): a batch is
 * checked whole — not JSON, a wrong shape, one bad event or an unknown write key refuses it all
 * with a message saying what, and nothing of it is stored — then the site must be enabled and
 * within its rate limit, its events join the writer's buffer and the batch is acknowledged. The
 * writer (one per app) appends them in bulk to the warehouse (warehouse-clicks.ts); each site's
 * counters (accepted, invalid, limited) are added to track_site every few seconds.
 */

/** Below this width a page is taken as a phone's (H5), as the demo data's widths are. */
const H5_MAX_WIDTH = 767;
/** A site changed on another serving process is seen here within this long. */
const SITE_CACHE_MS = 5000;
const COUNTS_EVERY_MS = 5000;
/** How often the warehouse's owner moves clicks other processes left in the store. */
const MOVE_EVERY_MS = 5000;

interface SiteInfo {
  id: number;
  project: string;
  enabled: boolean;
  rateLimit: number;
}

interface IngestState {
  copy: CopySink | null;
  writer: TrackWriter<TrackRow>;
  guard: SiteGuard;
  sites: Map<string, { site: SiteInfo | null; at: number }>;
  /** Counted up by forgetSites: a lookup that read the store before a change does not cache what it read. */
  sitesGeneration: number;
  countsTimer: NodeJS.Timeout | null;
  moveTimer: NodeJS.Timeout | null;
}

const states = new WeakMap<AppContext, IngestState>();

function stateOf(ctx: AppContext): IngestState {
  let state = states.get(ctx);
  if (!state) {
    // Not the warehouse's owner: the store's track_event (PostgreSQL: COPY on a connection of its own).
    const copy = ctx.store.kind === 'postgres' && ctx.store.connectionString ? new CopySink(ctx.store.connectionString) : null;
    const write = async (rows: TrackRow[]) => {
      const appender = await builtinWarehouseAppender(ctx);
      if (appender) return appendClicks(ctx, appender, rows);
      return copy ? copy.write(rows) : insertTrackRows(ctx.db, rows);
    };
    state = {
      copy,
      writer: new TrackWriter<TrackRow>(write, { maxRows: 5000, maxDelayMs: 1000 }),
      guard: new SiteGuard(ctx.db),
      sites: new Map(),
      sitesGeneration: 0,
      countsTimer: null,
      moveTimer: null,
    };
    states.set(ctx, state);
  }
  return state;
}

export function trackWriterOf(ctx: AppContext): TrackWriter<TrackRow> {
  return stateOf(ctx).writer;
}

/** Every acknowledged click into the warehouse before a heat-map read: the buffer, and what other processes left in the store. */
export async function flushTrackedClicks(ctx: AppContext): Promise<void> {
  await stateOf(ctx).writer.flush();
  await moveStoredClicks(ctx);
}

/** Adds the counters gathered so far to track_site (a failed write keeps them for the next time). */
export async function flushSiteCounts(ctx: AppContext): Promise<void> {
  const { guard } = stateOf(ctx);
  const counts = guard.drain();
  if (counts.size === 0) return;
  try {
    await addSiteCounts(ctx.db, counts);
  } catch (error) {
    guard.restore(counts);
    throw error;
  }
}

/** Forgets the cached sites: after an administrator changed one here. */
export function forgetSites(ctx: AppContext): void {
  const state = stateOf(ctx);
  state.sitesGeneration += 1;
  state.sites.clear();
}

/** Starts the counters' timer; the returned close writes every acknowledged event and the counters. */
export function startIngestion(ctx: AppContext): () => Promise<void> {
  const state = stateOf(ctx);
  state.countsTimer ??= setInterval(() => void flushSiteCounts(ctx).catch(() => undefined), COUNTS_EVERY_MS);
  state.countsTimer.unref();
  state.moveTimer ??= setInterval(() => void moveStoredClicks(ctx).catch(() => undefined), MOVE_EVERY_MS);
  state.moveTimer.unref();
  return async () => {
    if (state.countsTimer) clearInterval(state.countsTimer);
    if (state.moveTimer) clearInterval(state.moveTimer);
    state.countsTimer = null;
    state.moveTimer = null;
    await state.writer.close();
    await state.copy?.close();
    await flushSiteCounts(ctx).catch(() => undefined);
    await state.guard.flushWindow().catch(() => undefined);
  };
}

function readJson(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    throw badRequest(heatmapMessages.batchNotJson);
  }
}

/** The batch's frame (write key, a list of 1…1000 events): anything else refuses it whole. */
function checkEnvelope(value: unknown): { writeKey: string; events: unknown[] } {
  const parsed = trackBatchEnvelopeSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw badRequest(formatMessage(heatmapMessages.batchInvalid, { detail: issue.path.length ? issue.path.join('.') : issue.message }));
}

/** The valid events of a batch, how many were dropped and what was wrong with the first dropped one. */
export function checkEvents(events: readonly unknown[]): { valid: TrackEvent[]; dropped: number; error: string | null } {
  const valid: TrackEvent[] = [];
  let error: string | null = null;
  events.forEach((event, index) => {
    const parsed = trackEventSchema.safeParse(event);
    if (parsed.success) valid.push(parsed.data);
    else if (error === null) {
      const field = parsed.error.issues[0]!.path[0];
      error = formatMessage(heatmapMessages.batchEventInvalid, { index: index + 1, field: field === undefined ? 'event' : String(field) });
    }
  });
  return { valid, dropped: events.length - valid.length, error };
}

async function siteOf(ctx: AppContext, writeKey: string, now: number): Promise<SiteInfo | null> {
  const state = stateOf(ctx);
  const { sites } = state;
  const cached = sites.get(writeKey);
  if (cached && now - cached.at < SITE_CACHE_MS) return cached.site;
  const generation = state.sitesGeneration;
  const row = await findSiteByKey(ctx.db, writeKey);
  const site = row ? { id: row.id, project: row.project, enabled: row.enabled, rateLimit: row.rateLimit } : null;
  // A site changed while this read ran (a batch racing 停用): what was read is not kept, or the
  // change would wait for the cache's expiry (seen in CI: a batch accepted after 停用 had answered).
  if (state.sitesGeneration !== generation) return site;
  // Unknown keys are remembered too (bounded): a site sending a wrong key must not cost a query per batch.
  if (sites.size > 1000) sites.clear();
  sites.set(writeKey, { site, at: now });
  return site;
}

/**
 * Checks a batch and buffers its valid events. A batch that is not JSON, has no frame, names an
 * unknown or disabled site, has no valid event or exceeds the site's rate limit is refused whole;
 * otherwise its invalid events are dropped (counted against the site, the first one's problem in
 * the answer) and the valid ones stored — a bad click never costs the good ones beside it.
 */
export async function ingestBatch(ctx: AppContext, body: unknown, now: Date = new Date()): Promise<TrackBatchResult> {
  const { guard, writer } = stateOf(ctx);
  const value = readJson(body);
  let batch: { writeKey: string; events: unknown[] };
  try {
    batch = checkEnvelope(value);
  } catch (error) {
    // A refused batch that names a known site counts against that site (its events too).
    const raw = value as { writeKey?: unknown; events?: unknown } | null;
    if (raw && typeof raw === 'object' && typeof raw.writeKey === 'string' && raw.writeKey.length <= 64) {
      const site = await siteOf(ctx, raw.writeKey, now.getTime());
      if (site) guard.invalid(site.id, Array.isArray(raw.events) ? raw.events.length : 0);
    }
    throw error;
  }
  const site = await siteOf(ctx, batch.writeKey, now.getTime());
  if (!site) throw forbidden(heatmapMessages.writeKeyUnknown);
  if (!site.enabled) throw forbidden(trackMessages.siteDisabled);
  const { valid, dropped, error } = checkEvents(batch.events);
  if (valid.length === 0) {
    guard.invalid(site.id, dropped);
    throw badRequest(error!);
  }
  if (!(await guard.take(site.id, site.rateLimit, valid.length))) {
    guard.limited(site.id);
    throw tooManyRequests(formatMessage(trackMessages.rateLimited, { limit: site.rateLimit }));
  }
  const rows: TrackRow[] = valid.map((e) => ({
    siteId: site.id,
    event: e.event,
    eventTime: now,
    distinctId: e.distinctId,
    phone: e.phone ?? null,
    pageTitle: e.title,
    url: e.url,
    platformType: e.pageWidth <= H5_MAX_WIDTH ? 'H5' : 'PC',
    project: site.project,
    x: e.x,
    y: e.y,
    pageWidth: e.pageWidth,
  }));
  if (!writer.add(rows)) throw new AppError(503, heatmapMessages.stopping);
  guard.accepted(site.id, rows.length, now);
  if (dropped > 0) guard.dropped(site.id, dropped);
  return { accepted: rows.length, dropped, error };
}
