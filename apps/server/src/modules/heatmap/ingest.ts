import { formatMessage, heatmapMessages, trackBatchSchema, type TrackBatch } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { AppError, badRequest, forbidden } from '../../platform/http/errors.ts';
import { findSiteByKey, insertTrackRows, type TrackRow } from './track-repo.ts';
import { TrackWriter } from './track-writer.ts';

/**
 * Ingestion of the tracker's batches (docs/heatmap.md "Tracker and ingestion"): a batch is
 * checked whole — not JSON, a wrong shape, one bad event or an unknown write key refuses it all
 * with a message saying what, and nothing of it is stored — then its events join the writer's
 * buffer and the batch is acknowledged. The writer (one per app) appends them in bulk.
 */

/** Below this width a page is taken as a phone's (H5), as the demo data's widths are. */
const H5_MAX_WIDTH = 767;

const writers = new WeakMap<AppContext, TrackWriter<TrackRow>>();
const sites = new WeakMap<AppContext, Map<string, { id: number; project: string } | null>>();

export function trackWriterOf(ctx: AppContext): TrackWriter<TrackRow> {
  let writer = writers.get(ctx);
  if (!writer) {
    writer = new TrackWriter<TrackRow>((rows) => insertTrackRows(ctx.db, rows), { maxRows: 5000, maxDelayMs: 1000 });
    writers.set(ctx, writer);
  }
  return writer;
}

/** The batch as sent (text/plain or JSON), checked; the first problem is the message. */
export function parseBatch(body: unknown): TrackBatch {
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      throw badRequest(heatmapMessages.batchNotJson);
    }
  }
  const parsed = trackBatchSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const [top, index, field] = issue.path;
  if (top === 'events' && typeof index === 'number' && field !== undefined) {
    throw badRequest(formatMessage(heatmapMessages.batchEventInvalid, { index: index + 1, field: String(field) }));
  }
  throw badRequest(formatMessage(heatmapMessages.batchInvalid, { detail: issue.path.length ? issue.path.join('.') : issue.message }));
}

async function siteOf(ctx: AppContext, writeKey: string) {
  let known = sites.get(ctx);
  if (!known) sites.set(ctx, (known = new Map()));
  if (!known.has(writeKey)) {
    const row = await findSiteByKey(ctx.db, writeKey);
    // Unknown keys are remembered too (bounded): a site sending a wrong key must not cost a query per batch.
    if (known.size > 1000) known.clear();
    known.set(writeKey, row ? { id: row.id, project: row.project } : null);
  }
  return known.get(writeKey)!;
}

/** Checks a batch and buffers its events; returns how many were accepted. */
export async function ingestBatch(ctx: AppContext, body: unknown, now: Date = new Date()): Promise<number> {
  const batch = parseBatch(body);
  const site = await siteOf(ctx, batch.writeKey);
  if (!site) throw forbidden(heatmapMessages.writeKeyUnknown);
  const rows: TrackRow[] = batch.events.map((e) => ({
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
  if (!trackWriterOf(ctx).add(rows)) throw new AppError(503, heatmapMessages.stopping);
  return rows.length;
}
