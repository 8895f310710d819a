/** The generated demo warehouse: sizes, references, value ranges, distributions, comments. */
import { readFile } from 'node:fs/promises';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVINCES } from './data.ts';
import { TAGS, WEB_PAGES } from './data-cdp.ts';
import { generateDemoWarehouse, type GenerateResult } from './generate.ts';
import { DEMO_TABLES, META_TABLE, ORDER_DATA_VIEW } from './schema.ts';

const SCALE = 20_000;
let instance: DuckDBInstance;
let db: DuckDBConnection;
let result: GenerateResult;

async function rows(sql: string): Promise<unknown[][]> {
  return (await db.runAndReadAll(sql)).getRowsJson() as unknown[][];
}
async function one(sql: string): Promise<unknown> {
  return (await rows(sql))[0]?.[0];
}
const num = async (sql: string): Promise<number> => Number(await one(sql));

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  db = await instance.connect();
  result = await generateDemoWarehouse(db, { seed: 42, scale: SCALE });
}, 120_000);

afterAll(() => {
  db.closeSync();
  instance.closeSync();
});

describe('sizes follow the scale knob', () => {
  it('orders = scale, users = scale / 10, clicks ≈ scale / 4', async () => {
    expect(result.rowCounts.orders).toBe(SCALE);
    expect(result.rowCounts.users).toBe(2_000);
    expect(result.rowCounts.click_events).toBeGreaterThan(SCALE * 0.2);
    expect(result.rowCounts.click_events).toBeLessThan(SCALE * 0.3);
    expect(result.rowCounts.provinces).toBe(31);
    expect(result.rowCounts.tags).toBe(TAGS.length);
    expect(result.rowCounts.tag_month_counts).toBe(TAGS.length * 13);
    for (const t of DEMO_TABLES) expect(result.rowCounts[t.name], t.name).toBeGreaterThan(0);
  });
});

describe('referential sanity', () => {
  const orphans: [string, string][] = [
    ['order phone not in users', 'SELECT count(*) FROM orders o ANTI JOIN users u ON u.phone = o.phone'],
    [
      'order spid not in products',
      'SELECT count(*) FROM orders o ANTI JOIN products p ON p.spid = o.spid AND p.shortname = o.shortname AND p.type_l2_name = o.type_l2_name',
    ],
    [
      'order channel not in channels',
      'SELECT count(*) FROM orders o ANTI JOIN channels c ON c.channel_id = o.channel_id AND c.channel_name = o.channel_name AND c.belongto = o.belongto',
    ],
    ['order province/area not in areas', 'SELECT count(*) FROM orders o ANTI JOIN areas a ON a.province_name = o.province AND a.area_name = o.area'],
    [
      'order province/area differs from the user',
      'SELECT count(*) FROM orders o JOIN users u USING (phone) WHERE o.province <> u.province OR o.area <> u.area',
    ],
    ['user province/area not in areas', 'SELECT count(*) FROM users o ANTI JOIN areas a ON a.province_name = o.province AND a.area_name = o.area'],
    [
      'cancellation without its successful order',
      `SELECT count(*) FROM cancellations c ANTI JOIN orders o ON o.order_id = c.order_id AND o.phone = c.phone
      AND o.spid = c.spid AND o.order_time = c.order_time AND o.status = '订购成功'`,
    ],
    [
      'cancel channel not in channels',
      'SELECT count(*) FROM cancellations o ANTI JOIN channels c ON c.channel_id = o.channel_id AND c.channel_name = o.channel_name',
    ],
    ['usage phone not in users', 'SELECT count(*) FROM user_month_usage o ANTI JOIN users u ON u.phone = o.phone'],
    ['click (phone, distinct id) not a user', 'SELECT count(*) FROM click_events e ANTI JOIN users u ON u.phone = e.phone AND u.shence_id = e.distinct_id'],
    [
      'click page not in web_pages',
      'SELECT count(*) FROM click_events e ANTI JOIN web_pages p ON p.page_title = e.page_title AND p.url = e.url AND p.platform_type = e.platform_type',
    ],
    ['user tag phone not in users', 'SELECT count(*) FROM user_tags t ANTI JOIN users u ON u.phone = t.phone'],
    ['user tag not in tags', 'SELECT count(*) FROM user_tags t ANTI JOIN tags g ON g.tag_id = t.tag_id'],
    [
      'task channel/product unknown',
      `SELECT count(*) FROM marketing_tasks t ANTI JOIN (SELECT * FROM channels, products) x
      ON x.channel_id = t.channel_id AND x.channel_name = t.channel_name AND x.spid = t.spid AND x.shortname = t.shortname`,
    ],
    [
      'activation row of a non-activation task',
      'SELECT count(*) FROM task_activation_daily d ANTI JOIN marketing_tasks t ON t.task_id = d.task_id AND t.task_type = 1',
    ],
    ['receive row of a non-receive task', 'SELECT count(*) FROM task_receive_daily d ANTI JOIN marketing_tasks t ON t.task_id = d.task_id AND t.task_type = 3'],
    [
      'funnel row of a non-funnel task',
      `SELECT count(*) FROM task_funnel_daily d ANTI JOIN marketing_tasks t ON t.task_id = d.task_id AND t.task_type = 2 AND t.channel_id = d.channel_id`,
    ],
    [
      'retention row of a non-funnel task',
      'SELECT count(*) FROM task_retention_monthly d ANTI JOIN marketing_tasks t ON t.task_id = d.task_id AND t.task_type = 2',
    ],
    [
      'product type not in the tree',
      `SELECT count(*) FROM products p ANTI JOIN product_types t2 ON t2.type_id = p.type_l2_id AND t2.parent_id = p.type_l1_id AND t2.type_level = 2`,
    ],
  ];
  it.each(orphans)('%s: none', async (_label, sql) => {
    expect(await num(sql)).toBe(0);
  });

  it('keys are unique', async () => {
    for (const [table, key] of [
      ['users', 'phone'],
      ['users', 'shence_id'],
      ['orders', 'order_id'],
      ['cancellations', 'order_id'],
      ['click_events', 'event_id'],
      ['products', 'spid'],
      ['marketing_tasks', 'task_id'],
      ['user_month_usage', 'phone, month'],
      ['task_funnel_daily', 'task_id, dt'],
    ]) {
      expect(await num(`SELECT count(*) - count(DISTINCT (${key})) FROM ${table}`), `${table}(${key})`).toBe(0);
    }
  });
});

describe('values and ranges', () => {
  it('phones are 11 digits starting 13x/15x/18x', async () => {
    expect(await num(`SELECT count(*) FROM users WHERE NOT regexp_full_match(phone, '1[358][0-9]{9}')`)).toBe(0);
    expect(await num(`SELECT count(*) FROM users WHERE NOT regexp_full_match(shence_id, '[0-9a-f]{16}')`)).toBe(0);
  });

  it('every province is present among users and orders', async () => {
    expect(await num('SELECT count(DISTINCT province) FROM users')).toBe(PROVINCES.length);
    expect(await num('SELECT count(DISTINCT province) FROM orders')).toBe(PROVINCES.length);
    expect(await one('SELECT province FROM orders GROUP BY 1 ORDER BY count(*) DESC LIMIT 1')).toBe('广东');
  });

  it('times lie inside the 13-month window ending on the anchor day', async () => {
    const window = `BETWEEN TIMESTAMP '2025-10-01 00:00:00' AND TIMESTAMP '2026-10-31 23:59:59'`;
    expect(await num(`SELECT count(*) FROM orders WHERE NOT order_time ${window}`)).toBe(0);
    expect(await num(`SELECT count(*) FROM cancellations WHERE NOT cancel_time ${window} OR cancel_time <= order_time`)).toBe(0);
    expect(await num(`SELECT count(*) FROM click_events WHERE NOT event_time ${window}`)).toBe(0);
    expect(await num(`SELECT count(*) FROM marketing_tasks WHERE NOT push_time ${window} OR add_time >= push_time`)).toBe(0);
    expect(await num(`SELECT count(*) FROM users WHERE register_time > TIMESTAMP '2026-10-31 00:00:00'`)).toBe(0);
    expect(await num('SELECT count(*) FROM orders o JOIN users u USING (phone) WHERE o.order_time < u.register_time')).toBe(0);
    expect(await rows(`SELECT min(strftime(order_time, '%Y-%m')), max(strftime(order_time, '%Y-%m')) FROM orders`)).toEqual([['2025-10', '2026-10']]);
  });

  it('order volume grows over the window and follows the daily rhythm', async () => {
    const [[first, last]] = (await rows(
      `SELECT count(*) FILTER (WHERE order_time < TIMESTAMP '2026-01-01'), count(*) FILTER (WHERE order_time >= TIMESTAMP '2026-08-01') FROM orders`,
    )) as [[number, number]];
    expect(Number(last)).toBeGreaterThan(Number(first) * 1.3);
    const [[night, evening]] = (await rows(
      'SELECT count(*) FILTER (WHERE hour(order_time) = 3), count(*) FILTER (WHERE hour(order_time) = 20) FROM orders',
    )) as [[number, number]];
    expect(Number(evening)).toBeGreaterThan(Number(night) * 5);
    const success = await num(`SELECT avg(CASE WHEN status = '订购成功' THEN 1 ELSE 0 END) FROM orders`);
    expect(success).toBeGreaterThan(0.85);
    expect(await num(`SELECT count(*) FROM orders WHERE status = '处理中' AND order_time < TIMESTAMP '2026-10-29'`)).toBe(0);
  });

  it('amounts are the product price or half of it', async () => {
    expect(await num('SELECT count(*) FROM orders o JOIN products p USING (spid) WHERE o.amount <> p.price AND o.amount <> floor(p.price * 50) / 100')).toBe(0);
  });

  it('click coordinates lie within the page width and height, and cluster at hot spots', async () => {
    expect(
      await num(`SELECT count(*) FROM click_events e JOIN web_pages p USING (url)
      WHERE e.attr1 < 0 OR e.attr1 >= e.attr3 OR e.attr2 < 0 OR e.attr2 >= p.page_height OR e.event <> 'clickScreen'`),
    ).toBe(0);
    expect(await num(`SELECT count(DISTINCT attr3) FROM click_events`)).toBeGreaterThan(5);
    // 10 × 20 grid over the home page: the densest 10% of cells hold far more than 10% of clicks.
    const share = await num(`WITH cells AS (
        SELECT attr1 * 10 // attr3 AS cx, attr2 * 20 // 3200 AS cy, count(*) AS n FROM click_events WHERE url LIKE '%/index.html' AND platform_type = 'PC' GROUP BY ALL)
      SELECT sum(n) FILTER (WHERE rk <= 20) / sum(n) FROM (SELECT n, row_number() OVER (ORDER BY n DESC) AS rk FROM cells)`);
    expect(share).toBeGreaterThan(0.5);
    expect(await num('SELECT count(DISTINCT page_title) FROM click_events')).toBe(WEB_PAGES.length);
  });

  it('one web user has a dense click history for the heat map', async () => {
    expect(await num('SELECT max(n) FROM (SELECT count(*) AS n FROM click_events GROUP BY distinct_id)')).toBeGreaterThan(300);
  });

  it('monthly usage starts at the register month and stays inside the flow bands', async () => {
    expect(await num(`SELECT count(*) FROM user_month_usage m JOIN users u USING (phone) WHERE m.month < strftime(u.register_time, '%Y-%m')`)).toBe(0);
    expect(await rows('SELECT min(flow_mb) >= 100, max(flow_mb) < 40000, min(complaints) = 0, max(vip_receipts) <= 6 FROM user_month_usage')).toEqual([
      [true, true, true, true],
    ]);
  });
});

describe('tags', () => {
  it('monthly counts equal a recount of the per-user tag intervals', async () => {
    const diff = await num(`WITH recount AS (
        SELECT m.month, t.tag_id, count(*) AS n FROM user_tags t JOIN (SELECT DISTINCT month FROM tag_month_counts) m
          ON m.month BETWEEN t.start_month AND t.end_month GROUP BY ALL)
      SELECT count(*) FROM tag_month_counts c LEFT JOIN recount r USING (month, tag_id) WHERE c.user_count <> coalesce(r.n, 0)`);
    expect(diff).toBe(0);
  });

  it('derived tags follow the users: every user has one gender tag in the last month', async () => {
    expect(await num(`SELECT sum(user_count) FROM tag_month_counts WHERE month = '2026-10' AND level2_name = '性别'`)).toBe(2_000);
    expect(
      await num(`SELECT count(*) FROM user_tags t JOIN tags g USING (tag_id) JOIN users u USING (phone)
      WHERE g.level2_name = '性别' AND g.tag_name <> CASE u.gender WHEN '男' THEN '男性用户' ELSE '女性用户' END`),
    ).toBe(0);
    expect(await num('SELECT count(*) FROM user_tags WHERE start_month > end_month')).toBe(0);
  });
});

describe('marketing tasks', () => {
  it('has all three task types with consistent rates and funnels', async () => {
    expect(await rows('SELECT task_type, count(*) FROM marketing_tasks GROUP BY 1 ORDER BY 1')).toEqual([
      [1, '12'],
      [2, '12'],
      [3, '12'],
    ]);
    expect(
      await num(`SELECT count(*) FROM task_activation_daily WHERE activate_num > total_send_message
      OR abs(activate_num_rate - round(activate_num / total_send_message, 4)) > 0.00005 OR cancels_num > activate_num`),
    ).toBe(0);
    expect(
      await num(
        'SELECT count(*) FROM task_funnel_daily WHERE NOT (product_views >= unified_auth AND unified_auth >= order_attempts AND order_attempts >= order_success)',
      ),
    ).toBe(0);
    expect(
      await num(`SELECT count(*) FROM (SELECT retained_users, lag(retained_users) OVER (PARTITION BY task_id, month ORDER BY month_offset) AS prev FROM task_retention_monthly)
      WHERE retained_users > prev`),
    ).toBe(0);
    expect(await num(`SELECT count(*) FROM marketing_tasks WHERE NOT regexp_full_match(mission_name, '20[0-9]{2}年[0-9]{1,2}月.+')`)).toBe(0);
  });
});

describe('comments and the order-data view', () => {
  it('every table and column has a Chinese comment', async () => {
    for (const t of DEMO_TABLES) {
      expect(await one(`SELECT comment FROM duckdb_tables() WHERE table_name = '${t.name}'`), t.name).toBe(t.comment);
      const missing = await num(`SELECT count(*) FROM duckdb_columns() WHERE table_name = '${t.name}' AND (comment IS NULL OR comment = '')`);
      expect(missing, t.name).toBe(0);
    }
    expect(await one(`SELECT comment FROM duckdb_columns() WHERE table_name = 'orders' AND column_name = 'spid'`)).toBe('产品编码（SPID）');
    expect(await one(`SELECT comment FROM duckdb_views() WHERE view_name = 'v_order_data'`)).toBe(ORDER_DATA_VIEW.comment);
  });

  it('docs/warehouse.md documents every table and column', async () => {
    // Table cells compared without their padding (prettier aligns markdown tables).
    const doc = (await readFile(new URL('../../../../docs/warehouse.md', import.meta.url), 'utf8')).replace(/ *\| */g, '|');
    for (const t of [...DEMO_TABLES, ORDER_DATA_VIEW, META_TABLE]) {
      expect(doc, t.name).toContain(`### \`${t.name}\` — ${t.comment}`);
      for (const col of t.columns) expect(doc, `${t.name}.${col.name}`).toContain(`|\`${col.name}\`|${col.type}|${col.comment}|`);
    }
  });

  it('v_order_data has the result-row columns of the order-data export', async () => {
    const cols = (await rows(`SELECT column_name FROM duckdb_columns() WHERE table_name = 'v_order_data' ORDER BY column_index`)).map((r) => r[0]);
    expect(cols).toEqual([
      'userid',
      'province',
      'area',
      'spid',
      'shortname',
      'ordertime',
      'orderchannelname',
      'orderbelongto',
      'orderchannel',
      'canceltime',
      'cancelchannelname',
      'cancelbelongto',
      'cancelchannel',
      'vipnums',
      'flows',
      'cnums',
      'order_id',
    ]);
    expect(await num('SELECT count(*) FROM v_order_data WHERE canceltime IS NOT NULL')).toBe(result.rowCounts.cancellations);
    expect(await num('SELECT count(*) FROM v_order_data WHERE flows IS NULL')).toBe(0);
  });
});
