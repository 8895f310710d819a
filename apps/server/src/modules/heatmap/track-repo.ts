import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, TrackEventTable } from '../../platform/db/schema.ts';

type Db = Kysely<Database>;

/**
 * The tracked clicks in the product's store (docs/heatmap.md): written in bulk by the ingestion
 * writer, read by the heat map with the same conditions as the warehouse's click_events.
 */

export type TrackRow = Insertable<TrackEventTable>;

/**
 * One INSERT … SELECT FROM unnest(…) of twelve column arrays: twelve bound values whatever the
 * number of rows (a VALUES list binds twelve per row and must be split to stay under 65 535).
 * Whether it is faster on PGlite is not settled (bench/README.md "bench/track").
 */
export async function insertTrackRows(db: Db, rows: readonly TrackRow[]): Promise<void> {
  if (rows.length === 0) return;
  const column = <T>(pick: (r: TrackRow) => T): T[] => rows.map(pick);
  await sql`insert into track_event (site_id, event, event_time, distinct_id, phone, page_title, url, platform_type, project, x, y, page_width)
    select * from unnest(
      ${column((r) => r.siteId)}::integer[], ${column((r) => r.event)}::varchar[],
      ${column((r) => new Date(r.eventTime).toISOString())}::timestamptz[], ${column((r) => r.distinctId)}::varchar[],
      ${column((r) => r.phone ?? null)}::varchar[], ${column((r) => r.pageTitle)}::varchar[], ${column((r) => r.url)}::varchar[],
      ${column((r) => r.platformType)}::varchar[], ${column((r) => r.project)}::varchar[],
      ${column((r) => r.x)}::integer[], ${column((r) => r.y)}::integer[], ${column((r) => r.pageWidth)}::integer[])`.execute(db);
}

export function findSiteByKey(db: Db, writeKey: string) {
  return db.selectFrom('trackSite').select(['id', 'project', 'enabled', 'rateLimit']).where('writeKey', '=', writeKey).executeTakeFirst();
}

export interface TrackFilter {
  event: string;
  from: Date;
  to: Date;
  distinctId: string | null;
  platformType: string | null;
  project: string | null;
}

function filtered(db: Db, f: TrackFilter) {
  let q = db.selectFrom('trackEvent').where('event', '=', f.event).where('eventTime', '>=', f.from).where('eventTime', '<', f.to);
  if (f.distinctId) q = q.where('distinctId', '=', f.distinctId);
  if (f.platformType) q = q.where('platformType', '=', f.platformType);
  if (f.project) q = q.where('project', '=', f.project);
  return q;
}

export function trackedPoints(db: Db, f: TrackFilter, title: string, max: number) {
  return filtered(db, f).select(['x', 'y', 'pageWidth']).where('pageTitle', '=', title).orderBy('eventTime').orderBy('id').limit(max).execute();
}

export async function trackedPageCounts(db: Db, f: TrackFilter): Promise<{ title: string; url: string; count: number }[]> {
  const rows = await filtered(db, f)
    .select(['pageTitle', 'url', (eb) => eb.fn.countAll<string>().as('n')])
    .groupBy(['pageTitle', 'url'])
    .execute();
  return rows.map((r) => ({ title: r.pageTitle, url: r.url, count: Number(r.n) }));
}

export async function trackedDistinctId(db: Db, phone: string): Promise<string | undefined> {
  const row = await db.selectFrom('trackEvent').select('distinctId').where('phone', '=', phone).orderBy('eventTime', 'desc').limit(1).executeTakeFirst();
  return row?.distinctId;
}

export function trackedTitles(db: Db) {
  return db
    .selectFrom('trackEvent')
    .select(['pageTitle', (eb) => eb.fn.max('url').as('url'), (eb) => eb.fn.max('platformType').as('platformType')])
    .groupBy('pageTitle')
    .orderBy('pageTitle')
    .limit(1000)
    .execute();
}
