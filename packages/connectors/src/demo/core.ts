/**
 * SQL of the dimension tables, users, orders, cancellations and monthly usage.
 * Every statement is one set-based INSERT … SELECT over a row-number sequence; nothing loops in JavaScript.
 */
import { CANCEL_REASONS, CANCEL_REASON_WEIGHTS, CHANNELS, PRODUCT_TYPES, PRODUCTS, PROVINCES } from './data.ts';
import { SITE_ORIGIN, TAGS, WEB_PAGES } from './data-cdp.ts';
import { AREA_LIST, AREA_NAMES, FLOW_BANDS_MB, Gen, PROVINCE_NAMES } from './context.ts';
import { lit, list, slots } from './hash.ts';

type Cell = string | number | null;
const cell = (v: Cell): string => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : lit(v));
const values = (table: string, rows: readonly (readonly Cell[])[]): string =>
  `INSERT INTO ${table} VALUES ${rows.map((r) => `(${r.map(cell).join(', ')})`).join(',\n')};`;

const TYPE_NAME = new Map(PRODUCT_TYPES.flatMap((t) => [[t.id, t.name] as const, ...t.children.map((c) => [c.id, c.name] as const)]));
const parentOf = (type2: number): number => Math.floor(type2 / 100);

/** spid of the first product; spids are consecutive, so a spid maps back to its product by arithmetic. */
const SPID_BASE = 900101;

export const PRODUCT_ROWS = PRODUCTS.map((p, k) => ({
  ...p,
  spid: String(SPID_BASE + k),
  prmid: `P${p.type2}${String(k + 1).padStart(3, '0')}`,
  productName: `${p.shortname}${p.billing === '包月' ? '（连续包月）' : p.billing === '包日' ? '（当日有效）' : '（单次购买）'}`,
  type1: parentOf(p.type2),
}));

const fen = (priceFen: number): string => (priceFen / 100).toFixed(2);

/** The small fixed tables. */
export function dimensionSql(): string {
  return [
    values(
      'provinces',
      PROVINCES.map((p, k) => [p.code, p.name, p.region, k + 1]),
    ),
    values(
      'areas',
      AREA_LIST.map((a) => [a.code, a.name, PROVINCES[a.province]?.code ?? null, PROVINCES[a.province]?.name ?? null]),
    ),
    values(
      'channels',
      CHANNELS.map((c) => [c.id, c.name, c.type, c.belongto]),
    ),
    values(
      'product_types',
      PRODUCT_TYPES.flatMap((t) => [[t.id, t.name, 0, 1], ...t.children.map((c) => [c.id, c.name, t.id, 2])]),
    ),
    values(
      'products',
      PRODUCT_ROWS.map((p) => [
        p.spid,
        p.prmid,
        p.shortname,
        p.productName,
        p.spName,
        p.type1,
        TYPE_NAME.get(p.type1) ?? null,
        p.type2,
        TYPE_NAME.get(p.type2) ?? null,
        p.billing,
        fen(p.priceFen),
      ]),
    ),
    values(
      'web_pages',
      WEB_PAGES.map((w, k) => [k + 1, w.title, SITE_ORIGIN + w.path, w.platform, w.height]),
    ),
    values(
      'tags',
      TAGS.map((t) => [t.id, t.name, t.level1, t.level2, t.group, '个人用户', t.desc, t.tagType, t.developType, 1, 1]),
    ),
  ].join('\n');
}

export function usersSql(g: Gen): string {
  return `INSERT INTO users
SELECT ${g.phone('u')}, ${g.shenceId('u')}, ${PROVINCE_NAMES}[p + 1], ${AREA_NAMES}[${g.area('u', 'p')} + 1],
       CASE WHEN ${g.male('u')} THEN '男' ELSE '女' END, ${g.age('u')}, CASE WHEN ${g.is5g('u')} THEN '5G' ELSE '4G' END,
       ${g.ts(g.regSeconds('u'))}
FROM (SELECT u, ${g.province('u')} AS p FROM ${g.rows(g.plan.users, 'u')});`;
}

/**
 * Orders: a user (45% from a skewed head, so some users order often), a product and a channel by
 * their weights, a day with a rising trend (volume grows over the window), an hour by the daily
 * rhythm. Orders never precede the user's register time.
 */
export function ordersSql(g: Gen): string {
  const { users: U, days: D } = g.plan;
  const r = g.rng;
  const P = PRODUCT_ROWS;
  return `INSERT INTO orders
WITH a AS (
  SELECT i,
    CASE WHEN ${r.chance('i', 'order.skew', 45)} THEN (${r.int('i', 'order.u1', U)} * ${r.int('i', 'order.u2', U)}) // ${U} ELSE ${r.int('i', 'order.u0', U)} END AS u,
    ${g.weighted('i', 'order.product', slots(P.map((p) => p.orderWeight)))} AS pr,
    ${g.weighted('i', 'order.channel', slots(CHANNELS.map((c) => c.orderWeight)))} AS ch,
    CASE WHEN ${r.chance('i', 'order.trend', 35)} THEN greatest(${r.int('i', 'order.d1', D)}, ${r.int('i', 'order.d2', D)}) ELSE ${r.int('i', 'order.d1', D)} END AS d0,
    ${g.daySeconds('i', 'order.time')} AS sec
  FROM ${g.rows(g.plan.scale, 'i')}
), b AS (
  SELECT *, ${g.province('u')} AS p, ${g.regSeconds('u')} AS rs FROM a
), b2 AS (
  SELECT *, (rs + ${86400 * 3700}) // 86400 - 3700 AS rd FROM b
), c AS (
  SELECT *, CASE WHEN d0 >= rd THEN d0 ELSE rd + d0 % (${D} - rd) END AS d FROM b2
)
SELECT i + 1, ${g.phone('u')}, ${PROVINCE_NAMES}[p + 1], ${AREA_NAMES}[${g.area('u', 'p')} + 1],
  ${list(P.map((p) => p.spid))}[pr + 1], ${list(P.map((p) => p.shortname))}[pr + 1],
  ${list(P.map((p) => TYPE_NAME.get(p.type1) ?? ''))}[pr + 1], ${list(P.map((p) => TYPE_NAME.get(p.type2) ?? ''))}[pr + 1],
  ${list(CHANNELS.map((c) => c.id))}[ch + 1], ${list(CHANNELS.map((c) => c.name))}[ch + 1], ${list(CHANNELS.map((c) => c.belongto))}[ch + 1],
  ${g.ts('greatest(d * 86400 + sec, rs + 600)')},
  ((CASE WHEN ${r.chance('i', 'order.discount', 12)} THEN ${list(P.map((p) => p.priceFen))}[pr + 1] // 2 ELSE ${list(P.map((p) => p.priceFen))}[pr + 1] END)::DECIMAL(18,0) * 0.01)::DECIMAL(10,2),
  CASE WHEN d >= ${D - 2} AND ${r.chance('i', 'order.pending', 30)} THEN '处理中' WHEN ${r.chance('i', 'order.fail', 6)} THEN '订购失败' ELSE '订购成功' END
FROM c;`;
}

/** Cancellations: a product-dependent share of successful orders, some hours to months later, never after the anchor day. */
export function cancellationsSql(g: Gen): string {
  const r = g.rng;
  const end = g.ts(String(g.plan.days * 86400 - 1));
  const delay = `((${r.int('order_id', 'cancel.d1', 60)} * ${r.int('order_id', 'cancel.d2', 60)}) // 20 * 86400 + 3600 + ${r.int('order_id', 'cancel.sec', 86400)})`;
  return `INSERT INTO cancellations
SELECT order_id, phone, province, area, spid, shortname, order_time, cancel_time,
  ${list(CHANNELS.map((c) => c.id))}[ch + 1], ${list(CHANNELS.map((c) => c.name))}[ch + 1], ${list(CHANNELS.map((c) => c.belongto))}[ch + 1],
  ${list(CANCEL_REASONS)}[${g.weighted('order_id', 'cancel.reason', slots(CANCEL_REASON_WEIGHTS))} + 1]
FROM (
  SELECT o.*, make_timestamp(epoch_us(order_time) + ${delay} * 1000000) AS cancel_time, ${g.weighted('order_id', 'cancel.channel', slots(CHANNELS.map((c) => c.cancelWeight)))} AS ch
  FROM orders o
  WHERE status = '订购成功'
    AND ${r.int('order_id', 'cancel.pick', 100)} < ${list(PRODUCT_ROWS.map((p) => p.cancelPct))}[spid::INTEGER - ${SPID_BASE - 1}]
)
WHERE cancel_time <= ${end};`;
}

/** One row per user and month from the register month: member receipts, flow around the user's band, rare complaints. */
export function usageSql(g: Gen): string {
  const r = g.rng;
  const M = g.plan.months.length;
  const lo = list(FLOW_BANDS_MB.map((b) => b[0]));
  const width = list(FLOW_BANDS_MB.map((b) => b[1] - b[0]));
  const vip = r.int('i', 'usage.vip', 100);
  const cmp = r.int('i', 'usage.complaint', 1000);
  // Per-user fields once, then one row per month from the register month (row key i = u * 13 + m).
  return `INSERT INTO user_month_usage
SELECT ${g.months}[m + 1], phone,
  CASE WHEN v < 70 THEN 0 WHEN v < 85 THEN 1 WHEN v < 93 THEN 2 WHEN v < 97 THEN 3 ELSE 4 + v % 3 END,
  (${lo}[band + 1] + ${r.int('i', 'usage.flow', `${width}[band + 1]`)})::INTEGER,
  CASE WHEN x < 975 THEN 0 WHEN x < 995 THEN 1 ELSE 2 END
FROM (
  SELECT *, ${vip} AS v, ${cmp} AS x
  FROM (
    SELECT *, u * ${M} + m AS i
    FROM (
      SELECT u, phone, band, unnest(range(rm, ${M})) AS m
      FROM (SELECT u, ${g.phone('u')} AS phone, ${g.flowBand('u')} AS band, ${g.regMonth(g.regDay('u'))} AS rm FROM ${g.rows(g.plan.users, 'u')})
    )
  )
);`;
}
