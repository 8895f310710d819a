import { sql } from 'kysely';
import type { LoadColumn, LoadRow } from '@shutu/connectors';
import { zoneOffsetMinutes } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { builtinWarehouseAppender, type WarehouseAppender } from '../datasource/index.ts';
import { serverTimeZone } from '../system/index.ts';
import type { TrackRow } from './track-repo.ts';

/**
 * Tracked clicks in the warehouse (docs/heatmap.md "Tracked clicks in the warehouse"): the
 * ingestion writer appends them to `track_click_events` of the built-in warehouse — the columns
 * of the demo's click_events (attr1/attr2/attr3 are x, y and the page width) plus the site —
 * through the datasource module's appender (DuckDB: columnar chunks through its Appender). The
 * table is the tracker's own: the demo generator, which rebuilds its tables when its version,
 * seed or scale change, never touches it. Times are written on the installation's wall clock
 * (系统设置 → 时区), as the demo's clicks are, so one statement reads both with the same days.
 *
 * A process that does not own the warehouse file (several serving processes on one PostgreSQL)
 * cannot write it: its writer puts the rows in the store's track_event (COPY), and the owner
 * moves them into the warehouse (`moveStoredClicks`) every few seconds and before a heat-map
 * read. Rows stored there before this table existed are moved the same way on the first start.
 */

export const TRACK_TABLE = 'track_click_events';

export const TRACK_COLUMNS: readonly LoadColumn[] = [
  { name: 'site_id', type: 'INTEGER', comment: '埋点网站编号' },
  { name: 'event', type: 'STRING', comment: '事件名' },
  { name: 'event_time', type: 'DATETIME', comment: '事件时间（接收时间，系统时区）' },
  { name: 'distinct_id', type: 'STRING', comment: '用户标识（distinct id）' },
  { name: 'phone', type: 'STRING', comment: '用户手机号' },
  { name: 'page_title', type: 'STRING', comment: '页面标题' },
  { name: 'url', type: 'STRING', comment: '页面地址' },
  { name: 'platform_type', type: 'STRING', comment: '平台类型（PC/H5）' },
  { name: 'project', type: 'STRING', comment: '埋点项目' },
  { name: 'attr1', type: 'INTEGER', comment: '点击横坐标x（像素）' },
  { name: 'attr2', type: 'INTEGER', comment: '点击纵坐标y（像素）' },
  { name: 'attr3', type: 'INTEGER', comment: '页面宽度（像素）' },
];

const HOUR_MS = 3_600_000;

/**
 * Each instant as a Date whose UTC reading is the wall clock of `zone` (what the appender writes
 * into a TIMESTAMP). The zone's offset is worked out once per hour the rows span.
 */
function wallClocks(zone: string, times: readonly Date[]): Date[] {
  const offsets = new Map<number, number>();
  // The events of one batch share their receive time: one Date each (the appender converts each distinct one once).
  const seen = new Map<number, Date>();
  return times.map((t) => {
    const ms = t.getTime();
    let wall = seen.get(ms);
    if (wall) return wall;
    const hour = Math.floor(ms / HOUR_MS);
    let offset = offsets.get(hour);
    if (offset === undefined) offsets.set(hour, (offset = zoneOffsetMinutes(zone, t)));
    seen.set(ms, (wall = new Date(ms + offset * 60_000)));
    return wall;
  });
}

/** The installation's wall-clock reading of one instant (retention cut-offs). */
export async function wallClock(ctx: AppContext, instant: Date): Promise<Date> {
  return wallClocks(await serverTimeZone(ctx), [instant])[0]!;
}

function warehouseRows(zone: string, rows: readonly TrackRow[]): LoadRow[] {
  const times = wallClocks(
    zone,
    rows.map((r) => new Date(r.eventTime)),
  );
  return rows.map((r, i) => [
    r.siteId,
    r.event,
    times[i]!,
    r.distinctId,
    r.phone ?? null,
    r.pageTitle,
    r.url,
    r.platformType,
    r.project,
    r.x,
    r.y,
    r.pageWidth,
  ]);
}

/** Appends rows to the warehouse's table (all or none), their times on the installation's wall clock. */
export async function appendClicks(ctx: AppContext, appender: WarehouseAppender, rows: readonly TrackRow[], zone?: string): Promise<void> {
  await appender.appendRows(TRACK_TABLE, TRACK_COLUMNS, warehouseRows(zone ?? (await serverTimeZone(ctx)), rows));
}

/** Creates the table when it is missing (the heat map reads it before any click arrived); false when this process cannot write it. */
export async function ensureClickTable(ctx: AppContext): Promise<boolean> {
  const appender = await builtinWarehouseAppender(ctx);
  if (!appender) return false;
  await appender.appendRows(TRACK_TABLE, TRACK_COLUMNS, []);
  return true;
}

/** Most rows moved from the store per transaction. */
const MOVE_ROWS = 50_000;

/**
 * Moves the clicks waiting in the store's track_event into the warehouse (the owner of the
 * warehouse only): each slice is deleted in a store transaction that commits only after the
 * warehouse stored it, so a failure leaves it in the store. A crash between the two commits
 * would store a slice twice (never lose it). Returns how many moved.
 */
export async function moveStoredClicks(ctx: AppContext): Promise<number> {
  const appender = await builtinWarehouseAppender(ctx);
  if (!appender) return 0;
  // Asked before the transaction: on the embedded store a read inside it would wait for its own connection.
  const zone = await serverTimeZone(ctx);
  let moved = 0;
  for (;;) {
    const n = await ctx.db.transaction().execute(async (trx) => {
      const taken = await sql<TrackRow & { id: string }>`delete from track_event where id in (
          select id from track_event order by id limit ${MOVE_ROWS} for update skip locked)
        returning site_id as "siteId", event, event_time as "eventTime", distinct_id as "distinctId", phone, page_title as "pageTitle",
          url, platform_type as "platformType", project, x, y, page_width as "pageWidth"`.execute(trx);
      if (taken.rows.length > 0) await appendClicks(ctx, appender, taken.rows, zone);
      return taken.rows.length;
    });
    moved += n;
    if (n < MOVE_ROWS) return moved;
  }
}

/** Retention in the warehouse: each site's clicks older than its days (on the wall clock they were written with). */
export async function purgeWarehouseClicks(ctx: AppContext, sites: readonly { id: number; retentionDays: number }[], now = new Date()): Promise<number> {
  const appender = await builtinWarehouseAppender(ctx);
  if (!appender) return 0;
  let removed = 0;
  for (const site of sites) {
    const cutoff = await wallClock(ctx, new Date(now.getTime() - site.retentionDays * 86_400_000));
    const { rows } = await appender.deleteRows(TRACK_TABLE, [
      { column: 'site_id', op: '=', value: site.id },
      { column: 'event_time', op: '<', value: cutoff },
    ]);
    removed += rows;
  }
  return removed;
}

/** A deleted site's clicks leave the warehouse with it. */
export async function deleteSiteClicks(ctx: AppContext, siteId: number): Promise<void> {
  const appender = await builtinWarehouseAppender(ctx);
  await appender?.deleteRows(TRACK_TABLE, [{ column: 'site_id', op: '=', value: siteId }]);
}
