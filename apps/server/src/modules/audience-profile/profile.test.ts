import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/fixtures.ts';
import { multipart } from '../../../test/multipart.ts';
import { datasetWorld, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';

/**
 * The tag-driven audience saved through the audience module's storage (its members equal to the
 * rules' preview, update recomputes them, 人群不存在), and the profile comparison over the members:
 * every block equals hand-written SQL over the warehouse, the difference is the true overlap.
 */
describe('tag audiences and profile comparison', () => {
  let w: DatasetWorld;
  let admin: Headers;
  let months: string[];
  const post = (url: string, payload: unknown, headers = admin) => call(w.server, 'POST', url, { headers, payload });
  const get = (url: string, query: Record<string, string | number>, headers = admin) => call(w.server, 'GET', url, { headers, query });
  const body = (groupName: string, ruledetails: unknown[], relationship = 'and') => ({
    groupName,
    rules: { relationship, daterange: [months[2], months[0]], ruledetails },
    startAnalyseDate: months[2],
    endAnalyseDate: months[0],
  });
  const guangdong = { level2name: '地区', type: 'area', values: ['p:广东'], conditions: [] };
  const newUsers = { level2name: '产品订购状态', type: 'tag', values: ['1012'], conditions: [] };
  let a = 0;
  let b = 0;

  beforeAll(async () => {
    w = await datasetWorld('pglite');
    admin = w.admin;
    months = (await get('/api/tag/months', {})).body.data;
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('saves a tag audience whose members are what the rules select, and reloads it', async () => {
    const saved = await post('/api/tag/audience', body('广东用户', [guangdong]));
    expect(saved.body).toMatchObject({ code: 200, msg: '保存成功' });
    a = saved.body.data.id;
    const [expected] = await w.direct(`SELECT count(*) AS n FROM users WHERE province = '广东'`);
    expect(saved.body.data.size).toBe(Number(expected!.n));
    const loaded = (await get('/api/tag/audience', { id: a })).body.data;
    expect(loaded).toMatchObject({ id: a, groupName: '广东用户', size: Number(expected!.n), status: 'done', startAnalyseDate: months[2] });
    expect(loaded.rules.ruledetails[0].values).toEqual(['p:广东']);
  });

  it('an update recomputes the members; unknown ids and empty names are refused with the spec wording', async () => {
    const first = await post('/api/tag/audience', body('新订购用户', [newUsers]));
    b = first.body.data.id;
    const both = await post('/api/tag/audience', { ...body('新订购用户', [newUsers, guangdong], 'and'), id: b });
    const [expected] = await w.direct(
      `SELECT count(*) AS n FROM (SELECT phone FROM user_tags WHERE tag_id = 1012 AND start_month <= '${months[0]}' AND end_month >= '${months[2]}'
        INTERSECT SELECT phone FROM users WHERE province = '广东')`,
    );
    expect(both.body.data).toEqual({ id: b, size: Number(expected!.n) });
    // Back to the tag alone, so the comparison below has an overlap smaller than both.
    await post('/api/tag/audience', { ...body('新订购用户', [newUsers]), id: b });
    expect((await get('/api/tag/audience', { id: 999_999 })).body).toMatchObject({ code: 404, msg: '人群不存在' });
    expect((await post('/api/tag/audience', { ...body('x', [newUsers]), id: 999_999 })).body).toMatchObject({ code: 404, msg: '人群不存在' });
    expect((await post('/api/tag/audience', body('  ', [newUsers]))).body).toMatchObject({ code: 400, msg: '请填写人群名称' });
    const bad = await post('/api/tag/audience', body('坏规则', [{ ...newUsers, values: [] }]));
    expect(bad.body).toMatchObject({ code: 400, msg: '请选择标签【产品订购状态】的取值' });
    const list = await get('/api/audience/list', { size: 100 });
    expect(list.body.data.records.map((r: { groupName: string }) => r.groupName)).not.toContain('坏规则');
  });

  it('restricted to an imported group (importId): only its phones the rules select', async () => {
    const inside = (await w.direct(`SELECT phone FROM users WHERE province = '广东' ORDER BY phone LIMIT 5`)).map((r) => String(r.phone));
    const outside = (await w.direct(`SELECT phone FROM users WHERE province <> '广东' ORDER BY phone LIMIT 3`)).map((r) => String(r.phone));
    const form = multipart({ name: '导入八人' }, { name: 'phones.txt', content: [...inside, ...outside].join('\n') });
    const imported = await w.server.app.inject({ method: 'POST', url: '/api/audience/import', headers: { ...admin, ...form.headers }, payload: form.payload });
    const importId = JSON.parse(imported.body).data.id as number;
    const preview = await post('/api/tag/audience/preview', { rules: body('x', [guangdong]).rules, importId });
    expect(preview.body.data).toEqual({ size: 5 });
    const saved = await post('/api/tag/audience', { ...body('导入中的广东用户', [guangdong]), importId });
    expect(saved.body.data.size).toBe(5);
    expect((await get('/api/tag/audience', { id: saved.body.data.id })).body.data.importId).toBe(importId);
    // Only an imported group restricts: a tag audience is refused.
    const wrong = await post('/api/tag/audience/preview', { rules: body('x', [guangdong]).rules, importId: a });
    expect(wrong.body).toMatchObject({ code: 400, msg: '只能选择导入人群' });
  });

  it('compares the audiences: each block equals the warehouse, the difference is the overlap', async () => {
    const res = await get('/api/tag/profile/compare', { type: 'tag', id: `${a},${b}` });
    expect(res.status).toBe(200);
    const [ga, gb] = res.body.data.groups;
    expect(ga.provinces).toEqual([{ name: '广东', num: ga.size }]);
    const areas = await w.direct(`SELECT area AS name, count(*) AS num FROM users WHERE province = '广东' GROUP BY area ORDER BY num DESC, name`);
    expect(ga.areas).toEqual(areas.map((r) => ({ name: r.name, num: Number(r.num) })));
    const [e, s] = [months[0]!, months[2]!];
    const channels = await w.direct(
      `SELECT o.channel_name AS name, count(DISTINCT o.phone) AS num FROM orders o JOIN users u ON u.phone = o.phone
       WHERE u.province = '广东' AND o.status = '订购成功' AND strftime(o.order_time, '%Y-%m') BETWEEN '${s}' AND '${e}'
       GROUP BY 1 ORDER BY num DESC, name LIMIT 15`,
    );
    expect(ga.channels).toEqual(channels.map((r) => ({ name: r.name, num: Number(r.num) })));
    const usageTotal = ga.usage.reduce((n: number, r: { num: number }) => n + r.num, 0);
    expect(usageTotal).toBeGreaterThan(0);
    expect(usageTotal).toBeLessThanOrEqual(ga.size);
    expect(gb.tags[0]).toMatchObject({ name: '新订购用户', num: expect.any(Number) });
    const [overlap] = await w.direct(
      `SELECT count(*) AS n FROM (SELECT DISTINCT phone FROM user_tags WHERE tag_id = 1012 AND start_month <= '${e}' AND end_month >= '${s}') t JOIN users u ON u.phone = t.phone WHERE u.province = '广东'`,
    );
    expect(res.body.data.diff).toEqual({ a, b, both: Number(overlap!.n), onlyA: ga.size - Number(overlap!.n), onlyB: gb.size - Number(overlap!.n) });
  });

  it('a member reads tags and compares their own audiences only with grants of the tables read', async () => {
    const member = await w.member();
    const tagTables = ['tags', 'tag_month_counts', 'user_tags', 'users', 'provinces', 'areas', 'channels', 'products', 'orders', 'user_month_usage'];
    await w.group(
      [member.id],
      tagTables.filter((t) => t !== 'orders'),
    );
    expect((await get('/api/tag/list', {}, member.headers)).body.data).toHaveLength(31);
    const saved = await post('/api/tag/audience', body('我的广东用户', [guangdong]), member.headers);
    expect(saved.status).toBe(200);
    // The profile joins orders: without its grant, refused with the table's name.
    const refused = await get('/api/tag/profile/compare', { id: String(saved.body.data.id) }, member.headers);
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toContain('orders');
    await w.group([member.id], ['orders']);
    const res = await get('/api/tag/profile/compare', { id: String(saved.body.data.id) }, member.headers);
    expect(res.status).toBe(200);
    expect(res.body.data.groups[0]).toMatchObject({ groupName: '我的广东用户', provinces: [{ name: '广东', num: saved.body.data.size }] });
    // Someone else's audience stays out of reach.
    expect([403, 404]).toContain((await get('/api/tag/profile/compare', { id: `${saved.body.data.id},${a}` }, member.headers)).status);
  });

  it('refuses what the caller may not see, and bad id lists', async () => {
    const other = await w.member();
    const res = await get('/api/tag/profile/compare', { id: String(a) }, other.headers);
    expect([403, 404]).toContain(res.status);
    expect((await get('/api/tag/profile/compare', { id: 'x,y' })).body).toMatchObject({ code: 400, msg: '请选择要对比的人群' });
    expect((await get('/api/tag/profile/compare', { id: '1,2,3,4,5,6,7' })).body).toMatchObject({ code: 400, msg: '最多对比6个人群' });
  });
});
