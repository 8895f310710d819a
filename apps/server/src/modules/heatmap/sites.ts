import crypto from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import { formatMessage, trackMessages, trackSiteCreateSchema, trackSiteUpdateSchema, type TrackSite } from '@shutu/contracts';
import type { z } from 'zod';
import type { Database, TrackSiteTable } from '../../platform/db/schema.ts';
import { conflict, isUniqueViolation, notFound } from '../../platform/http/errors.ts';

type Db = Kysely<Database>;

/**
 * Tracked websites and their write keys (docs/heatmap.md "Sites and write keys"): administrators
 * add, rename, disable and delete them; the server makes the key (24 random bytes, base64url), so
 * a key cannot be guessed from a site's name. Deleting a site deletes its clicks (the foreign key
 * cascades). Names are unique among sites.
 */

export function newWriteKey(): string {
  return crypto.randomBytes(24).toString('base64url');
}

function toSite(row: Selectable<TrackSiteTable>): TrackSite {
  return {
    id: row.id,
    siteName: row.siteName,
    writeKey: row.writeKey,
    project: row.project,
    enabled: row.enabled,
    rateLimit: row.rateLimit,
    retentionDays: row.retentionDays,
    acceptedEvents: Number(row.acceptedEvents),
    invalidBatches: Number(row.invalidBatches),
    invalidEvents: Number(row.invalidEvents),
    limitedBatches: Number(row.limitedBatches),
    lastEventTime: row.lastEventTime ? new Date(row.lastEventTime).toISOString() : null,
    createTime: new Date(row.createTime).toISOString(),
  };
}

export async function listSites(db: Db): Promise<TrackSite[]> {
  const rows = await db.selectFrom('trackSite').selectAll().orderBy('id').execute();
  return rows.map(toSite);
}

async function nameTaken(db: Db, name: string, exceptId: number | null): Promise<boolean> {
  let q = db.selectFrom('trackSite').select('id').where('siteName', '=', name);
  if (exceptId !== null) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function createSite(db: Db, input: z.output<typeof trackSiteCreateSchema>): Promise<TrackSite> {
  if (await nameTaken(db, input.siteName, null)) throw conflict(formatMessage(trackMessages.siteNameTaken, { name: input.siteName }));
  try {
    const row = await db
      .insertInto('trackSite')
      .values({ writeKey: newWriteKey(), siteName: input.siteName, project: input.project, rateLimit: input.rateLimit, retentionDays: input.retentionDays })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toSite(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(formatMessage(trackMessages.siteNameTaken, { name: input.siteName }));
    throw error;
  }
}

export async function updateSite(db: Db, id: number, input: z.output<typeof trackSiteUpdateSchema>): Promise<TrackSite> {
  if (input.siteName !== undefined && (await nameTaken(db, input.siteName, id))) {
    throw conflict(formatMessage(trackMessages.siteNameTaken, { name: input.siteName }));
  }
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const row =
    Object.keys(changes).length === 0
      ? await db.selectFrom('trackSite').selectAll().where('id', '=', id).executeTakeFirst()
      : await db.updateTable('trackSite').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
  if (!row) throw notFound(trackMessages.siteNotFound);
  return toSite(row);
}

export async function deleteSite(db: Db, id: number): Promise<void> {
  const result = await db.deleteFrom('trackSite').where('id', '=', id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound(trackMessages.siteNotFound);
}

/** What a site's batches added to its counters since the last write of them. */
export interface SiteCounts {
  accepted: number;
  invalidBatches: number;
  invalidEvents: number;
  limitedBatches: number;
  lastEventTime: Date | null;
}

export async function addSiteCounts(db: Db, counts: ReadonlyMap<number, SiteCounts>): Promise<void> {
  for (const [id, c] of counts) {
    await db
      .updateTable('trackSite')
      .set({
        acceptedEvents: sql`accepted_events + ${c.accepted}`,
        invalidBatches: sql`invalid_batches + ${c.invalidBatches}`,
        invalidEvents: sql`invalid_events + ${c.invalidEvents}`,
        limitedBatches: sql`limited_batches + ${c.limitedBatches}`,
        ...(c.lastEventTime ? { lastEventTime: sql`greatest(last_event_time, ${c.lastEventTime.toISOString()}::timestamptz)` } : {}),
      })
      .where('id', '=', id)
      .execute();
  }
}

/**
 * Retention: deletes each site's clicks older than its retention days; returns how many went.
 * Runs at start and hourly (routes.ts); idempotent, so two serving processes doing it is harmless.
 */
export async function purgeExpiredClicks(db: Db, now: Date = new Date()): Promise<number> {
  const result = await sql`delete from track_event e using track_site s
    where e.site_id = s.id and e.event_time < ${now.toISOString()}::timestamptz - make_interval(days => s.retention_days)`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
