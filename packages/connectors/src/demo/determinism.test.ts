/** Same seed + scale + anchor ⇒ identical tables (content and row order), whatever the thread count. */
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { tableChecksums } from './checksum.ts';
import { generateDemoWarehouse } from './generate.ts';
import { makePlan, type DemoWarehouseOptions } from './plan.ts';

async function build(
  options: DemoWarehouseOptions,
  threads = '2',
): Promise<{ sums: Record<string, string>; counts: Record<string, number>; maxOrder: unknown }> {
  const instance = await DuckDBInstance.create(':memory:', { threads });
  const connection = await instance.connect();
  try {
    const result = await generateDemoWarehouse(connection, options);
    const maxOrder = (
      await connection.runAndReadAll(`SELECT strftime(min(order_time), '%Y-%m-%d') || '..' || strftime(max(order_time), '%Y-%m-%d') FROM orders`)
    ).getRowsJson()[0]?.[0];
    return { sums: await tableChecksums(connection), counts: result.rowCounts, maxOrder };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/**
 * Checksums of seed 1, scale 2,000 with generator version 1 on DuckDB 1.5.6. If this fails after a
 * DuckDB upgrade (its hash() or text casts changed) or a deliberate change of the data, bump
 * GENERATOR_VERSION (so existing warehouses regenerate) and paste the new values.
 */
const GOLDEN: Record<string, string> = {
  provinces: '31:274733359772914189895681915881546925096',
  areas: '125:238534686982750397805570543564187538633',
  channels: '11:316254839402929054813816703773182276285',
  product_types: '16:12116319776165208024251367024090642595',
  products: '38:239023748360289346862305846145247057574',
  users: '1000:100735149370585934358816877434208704392',
  orders: '2000:175002498741446668640827417891079044165',
  cancellations: '300:206825466476318561361664755311310487103',
  user_month_usage: '11829:129018723908492527546531512322081303733',
  web_pages: '8:19915131444038024471229160773690409901',
  click_events: '1039:198305740286289285673464668311049994436',
  tags: '31:189631705330274409807989386867819683713',
  user_tags: '6761:252419859612597884656178553305963786828',
  tag_month_counts: '403:199072038703634195538253810573791344611',
  marketing_tasks: '36:315769723505211526079024860168536317369',
  task_activation_daily: '534:199781869490450541765753393748465504724',
  task_receive_daily: '513:294230801520973581131967164724389618278',
  task_funnel_daily: '519:232198325902652776703303691063668035499',
  task_retention_monthly: '175:295871042884210928880584006079433379984',
};

describe('determinism', () => {
  // 300k orders span several DuckDB row groups (122,880 rows), so 4 threads really scan in parallel.
  it('two runs with 1 and 4 threads give identical checksums for every table', async () => {
    const a = await build({ seed: 7, scale: 300_000 }, '1');
    const b = await build({ seed: 7, scale: 300_000 }, '4');
    expect(Object.keys(a.sums).length).toBe(19);
    expect(b.sums).toEqual(a.sums);
  }, 60_000);

  it('another seed gives other data but the same dimensions', async () => {
    const a = await build({ seed: 7, scale: 3_000 });
    const b = await build({ seed: 8, scale: 3_000 });
    for (const t of ['users', 'orders', 'cancellations', 'click_events', 'user_tags', 'user_month_usage']) expect(b.sums[t], t).not.toBe(a.sums[t]);
    for (const t of ['provinces', 'areas', 'channels', 'product_types', 'products', 'tags', 'web_pages']) expect(b.sums[t], t).toBe(a.sums[t]);
  }, 60_000);

  it('matches the recorded golden checksums (stable across machines and runs)', async () => {
    const { sums } = await build({ seed: 1, scale: 2_000 });
    expect(sums).toEqual(GOLDEN);
  }, 60_000);
});

describe('knobs', () => {
  it('scale sets the order rows exactly and users as scale / 10 (at least 1,000)', async () => {
    const small = await build({ seed: 3, scale: 3_000 });
    expect(small.counts.orders).toBe(3_000);
    expect(small.counts.users).toBe(1_000);
    const larger = await build({ seed: 3, scale: 25_000 });
    expect(larger.counts.orders).toBe(25_000);
    expect(larger.counts.users).toBe(2_500);
    expect(larger.counts.user_month_usage).toBeGreaterThan(small.counts.user_month_usage ?? 0);
  }, 60_000);

  it('the anchor date moves the 13-month window', async () => {
    const { maxOrder } = await build({ seed: 3, scale: 2_000, anchorDate: '2024-02-29' });
    expect(maxOrder).toMatch(/^2023-02-0\d\.\.2024-02-2\d$/);
    const plan = makePlan({ anchorDate: '2024-02-29' });
    expect(plan.windowStart).toBe('2023-02-01');
    expect(plan.months).toHaveLength(13);
    expect(plan.days).toBe(394);
    expect(plan.months[0]).toBe('2023-02');
    expect(plan.months[12]).toBe('2024-02');
  }, 60_000);

  it('defaults are constants, and bad options are refused', () => {
    expect(makePlan()).toMatchObject({ seed: 20260101, scale: 200_000, anchorDate: '2026-10-31', windowStart: '2025-10-01', users: 20_000 });
    expect(() => makePlan({ anchorDate: '2026-02-30' })).toThrow(/anchorDate/);
    expect(() => makePlan({ anchorDate: '20261031' })).toThrow(/anchorDate/);
    expect(() => makePlan({ scale: 10 })).toThrow(/scale/);
    expect(() => makePlan({ scale: 1.5e3 + 0.5 })).toThrow(/scale/);
    expect(() => makePlan({ seed: -1 })).toThrow(/seed/);
  });
});
