import { APP_USE_RANGES, type ProfileCompare, type ProfileDiff, type ProfileShare, type ProfileStats } from '@shutu/contracts';
import type { Row } from '@shutu/connectors';
import type { AppContext } from '../../context.ts';
import { audienceMemberSql, getAudienceDetail } from '../audience/index.ts';
import { assertTablesUsable } from '../datasource/index.ts';
import type { Caller } from '../perm/index.ts';
import { readBoundSql } from '../read/index.ts';

/**
 * User-profile comparison (spec 3 §2 "User-profile comparison page", §7; docs/tags.md): statistics
 * of each audience's members — size, province and city distribution, product and channel mix and
 * app-use level over the audience's analysis months, top tags held at the end of them — and the
 * overlap of two audiences. The members come from the audience module (which checks that the
 * caller may see the audience); the warehouse tables joined to them need the caller's grants.
 */

const TIMEOUT_MS = 60_000;
const PROFILE_TABLES = ['users', 'orders', 'user_month_usage', 'user_tags', 'tags'] as const;
const TOP = { areas: 20, products: 15, channels: 15, tags: 10 } as const;

type Bind = (v: string | number) => string;
interface Members {
  datasourceId: number;
  sql: string;
}

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const shares = (rows: Row[]): ProfileShare[] => rows.map((r) => ({ name: r.name === null || r.name === undefined ? '未知' : String(r.name), num: num(r.num) }));

async function read(ctx: AppContext, caller: Caller, datasourceId: number, build: (p: Bind) => string): Promise<Row[]> {
  // The member table has no grants of its own: it is reached only through its audience, whose
  // visibility audienceMemberSql checked, and the warehouse tables' grants were checked by
  // memberSets. The statement still passes the read module's guard and runs read-only.
  const reader: Caller = { userId: caller.userId, isAdministrator: true };
  const answer = await readBoundSql(
    ctx,
    reader,
    datasourceId,
    (dialect) => {
      const params: (string | number)[] = [];
      const sql = build((v) => {
        params.push(v);
        return dialect.placeholder(params.length);
      });
      return { sql, params };
    },
    { max: 1000, timeoutMs: TIMEOUT_MS, field: 'id' },
  );
  return answer.rows;
}

const after = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
};

/** The app-use level of each member over the months: the ranges of spec 3 §9, below 0.1G apart. */
function usageLabel(band: number): string {
  return APP_USE_RANGES[band as keyof typeof APP_USE_RANGES]?.label ?? '0.1G以下';
}

async function statsOf(ctx: AppContext, caller: Caller, id: number, members: Members, start: string, end: string) {
  const mem = `(${members.sql}\n) AS mem`;
  const q = (build: (p: Bind) => string) => read(ctx, caller, members.datasourceId, build);
  const [size] = await q(() => `SELECT COUNT(DISTINCT mem.phone) AS n FROM ${mem}`);
  const provinces = await q(
    () => `SELECT u.province AS name, COUNT(*) AS num FROM ${mem} JOIN users u ON u.phone = mem.phone GROUP BY u.province ORDER BY num DESC, name`,
  );
  const areas = await q(
    (p) =>
      `SELECT u.area AS name, COUNT(*) AS num FROM ${mem} JOIN users u ON u.phone = mem.phone GROUP BY u.area ORDER BY num DESC, name LIMIT ${p(TOP.areas)}`,
  );
  const ordered = (column: string, limit: number) =>
    q(
      (p) =>
        `SELECT o.${column} AS name, COUNT(DISTINCT o.phone) AS num FROM orders o JOIN ${mem} ON mem.phone = o.phone
         WHERE o.status = ${p('订购成功')} AND o.order_time >= CAST(${p(`${start}-01 00:00:00`)} AS TIMESTAMP) AND o.order_time < CAST(${p(`${after(end)}-01 00:00:00`)} AS TIMESTAMP)
         GROUP BY o.${column} ORDER BY num DESC, name LIMIT ${p(limit)}`,
    );
  const products = await ordered('shortname', TOP.products);
  const channels = await ordered('channel_name', TOP.channels);
  const bands = Object.entries(APP_USE_RANGES)
    .map(([band, r]) => `WHEN a >= ${r.low} THEN ${band}`)
    .reverse()
    .join(' ');
  const usage = await q(
    (p) =>
      `SELECT CASE ${bands} ELSE 0 END AS band, COUNT(*) AS num FROM (
         SELECT mu.phone, AVG(mu.flow_mb) AS a FROM user_month_usage mu JOIN ${mem} ON mem.phone = mu.phone
         WHERE mu.month BETWEEN ${p(start)} AND ${p(end)} GROUP BY mu.phone) AS per_user
       GROUP BY 1 ORDER BY 1`,
  );
  const tags = await q(
    (p) =>
      `SELECT t.tag_name AS name, COUNT(DISTINCT ut.phone) AS num FROM user_tags ut JOIN ${mem} ON mem.phone = ut.phone JOIN tags t ON t.tag_id = ut.tag_id
       WHERE ut.start_month <= ${p(end)} AND ut.end_month >= ${p(end)} GROUP BY t.tag_name ORDER BY num DESC, name LIMIT ${p(TOP.tags)}`,
  );
  return {
    id,
    size: num(size?.n),
    provinces: shares(provinces),
    areas: shares(areas),
    products: shares(products),
    channels: shares(channels),
    usage: usage.map((r) => ({ name: usageLabel(num(r.band)), num: num(r.num) })),
    tags: shares(tags),
  };
}

/** The last full month before today (yyyy-MM): the analysis period when an audience has none. */
function lastMonth(): string {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - 1);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

export async function compareProfiles(ctx: AppContext, caller: Caller, ids: readonly number[], diff?: { a?: number; b?: number }): Promise<ProfileCompare> {
  const members = new Map<number, Members>();
  const groups: ProfileStats[] = [];
  for (const id of ids) {
    const detail = await getAudienceDetail(ctx, caller, id);
    const member = await audienceMemberSql(ctx, caller, id);
    if (!caller.isAdministrator)
      await assertTablesUsable(
        ctx,
        caller,
        member.datasourceId,
        PROFILE_TABLES.map((name) => ({ schema: null, name, quoted: false })),
      );
    members.set(id, member);
    const start = detail.startAnalyseDate ?? lastMonth();
    const end = detail.endAnalyseDate ?? start;
    groups.push({ ...(await statsOf(ctx, caller, id, member, start, end)), groupName: detail.groupName, startAnalyseDate: start, endAnalyseDate: end });
  }
  const [a, b] = [diff?.a ?? ids[0], diff?.b ?? ids[1]];
  let overlap: ProfileDiff | null = null;
  const ma = a === undefined ? undefined : members.get(a);
  const mb = b === undefined ? undefined : members.get(b);
  if (ma && mb && a !== b) {
    const [row] = await read(
      ctx,
      caller,
      ma.datasourceId,
      () => `SELECT COUNT(*) AS n FROM (SELECT DISTINCT x.phone FROM (${ma.sql}\n) AS x JOIN (${mb.sql}\n) AS y ON y.phone = x.phone) AS both_sets`,
    );
    const both = num(row?.n);
    const sizeA = groups.find((g) => g.id === a)!.size;
    const sizeB = groups.find((g) => g.id === b)!.size;
    overlap = { a: a!, b: b!, both, onlyA: sizeA - both, onlyB: sizeB - both };
  }
  return { groups, diff: overlap };
}
