import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, TrackEventTable } from '../../platform/db/schema.ts';

type Db = Kysely<Database>;

/**
 * Tracked clicks waiting in the product's store (docs/heatmap.md "Tracked clicks in the
 * warehouse"): written there only by a serving process that does not own the warehouse, and
 * moved into the warehouse by the one that does (warehouse-clicks.ts).
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
