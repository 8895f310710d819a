/**
 * SQL of the customer-data tables: click events (heat map), user tags with monthly counts, and
 * marketing tasks with their daily and monthly figures. Set-based, like core.ts.
 */
import { CHANNELS } from './data.ts';
import { BACKGROUND_SPOT_WEIGHT, H5_WIDTHS, PC_WIDTHS, SITE_ORIGIN, TAG_GROUPS, TASK_TYPES, WEB_PAGES } from './data-cdp.ts';
import { Gen } from './context.ts';
import { list, slots } from './hash.ts';
import { PRODUCT_ROWS } from './core.ts';

/** Hot spots of all pages, flattened; each page gets a diffuse background spot as well. */
const SPOTS = WEB_PAGES.flatMap((w, page) =>
  [...w.spots, [500, Math.round(w.height / 2), 170, Math.round(w.height / 6), BACKGROUND_SPOT_WEIGHT] as const].map((s) => ({ page, s })),
);
const PAGE_SPOT_SLOTS = WEB_PAGES.map((_, page) => SPOTS.flatMap((x, k) => (x.page === page ? Array<number>(x.s[4]).fill(k) : [])));
const nested = (rows: readonly (readonly number[])[]): string => `[${rows.map((r) => list(r)).join(', ')}]`;

/**
 * Click sessions of the web users (a skewed few click a lot, so one user's heat map is dense),
 * 5–35 clicks each on one page at one viewport width, clustered around the page's hot spots.
 * User fields are computed once per session; each click needs four hashes (spot, x, y, gap).
 */
export function clickSql(g: Gen): string {
  const r = g.rng;
  const { sessions: S, webUsers: P, days: D } = g.plan;
  const plat = list(WEB_PAGES.map((w) => w.platform));
  const spotOffsets = PAGE_SPOT_SLOTS.map((_, k) => PAGE_SPOT_SLOTS.slice(0, k).reduce((a, x) => a + x.length, 0));
  const at = (values: readonly number[], index: string): string => `${list(values)}[${index} + 1]`;
  const spotCol = (k: 0 | 1 | 2 | 3): string =>
    at(
      SPOTS.map((x) => x.s[k]),
      'sp',
    );
  const x = `least(w - 1, greatest(0, (${spotCol(0)} + ${bell('hx', spotCol(2))}) * w // 1000))`;
  const y = `least(${at(
    WEB_PAGES.map((w) => w.height),
    'pg',
  )} - 1, greatest(0, ${spotCol(1)} + ${bell('hy', spotCol(3))}))`;
  const spotCount = at(
    PAGE_SPOT_SLOTS.map((slotList) => slotList.length),
    'pg',
  );
  const spot = `${list(PAGE_SPOT_SLOTS.flat())}[${at(spotOffsets, 'pg')} + (hs % ${spotCount}::UBIGINT)::BIGINT + 1]`;
  const pageTitle = list(WEB_PAGES.map((w) => w.title));
  const pageUrl = list(WEB_PAGES.map((w) => SITE_ORIGIN + w.path));
  return `CREATE TEMP TABLE _dw_sessions AS
SELECT *, (sum(n) OVER (ORDER BY s ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) - n)::BIGINT AS first
FROM (
  SELECT s, u, pg, CASE WHEN d0 >= rd THEN d0 ELSE rd + d0 % (${D} - rd) END AS d, sec, n, ${g.phone('u')} AS phone, ${g.shenceId('u')} AS sid,
    CASE WHEN ${plat}[pg + 1] = 'PC' THEN ${r.pick('s', 'session.pc', list(PC_WIDTHS), PC_WIDTHS.length)}
         ELSE ${r.pick('s', 'session.h5', list(H5_WIDTHS), H5_WIDTHS.length)} END AS w
  FROM (
    SELECT s, u, ${g.regDay('u')} AS rd, ${g.weighted('s', 'session.page', slots(WEB_PAGES.map((w) => w.weight)))} AS pg,
      CASE WHEN ${r.chance('s', 'session.trend', 40)} THEN greatest(${r.int('s', 'session.d1', D)}, ${r.int('s', 'session.d2', D)}) ELSE ${r.int('s', 'session.d1', D)} END AS d0,
      ${g.daySeconds('s', 'session.time')} AS sec, 5 + ${r.int('s', 'session.n', 31)} AS n
    FROM (SELECT s, (${r.int('s', 'session.u1', P)} * ${r.int('s', 'session.u2', P)}) // ${P} AS u FROM ${g.rows(S, 's')})
  )
);
INSERT INTO click_events
SELECT e + 1, 'clickScreen', ${g.ts(`least(d * 86400 + sec + k * 20 + gap, ${D * 86400 - 1})`)}, sid, phone,
  ${pageTitle}[pg + 1], ${pageUrl}[pg + 1], ${plat}[pg + 1], 'production', ${x}, ${y}, w, s + 1
FROM (
  SELECT *, ${spot} AS sp
  FROM (
    SELECT *, ${r.hash('e', 'click.spot')} AS hs, ${r.hash('e', 'click.x')} AS hx, ${r.hash('e', 'click.y')} AS hy, ${r.int('e', 'click.gap', 20)} AS gap
    FROM (SELECT *, first + k AS e FROM (SELECT *, unnest(range(n)) AS k FROM _dw_sessions))
  )
);
DROP TABLE _dw_sessions;`;
}

/**
 * Approximately normal offset from one 64-bit hash column: three 16-bit uniforms on [0, 2s],
 * summed, minus 3s (sd ≈ s, range ±3s).
 */
function bell(hashColumn: string, spread: string): string {
  const n = `(2 * ${spread} + 1)::UBIGINT`;
  const part = (shift: number): string => `((${hashColumn} >> ${shift}) & 65535) % ${n}`;
  return `((${part(0)} + ${part(16)} + ${part(32)})::BIGINT - 3 * ${spread})`;
}

/**
 * Per-user tags as month intervals. Derived groups (gender, age band, terminal network, flow band)
 * follow the user's attributes from the register month on; the others are assigned to a share of
 * users by weight, starting and (for a third) ending at random months.
 */
export function userTagsSql(g: Gen): string {
  const r = g.rng;
  const G = TAG_GROUPS.length;
  const firstId: number[] = [];
  let next = 1001;
  for (const grp of TAG_GROUPS) {
    firstId.push(next);
    next += grp.tags.length;
  }
  const groupSlots = TAG_GROUPS.map((grp) => (grp.derive ? [0] : slots(grp.tags.map((t) => t.weight))));
  const derivedCase = TAG_GROUPS.map((grp, k) => (grp.derive ? `WHEN ${k} THEN t_${grp.derive}` : '')).join(' ');
  const derived = list(TAG_GROUPS.map((grp) => (grp.derive ? 1 : 0)));
  const last = g.plan.months.length - 1;
  // Per-user fields once, then one candidate row per tag group (row key i = u * groups + grp).
  return `INSERT INTO user_tags
SELECT phone, tag_id, ${g.months}[st + 1], ${g.months}[en + 1]
FROM (
  SELECT phone, tag_id, st, CASE WHEN dv = 1 OR ${r.chance('i', 'tag.open', 65)} THEN ${last} ELSE st + ${r.int('i', 'tag.len', `${last + 1} - st`)} END AS en
  FROM (
    SELECT i, phone, dv, ${list(firstId)}[grp + 1] + CASE grp ${derivedCase}
      ELSE ${nested(groupSlots)}[grp + 1][${r.int('i', 'tag.pick', `${list(groupSlots.map((x) => x.length))}[grp + 1]`)} + 1] END AS tag_id,
      CASE WHEN dv = 1 THEN rm ELSE least(${last}, greatest(rm, ${r.int('i', 'tag.start', 20)} - 7)) END AS st
    FROM (
      SELECT *, u * ${G} + grp AS i, ${derived}[grp + 1] AS dv
      FROM (
        SELECT *, unnest(range(${G})) AS grp
        FROM (
          SELECT u, ${g.phone('u')} AS phone, ${g.regMonth(g.regDay('u'))} AS rm, CASE WHEN ${g.male('u')} THEN 0 ELSE 1 END AS t_gender,
            ${g.ageBand(g.age('u'))} AS t_age, CASE WHEN ${g.is5g('u')} THEN 0 ELSE 1 END AS t_net, ${g.flowBand('u')} AS t_flow
          FROM ${g.rows(g.plan.users, 'u')}
        )
      )
    )
    WHERE dv = 1 OR ${r.int('i', 'tag.cover', 100)} < ${list(TAG_GROUPS.map((x) => x.coverPct))}[grp + 1]
  )
);`;
}

/** Users per tag and month, counted exactly from user_tags (start +1, month after end −1, running sum). */
export function tagCountsSql(g: Gen): string {
  const ML = g.months;
  return `INSERT INTO tag_month_counts
WITH d AS (
  SELECT tag_id, m, sum(n) AS n FROM (
    SELECT tag_id, list_position(${ML}, start_month) - 1 AS m, count(*) AS n FROM user_tags GROUP BY ALL
    UNION ALL
    SELECT tag_id, list_position(${ML}, end_month) AS m, -count(*) AS n FROM user_tags GROUP BY ALL
  ) GROUP BY ALL
), grid AS (SELECT t.*, k.m FROM tags t CROSS JOIN range(${g.plan.months.length}) k(m))
SELECT ${ML}[grid.m + 1], grid.tag_id, grid.tag_name, grid.level1_name, grid.level2_name,
  (sum(coalesce(d.n, 0)) OVER (PARTITION BY grid.tag_id ORDER BY grid.m))::BIGINT
FROM grid LEFT JOIN d ON d.tag_id = grid.tag_id AND d.m = grid.m
ORDER BY 1, 2;`;
}

/** A rate as DECIMAL(7,4), rounded half up with integer arithmetic only. */
const rate = (num: string, den: string): string =>
  `(CASE WHEN ${den} = 0 THEN 0 ELSE ((${num} * 20000 // ${den} + 1) // 2)::DECIMAL(18,0) * 0.0001 END)::DECIMAL(7,4)`;

/** Marketing tasks (a third of each type) spread over the window, with up to 45 days of figures each. */
export function marketingSql(g: Gen): string {
  const r = g.rng;
  const { tasks: T, days: D, users: U } = g.plan;
  const taskChannels = ['短信营业厅', '掌上营业厅APP', '微信公众号', '外呼营销', '线上商城'].map((n) => CHANNELS.findIndex((c) => c.name === n));
  const key = '(t * 100 + k)';
  const ws = `DATE '${g.plan.windowStart}'`;
  return `CREATE TEMP TABLE _dw_tasks AS
SELECT *, 'MT' || strftime(push_time, '%Y%m') || lpad((t + 1)::VARCHAR, 3, '0') AS task_id, ${list(CHANNELS.map((c) => c.id))}[ch + 1] AS channel_id
FROM (
  SELECT t, t % 3 + 1 AS type, day, ch, pr, ${U} * (5 + ${r.int('t', 'task.target', 25)}) // 100 + 100 AS target,
    ${g.ts(`day * 86400 + 32400 + ${r.int('t', 'task.sec', 10800)}`)} AS push_time,
    ${g.ts(`day * 86400 - 86400 * (1 + ${r.int('t', 'task.add', 5)}) + 36000 + ${r.int('t', 'task.addsec', 25200)}`)} AS add_time
  FROM (
    SELECT t, (t * ${D - 7}) // ${T} + ${r.int('t', 'task.day', 7)} AS day, ${list(taskChannels)}[${r.int('t', 'task.channel', taskChannels.length)} + 1] AS ch,
      ${g.weighted('t', 'task.product', slots(PRODUCT_ROWS.map((p) => p.orderWeight)))} AS pr
    FROM range(${T}) x(t)
  )
);
INSERT INTO marketing_tasks
SELECT task_id, strftime(push_time, '%Y年%-m月') || ${list(PRODUCT_ROWS.map((p) => p.shortname))}[pr + 1] || ${list(TASK_TYPES.map((x) => x.verb))}[type],
  type, ${list(TASK_TYPES.map((x) => x.name))}[type], channel_id, ${list(CHANNELS.map((c) => c.name))}[ch + 1],
  ${list(PRODUCT_ROWS.map((p) => p.spid))}[pr + 1], ${list(PRODUCT_ROWS.map((p) => p.shortname))}[pr + 1], target, add_time, push_time
FROM _dw_tasks ORDER BY t;
CREATE TEMP TABLE _dw_task_days AS
SELECT x.*, k, strftime(${ws} + (day + k)::INTEGER, '%Y%m%d') AS dt, ${g.dayMonth}[day + k + 1] AS mi,
  target * 100 // (100 + 25 * k) + ${r.int(key, 'task.send', 10)} AS send
FROM _dw_tasks x, range(45) d(k)
WHERE day + k < ${D};
INSERT INTO task_activation_daily
SELECT task_id, dt, send, act, ${rate('act', 'send')}, cxl, ${rate('cxl', 'act')}
FROM (SELECT *, act * ${r.int(key, 'act.cancel', 15)} // 100 AS cxl
      FROM (SELECT *, send * (20 + ${r.int(key, 'act.rate', 60)}) // 1000 AS act FROM _dw_task_days WHERE type = 1))
ORDER BY task_id, dt;
INSERT INTO task_receive_daily
SELECT task_id, dt, send, rec, ${rate('rec', 'send')}, cxl, ${rate('cxl', 'rec')}
FROM (SELECT *, rec * ${r.int(key, 'rec.cancel', 10)} // 100 AS cxl
      FROM (SELECT *, send * (50 + ${r.int(key, 'rec.rate', 150)}) // 1000 AS rec FROM _dw_task_days WHERE type = 3))
ORDER BY task_id, dt;
CREATE TEMP TABLE _dw_funnel AS
SELECT t, task_id, channel_id, dt, mi, views, auth, att, att * (70 + ${r.int(key, 'fun.success', 25)}) // 100 AS succ
FROM (SELECT *, auth * (50 + ${r.int(key, 'fun.order', 30)}) // 100 AS att
  FROM (SELECT *, views * (40 + ${r.int(key, 'fun.auth', 30)}) // 100 AS auth
    FROM (SELECT *, target * (30 + ${r.int(key, 'fun.views', 20)}) // (100 + 20 * k) AS views FROM _dw_task_days WHERE type = 2)));
INSERT INTO task_funnel_daily SELECT task_id, channel_id, dt, views, auth, att, succ FROM _dw_funnel ORDER BY task_id, dt;
INSERT INTO task_retention_monthly
SELECT task_id, channel_id, replace(${g.months}[mi + 1], '-', ''), users, k, users * 100 // (100 + k * (30 + ${r.int('t', 'task.retention', 30)}))
FROM (SELECT t, task_id, channel_id, mi, sum(succ)::INTEGER AS users FROM _dw_funnel GROUP BY ALL), range(1, 25) d(k)
WHERE mi + k <= ${g.plan.months.length - 1}
ORDER BY task_id, mi, k;
DROP TABLE _dw_funnel; DROP TABLE _dw_task_days; DROP TABLE _dw_tasks;`;
}
