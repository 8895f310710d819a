import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '@shutu/query';
import type { TagRules } from '@shutu/contracts';
import { call } from '../../../test/fixtures.ts';
import { datasetWorld, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';
import { compileTagAudience } from './rules.ts';

/**
 * Tags (issue 18 B): the library, the detail's ratio and count rows against the warehouse's own
 * numbers, the trees, the tag-driven audience's statement (its size equals a hand-written
 * count), and refusals. On the embedded store: the data is the warehouse's.
 */
describe('tags', () => {
  let w: DatasetWorld;
  let admin: Headers;
  const get = (url: string, query: Record<string, string | number> = {}, headers = admin) => call(w.server, 'GET', url, { headers, query });
  const preview = (rules: unknown, headers = admin) => call(w.server, 'POST', '/api/tag/audience/preview', { headers, payload: { rules } });
  let months: string[];

  beforeAll(async () => {
    w = await datasetWorld('pglite');
    admin = w.admin;
    months = (await get('/api/tag/months')).body.data;
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('lists the 31 tags with every field, and searches them', async () => {
    const all = (await get('/api/tag/list')).body.data;
    expect(all).toHaveLength(31);
    expect(all[0]).toMatchObject({ tagId: 1001, tagName: '男性用户', level1Name: '基础属性', level2Name: '性别', tagType: 1, developType: 2, isOnline: 1 });
    const found = (await get('/api/tag/list', { keyword: '流失' })).body.data;
    expect(found.map((t: { tagName: string }) => t.tagName)).toEqual(['高流失风险', '中流失风险', '低流失风险']);
    expect((await get('/api/tag/list', { keyword: '%' })).body.data).toHaveLength(0);
  });

  it('ratio rows are the counts of the tag group in the month; an empty month answers []', async () => {
    expect(months.length).toBe(13);
    const month = months[0]!;
    const rows = (await get('/api/tag/ratio', { tagId: 1003, dataDate: month })).body.data;
    const expected = await w.direct(`SELECT tag_id, user_count FROM tag_month_counts WHERE month = '${month}' AND level2_name = '年龄段' ORDER BY tag_id`);
    expect(rows.map((r: { tagid: number; num: number }) => [r.tagid, r.num])).toEqual(expected.map((r) => [Number(r.tag_id), Number(r.user_count)]));
    expect(rows[0].tagname).toBe('24岁及以下');
    expect((await get('/api/tag/ratio', { tagId: 1003, dataDate: '1999-01' })).body.data).toEqual([]);
    expect((await get('/api/tag/ratio', { tagId: 1003, dataDate: '2026-13' })).body).toMatchObject({ code: 400, msg: '月份格式应为yyyy-MM' });
    expect((await get('/api/tag/detail', { tagId: 9 })).body).toMatchObject({ code: 404, msg: '标签不存在' });
    expect((await get('/api/tag/detail', { tagId: '1e20' })).status).toBe(400);
  });

  it('count rows per month over a range, ends included', async () => {
    const [end, start] = [months[0]!, months[5]!];
    const rows = (await get('/api/tag/count', { tagId: 1025, startDate: start, endDate: end })).body.data;
    const expected = await w.direct(
      `SELECT month, user_count FROM tag_month_counts WHERE tag_id = 1025 AND month BETWEEN '${start}' AND '${end}' ORDER BY month`,
    );
    expect(rows).toEqual(expected.map((r) => ({ datadate: r.month, num: Number(r.user_count) })));
    expect(rows).toHaveLength(6);
    expect((await get('/api/tag/count', { tagId: 1025, startDate: end, endDate: start })).body).toMatchObject({ code: 400, msg: '开始月份不能晚于结束月份' });
  });

  it('trees: tags by level, provinces with cities, channels by belonging, products under four categories', async () => {
    const linkup = (await get('/api/tag/tree', { type: 'linkup' })).body.data;
    expect(linkup.map((n: { title: string }) => n.title)).toContain('算法标签');
    const area = (await get('/api/tag/tree', { type: 'linkup_area' })).body.data;
    expect(area).toHaveLength(31);
    expect(area.find((n: { title: string }) => n.title === '广东').children.map((c: { value: string }) => c.value)).toContain('a:广州');
    const channel = (await get('/api/tag/tree', { type: 'linkup_channel' })).body.data;
    expect(channel.flatMap((n: { children: unknown[] }) => n.children)).toHaveLength(11);
    const product = (await get('/api/tag/tree/product')).body.data;
    expect(product.map((n: { title: string }) => n.title)).toEqual(['流量产品', '视听会员', '权益融合', '通信增值']);
    expect((await get('/api/tag/tree', { type: 'other' })).status).toBe(400);
  });

  it('a tag audience counts what hand-written SQL counts (and: intersection, or: union)', async () => {
    const [s, e] = [months[2]!, months[0]!];
    const rules = (relationship: 'and' | 'or'): TagRules => ({
      relationship,
      daterange: [s, e],
      ruledetails: [
        { level2name: '订购渠道', type: 'channel', values: ['2002', 'b:合作方'], date: null, conditions: [{ func: 'ge', val: '2' }] },
        { level2name: '产品订购状态', type: 'tag', values: ['1012'], date: null, conditions: [] },
        { level2name: 'APP使用', type: 'appuse', values: ['4', '6'], date: null, conditions: [] },
        { level2name: '地区', type: 'area', values: ['p:广东', 'a:杭州'], date: null, conditions: [{ func: 'like', val: '州' }] },
      ],
    });
    const next = (m: string) => {
      const [y, mm] = m.split('-').map(Number) as [number, number];
      return mm === 12 ? `${y + 1}-01` : `${y}-${String(mm + 1).padStart(2, '0')}`;
    };
    const parts = [
      `SELECT phone FROM orders WHERE status = '订购成功' AND order_time >= TIMESTAMP '${s}-01' AND order_time < TIMESTAMP '${next(e)}-01'
        AND (channel_id = '2002' OR belongto = '合作方') GROUP BY phone HAVING count(*) >= 2`,
      `SELECT phone FROM user_tags WHERE tag_id = 1012 AND start_month <= '${e}' AND end_month >= '${s}'`,
      `SELECT phone FROM user_month_usage WHERE month BETWEEN '${s}' AND '${e}' GROUP BY phone HAVING (avg(flow_mb) >= 5000 AND avg(flow_mb) < 10000) OR avg(flow_mb) >= 20000`,
      `SELECT phone FROM users WHERE (province = '广东' OR area = '杭州') AND area ILIKE '%州%'`,
    ];
    for (const [relationship, op, n] of [
      ['and', 'INTERSECT', 4],
      ['and', 'INTERSECT', 2],
      ['or', 'UNION', 4],
    ] as const) {
      const [expected] = await w.direct(`SELECT count(*) AS n FROM (${parts.slice(0, n).join(` ${op} `)})`);
      const asked = rules(relationship);
      const res = await preview({ ...asked, ruledetails: asked.ruledetails.slice(0, n) });
      expect(res.body.data.size).toBe(Number(expected!.n));
      if (n === 2 || relationship === 'or') expect(res.body.data.size).toBeGreaterThan(0);
    }
  });

  it('engines without INTERSECT get IN; values never appear in the SQL text', () => {
    const rules: TagRules = {
      relationship: 'and',
      daterange: ['2026-01', '2026-03'],
      ruledetails: [
        { level2name: '地区', type: 'area', values: ["p:广东' OR 1=1 --"], date: null, conditions: [] },
        { level2name: '产品订购状态', type: 'tag', values: ['1012'], date: null, conditions: [] },
      ],
    };
    const pg = compileTagAudience(rules, DIALECTS.postgres);
    expect(pg.sql).toContain('INTERSECT');
    expect(pg.sql).not.toContain('OR 1=1');
    expect(pg.params).toContain("广东' OR 1=1 --");
    const ch = compileTagAudience(rules, DIALECTS.clickhouse);
    expect(ch.sql).not.toContain('INTERSECT');
    expect(ch.sql).toContain(' IN (');
  });

  it('refuses rules that cannot be read, with the spec wording', async () => {
    const base = { relationship: 'and', daterange: [months[1], months[0]] };
    expect((await preview({ ...base, ruledetails: [] })).body).toMatchObject({ code: 400, msg: '请至少添加一个标签规则' });
    expect((await preview({ ...base, ruledetails: [{ level2name: '产品订购状态', type: 'tag', values: [] }] })).body).toMatchObject({
      code: 400,
      msg: '请选择标签【产品订购状态】的取值',
    });
    const bad = await preview({ ...base, ruledetails: [{ level2name: '订购产品', type: 'product', values: [], conditions: [{ func: 'ge', val: 'abc' }] }] });
    expect(bad.body).toMatchObject({ code: 400, msg: '条件值应为数字' });
    const like = await preview({ ...base, ruledetails: [{ level2name: '订购产品', type: 'product', values: [], conditions: [{ func: 'like', val: '1' }] }] });
    expect(like.body).toMatchObject({ code: 400, msg: '该标签不支持此条件' });
  });

  it('a member without grants of the warehouse tables is refused', async () => {
    const plain = await w.member();
    const res = await get('/api/tag/list', {}, plain.headers);
    expect(res.status).toBe(403);
  });
});
