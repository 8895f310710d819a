import {
  formatMessage,
  heatmapMessages,
  type HeatmapPhone,
  type HeatmapQueryParsed,
  type HeatmapResult,
  type HeatmapTitle,
  type HeatmapPoint,
} from '@shutu/contracts';
import type { ParamValue, Row } from '@shutu/connectors';
import type { Dialect } from '@shutu/query';
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import { findBuiltinRow } from '../datasource/index.ts';
import type { Caller } from '../perm/index.ts';
import { readBoundSql, type BoundStatement } from '../read/index.ts';
import { normalisePoint, topAreas } from './areas.ts';
import { viewUrlOf } from './demo-site.ts';
import { trackedDistinctId, trackedPageCounts, trackedPoints, trackedTitles } from './track-repo.ts';
import { mergePageCounts, trackFilter } from './tracked.ts';
import { trackWriterOf } from './ingest.ts';

/**
 * The heat map's reads (docs/heatmap.md): the built-in warehouse's web_pages, users and
 * click_events, always through the read module as the caller (readBoundSql: the SQL guard and,
 * for a non-administrator, a grant of every table read). Every value is bound; identifiers are
 * the dialect's quoted names.
 */

const HEATMAP_TIMEOUT_MS = 30_000;

async function warehouseId(ctx: AppContext): Promise<number> {
  const row = await findBuiltinRow(ctx.db);
  if (!row) throw new AppError(503, heatmapMessages.warehouseMissing);
  return row.id;
}

/** A statement built from parts: `?` in each part becomes the dialect's next placeholder. */
function statement(dialect: Dialect, sql: string, values: ParamValue[]): BoundStatement {
  let n = 0;
  const text = sql.replace(/\?/g, () => dialect.placeholder(++n));
  return { sql: text, params: values };
}

async function read(ctx: AppContext, caller: Caller, build: (dialect: Dialect) => BoundStatement, max: number): Promise<{ rows: Row[]; truncated: boolean }> {
  const result = await readBoundSql(ctx, caller, await warehouseId(ctx), build, { max, timeoutMs: HEATMAP_TIMEOUT_MS, field: 'heatmap' });
  return { rows: result.rows, truncated: result.truncated };
}

const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/** Website titles, each with its url (spec 1 §3 "Heat event"), in page order. */
export async function heatmapTitles(ctx: AppContext, caller: Caller): Promise<HeatmapTitle[]> {
  const { rows } = await read(
    ctx,
    caller,
    (d) => statement(d, `SELECT page_title, url, platform_type, page_height FROM ${d.quoteIdentifier('web_pages')} ORDER BY page_id`, []),
    1000,
  );
  const titles: HeatmapTitle[] = rows.map((r) => ({
    title: text(r.page_title),
    url: text(r.url),
    platformType: r.platform_type == null ? null : text(r.platform_type),
    pageHeight: r.page_height == null ? null : Number(r.page_height),
    viewUrl: viewUrlOf(text(r.url)),
  }));
  // Pages of tracked sites that are not in web_pages follow, with their last url (buffered clicks written first).
  await trackWriterOf(ctx).flush();
  const known = new Set(titles.map((t) => t.title));
  for (const t of await trackedTitles(ctx.db)) {
    if (known.has(t.pageTitle)) continue;
    titles.push({
      title: t.pageTitle,
      url: String(t.url),
      platformType: t.platformType == null ? null : String(t.platformType),
      pageHeight: null,
      viewUrl: viewUrlOf(String(t.url)),
    });
  }
  return titles;
}

/** A phone to its shence_id (the distinct id of its events); an unknown phone is a 404 naming it. */
export async function lookupPhone(ctx: AppContext, caller: Caller, phone: string): Promise<HeatmapPhone> {
  const { rows } = await read(
    ctx,
    caller,
    (d) => statement(d, `SELECT phone, shence_id FROM ${d.quoteIdentifier('users')} WHERE phone = ? ${d.limitOffset(1, null)}`, [phone]),
    1,
  );
  if (rows[0]?.shence_id) return { tel: phone, shenceId: text(rows[0].shence_id) };
  // A visitor the tracker identified (not a user of the demo data): the distinct id of their latest click.
  const tracked = await read(
    ctx,
    caller,
    (d) =>
      statement(d, `SELECT distinct_id FROM ${d.quoteIdentifier('click_events')} WHERE phone = ? ORDER BY event_time DESC ${d.limitOffset(1, null)}`, [phone]),
    1,
  );
  if (tracked.rows[0]?.distinct_id) return { tel: phone, shenceId: text(tracked.rows[0].distinct_id) };
  const identified = await trackedDistinctId(ctx.db, phone);
  if (identified) return { tel: phone, shenceId: identified };
  throw notFound(formatMessage(heatmapMessages.phoneUnknown, { phone }));
}

/** The shared conditions: event, whole days from start to end (both included), user, platform, project. */
function conditions(d: Dialect, q: HeatmapQueryParsed): { where: string; values: ParamValue[] } {
  const parts = ['event = ?', `event_time >= ${d.timestamp('?')}`, `event_time < ${d.timestamp('?')}`];
  const values: ParamValue[] = [q.event, `${q.startTime} 00:00:00`, `${nextDay(q.endTime)} 00:00:00`];
  if (q.distinctId) {
    parts.push('distinct_id = ?');
    values.push(q.distinctId);
  }
  if (q.platformType) {
    parts.push('platform_type = ?');
    values.push(q.platformType);
  }
  if (q.proj) {
    parts.push('project = ?');
    values.push(q.proj);
  }
  return { where: parts.join(' AND '), values };
}

export function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/** The user event list of one page with counts per page and the busiest areas. */
export async function heatmapEvents(ctx: AppContext, caller: Caller, q: HeatmapQueryParsed): Promise<HeatmapResult> {
  const clicks = await read(
    ctx,
    caller,
    (d) => {
      const c = conditions(d, q);
      const sql = `SELECT attr1, attr2, attr3 FROM ${d.quoteIdentifier('click_events')} WHERE ${c.where} AND page_title = ? ORDER BY event_time ${d.limitOffset(q.limit + 1, null)}`;
      return statement(d, sql, [...c.values, q.title]);
    },
    q.limit,
  );
  const points: HeatmapPoint[] = [];
  for (const r of clicks.rows) {
    const p = normalisePoint(Number(r.attr1), Number(r.attr2), Number(r.attr3));
    if (p) points.push(p);
  }
  const perPage = await read(
    ctx,
    caller,
    (d) => {
      const c = conditions(d, q);
      const sql = `SELECT page_title, url, COUNT(*) AS n FROM ${d.quoteIdentifier('click_events')} WHERE ${c.where} GROUP BY page_title, url ORDER BY n DESC, page_title`;
      return statement(d, sql, c.values);
    },
    1000,
  );
  // Tracked clicks count as rows of click_events: read only once the warehouse read (and its grant check) passed.
  const filter = await trackFilter(ctx, q, nextDay(q.endTime));
  // Clicks acknowledged but still buffered are written first: an analyst sees every click the site sent.
  await trackWriterOf(ctx).flush();
  const room = q.limit + 1 - points.length;
  const tracked = room > 0 ? await trackedPoints(ctx.db, filter, q.title, room) : [];
  for (const r of tracked) {
    const p = normalisePoint(r.x, r.y, r.pageWidth);
    if (p) points.push(p);
  }
  const truncated = clicks.truncated || points.length > q.limit;
  if (points.length > q.limit) points.length = q.limit;
  const warehousePages = perPage.rows.map((r) => ({ title: text(r.page_title), url: text(r.url), count: Number(r.n) }));
  const pages = mergePageCounts(warehousePages, await trackedPageCounts(ctx.db, filter));
  return { points, total: points.length, truncated, pages, topAreas: topAreas(points) };
}
