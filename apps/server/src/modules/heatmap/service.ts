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
import { findBuiltinRow, tableCheckerFor } from '../datasource/index.ts';
import type { Caller } from '../perm/index.ts';
import { readBoundSql, type BoundStatement } from '../read/index.ts';
import { normalisePoint, topAreas } from './areas.ts';
import { viewUrlOf } from './demo-site.ts';
import { flushTrackedClicks } from './ingest.ts';
import { TRACK_TABLE } from './warehouse-clicks.ts';

/**
 * The heat map's reads (docs/heatmap.md): the built-in warehouse's web_pages, users,
 * click_events and the tracker's track_click_events, always through the read module as the
 * caller (readBoundSql: the SQL guard and, for a non-administrator, a grant of every table
 * read). Tracked clicks are read where the caller may read their table (administrators; members
 * granted it), in the same statement as the demo's. Every value is bound; identifiers are the
 * dialect's quoted names.
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

/** Whether the caller may read the tracked clicks (a grant of their table, like any warehouse table); they are written first. */
async function readsTracked(ctx: AppContext, caller: Caller): Promise<boolean> {
  const checker = await tableCheckerFor(ctx, caller, await warehouseId(ctx));
  if (!checker.all && !(await checker.allows({ schema: null, name: TRACK_TABLE, quoted: false }))) return false;
  // Clicks acknowledged but still buffered (or left in the store by another process) first: an analyst sees every click the site sent.
  await flushTrackedClicks(ctx);
  return true;
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
  if (!(await readsTracked(ctx, caller))) return titles;
  // Pages of tracked sites that are not in web_pages follow, with their last url.
  const tracked = await read(
    ctx,
    caller,
    (d) =>
      statement(
        d,
        `SELECT page_title, MAX(url) AS url, MAX(platform_type) AS platform_type FROM ${d.quoteIdentifier(TRACK_TABLE)} GROUP BY page_title ORDER BY page_title ${d.limitOffset(1000, null)}`,
        [],
      ),
    1000,
  );
  const known = new Set(titles.map((t) => t.title));
  for (const t of tracked.rows) {
    if (known.has(text(t.page_title))) continue;
    titles.push({
      title: text(t.page_title),
      url: text(t.url),
      platformType: t.platform_type == null ? null : text(t.platform_type),
      pageHeight: null,
      viewUrl: viewUrlOf(text(t.url)),
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
  const tables = (await readsTracked(ctx, caller)) ? ['click_events', TRACK_TABLE] : ['click_events'];
  const clicked = await read(
    ctx,
    caller,
    (d) => {
      const branches = tables.map((t) => `SELECT distinct_id, event_time FROM ${d.quoteIdentifier(t)} WHERE phone = ?`);
      return statement(
        d,
        `SELECT distinct_id FROM (${branches.join(' UNION ALL ')}) AS clicks ORDER BY event_time DESC ${d.limitOffset(1, null)}`,
        tables.map(() => phone),
      );
    },
    1,
  );
  if (clicked.rows[0]?.distinct_id) return { tel: phone, shenceId: text(clicked.rows[0].distinct_id) };
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

/**
 * The clicks of the demo data and, where the caller may read them, the tracked ones: one
 * statement, so the limit and the order hold across both.
 */
function clicksOf(d: Dialect, q: HeatmapQueryParsed, tables: readonly string[], columns: string, onPage: boolean): BoundStatement {
  const values: ParamValue[] = [];
  const branches = tables.map((table) => {
    const c = conditions(d, q);
    values.push(...c.values);
    if (onPage) values.push(q.title);
    return `SELECT ${columns} FROM ${d.quoteIdentifier(table)} WHERE ${c.where}${onPage ? ' AND page_title = ?' : ''}`;
  });
  return statement(d, branches.join(' UNION ALL '), values);
}

/** The user event list of one page with counts per page and the busiest areas. */
export async function heatmapEvents(ctx: AppContext, caller: Caller, q: HeatmapQueryParsed): Promise<HeatmapResult> {
  // Both tables in one statement: a member with neither grant is refused naming click_events, the first read.
  const tables = (await readsTracked(ctx, caller)) ? ['click_events', TRACK_TABLE] : ['click_events'];
  const points = await read(
    ctx,
    caller,
    (d) => {
      const inner = clicksOf(d, q, tables, 'attr1, attr2, attr3, event_time', true);
      return { sql: `SELECT attr1, attr2, attr3 FROM (${inner.sql}) AS clicks ORDER BY event_time ${d.limitOffset(q.limit + 1, null)}`, params: inner.params };
    },
    q.limit,
  );
  const perPage = await read(
    ctx,
    caller,
    (d) => {
      const inner = clicksOf(d, q, tables, 'page_title, url', false);
      return {
        sql: `SELECT page_title, url, COUNT(*) AS n FROM (${inner.sql}) AS clicks GROUP BY page_title, url ORDER BY n DESC, page_title`,
        params: inner.params,
      };
    },
    1000,
  );
  const list: HeatmapPoint[] = [];
  for (const r of points.rows) {
    const p = normalisePoint(Number(r.attr1), Number(r.attr2), Number(r.attr3));
    if (p) list.push(p);
  }
  const pages = perPage.rows.map((r) => ({ title: text(r.page_title), url: text(r.url), count: Number(r.n) }));
  return { points: list, total: list.length, truncated: points.truncated, pages, topAreas: topAreas(list) };
}
