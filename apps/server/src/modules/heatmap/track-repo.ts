import type { Insertable, Kysely } from 'kysely';
import type { Database, TrackEventTable } from '../../platform/db/schema.ts';

type Db = Kysely<Database>;

/**
 * The tracked clicks in the product's store (docs/heatmap.md): written in bulk by the ingestion
 * writer, read by the heat map with the same conditions as the warehouse's click_events.
 */

export type TrackRow = Insertable<TrackEventTable>;

/** Rows per INSERT: 12 values each stays far below PostgreSQL's 65 535 parameters. */
const CHUNK = 2000;

export async function insertTrackRows(db: Db, rows: readonly TrackRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += CHUNK)
      await trx
        .insertInto('trackEvent')
        .values(rows.slice(i, i + CHUNK))
        .execute();
  });
}

export function findSiteByKey(db: Db, writeKey: string) {
  return db.selectFrom('trackSite').select(['id', 'project']).where('writeKey', '=', writeKey).executeTakeFirst();
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
