import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { API } from '@shutu/contracts';
import { datasetWorld, fieldIds, ordersDataset, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';
import { call, type Call } from '../../../test/fixtures.ts';
import { storeKinds } from '../../../test/harness.ts';
import { multipart } from '../../../test/multipart.ts';
import { PENDING_LIMIT_MS, RETIRED_GRACE_MS, reserveMemberTable, sweepMemberTables } from './member-gc.ts';
import { loadMemberTable } from '../read/index.ts';
import { switchMembers } from './repo.ts';
import { computeAudience } from './service.ts';
import { dueSlot, runRefresh } from './jobs.ts';

const kinds = await storeKinds();
const P = API.audience;

const ok = (res: Call) => {
  if (res.status !== 200) throw new Error(`${res.status} ${res.raw.body}`);
  return res.body.data;
};
const sorted = (values: unknown[]) => [...values].map(String).sort();

describe.each(kinds)('audiences on %s', (kind) => {
  let w: DatasetWorld;
  let cubeId: number;
  let f: Record<string, number>;
  let classifyId: number;
  let member: { id: number; headers: Headers };

  beforeAll(async () => {
    w = await datasetWorld(kind);
    const ws = await w.category();
    cubeId = ok(await w.save(w.admin, ordersDataset(ws, w.warehouseId, '人群订单'))) as number;
    f = await fieldIds(w.server, w.admin, cubeId);
    classifyId = ok(await call(w.server, 'POST', P.categories, { headers: w.admin, payload: { name: '测试分类' } })).id;
    // A member whose group sees only 广东 rows of the dataset and not 金额.
    member = await w.member();
    const group = await w.group([member.id]);
    ok(await call(w.server, 'PUT', `/api/dataset/auth/${group}/cubes`, { headers: w.admin, payload: { cubeWorkspaceId: ws, dataIdList: [cubeId] } }));
    await w.permFilter(cubeId, group, { name: '只看广东', fieldId: f['省份'], values: ['广东'], excluded: [f['金额']] });
  }, 120_000);
  afterAll(() => w?.close());

  const rule = (extra: Record<string, unknown> = {}) => ({ cubeId, cubeName: '人群订单', phoneField: f['手机号'], connectType: 'and', ...extra });
  const where = (field: string, values: string[]) => ({
    relation: 'AND',
    conditions: [{ cubeColumnId: f[field], connectType: 'and', conditions: [{ function: values.length > 1 ? 'in' : 'eq', values }] }],
  });

  it('refuses incomplete audiences with the spec messages', async () => {
    const save = (payload: unknown, headers = w.admin) => call(w.server, 'POST', P.save, { headers, payload });
    expect((await save({ classifyId, defineRule: [rule()] })).body.msg).toBe('请输入人群名称');
    expect((await save({ groupName: 'x', defineRule: [rule()] })).body.msg).toBe('请选择人群分类');
    const noKey = await save({ groupName: 'x', classifyId, defineRule: [rule({ phoneField: null })] });
    expect([noKey.status, noKey.body.msg]).toEqual([400, '请选择数据集【人群订单】的主键字段']);
    expect((await save({ groupName: 'x', classifyId, defineRule: [rule(), rule()] })).body.msg).toBe('该数据集已选用过');
    const six = [f['省份'], f['渠道'], f['手机号'], f['订单编号'], f['金额'], f['省份']];
    expect((await save({ groupName: 'x', classifyId, defineRule: [rule({ columns: six })] })).body.msg).toBe('输出字段最多选择5个');
    const preview = await call(w.server, 'POST', P.preview, { headers: w.admin, payload: { defineRule: [rule({ phoneField: null })] } });
    expect(preview.body.msg).toBe('请选择数据集主键字段');
    expect((await call(w.server, 'GET', P.detail, { headers: w.admin, query: { id: 999999 } })).body.msg).toBe('人群不存在');
  });

  it('previews 交 / 并 / 差 with a having rule as the same SQL run directly', async () => {
    const having = {
      relation: 'AND',
      conditions: [{ cubeColumnId: f['金额'], aggregation: 'SUM', connectType: 'and', conditions: [{ function: 'gt', values: [50] }] }],
    };
    const sql = {
      gd: `select distinct phone from orders where province = '广东'`,
      big: `select phone from orders group by phone having sum(amount) > 50`,
      app: `select distinct phone from orders where channel_name = 'APP'`,
    };
    const cases: [string, unknown[], string][] = [
      ['and', [rule({ filter: where('省份', ['广东']) }), rule({ cubeId, having })], `${sql.gd} intersect ${sql.big}`],
    ];
    // The same dataset twice is refused, so 并 / 差 use a second dataset over orders.
    const ws = await w.category();
    const second = ok(await w.save(w.admin, ordersDataset(ws, w.warehouseId, '人群订单二'))) as number;
    const g = await fieldIds(w.server, w.admin, second);
    const rule2 = (connectType: string, filter: unknown, hav: unknown = null) => ({
      cubeId: second,
      cubeName: '人群订单二',
      phoneField: g['手机号'],
      connectType,
      filter,
      having: hav,
    });
    const having2 = {
      relation: 'AND',
      conditions: [{ cubeColumnId: g['金额'], aggregation: 'SUM', connectType: 'and', conditions: [{ function: 'gt', values: [50] }] }],
    };
    const channel = { relation: 'AND', conditions: [{ cubeColumnId: g['渠道'], connectType: 'and', conditions: [{ function: 'eq', values: ['APP'] }] }] };
    cases.length = 0;
    cases.push(['交', [rule({ filter: where('省份', ['广东']) }), rule2('and', null, having2)], `${sql.gd} intersect ${sql.big}`]);
    cases.push(['并', [rule({ filter: where('省份', ['广东']) }), rule2('or', channel)], `${sql.gd} union ${sql.app}`]);
    cases.push(['差', [rule({ filter: where('省份', ['广东']) }), rule2('del', channel)], `${sql.gd} except ${sql.app}`]);
    for (const [label, defineRule, expected] of cases) {
      const answer = ok(await call(w.server, 'POST', P.preview, { headers: w.admin, payload: { defineRule } }));
      const direct = await w.direct(`select count(*) as n from (${expected}) t`);
      expect(answer.total, label).toBe(Number(direct[0]!.n));
      expect(answer.total, label).toBeGreaterThan(0);
      const all = (await w.direct(expected)).map((r) => String(r.phone));
      for (const row of answer.dataList) expect(all, label).toContain(String(row.phone));
    }
  });

  it('saves, computes the member table with output fields and exports it as CSV with BOM', async () => {
    const id = ok(
      await call(w.server, 'POST', P.save, {
        headers: w.admin,
        payload: {
          groupName: '广东用户',
          classifyId,
          requestFreq: 1,
          defineRule: [rule({ filter: where('省份', ['广东']), columns: [f['省份'], f['渠道']] })],
        },
      }),
    );
    const result = await computeAudience(w.server.ctx, id);
    const expected = await w.direct(`select count(distinct phone) as n from orders where province = '广东'`);
    expect(result.size).toBe(Number(expected[0]!.n));
    const detail = ok(await call(w.server, 'GET', P.detail, { headers: w.admin, query: { id } }));
    expect(detail).toMatchObject({ status: 'done', size: result.size, requestFreq: 1, classifyName: '测试分类' });
    expect(detail.memberColumns.map((c: { title: string }) => c.title)).toEqual(['手机号', '省份', '渠道']);
    const csv = await w.server.app.inject({ method: 'GET', url: P.export, query: { id: String(id) }, headers: w.admin });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.startsWith('\uFEFF手机号,省份,渠道\r\n')).toBe(true);
    const lines = csv.body.trim().split('\r\n').slice(1);
    expect(lines).toHaveLength(result.size);
    expect(lines.every((l) => /^1\d{10},广东,\S+$/.test(l))).toBe(true);
    const listed = ok(await call(w.server, 'GET', P.list, { headers: w.admin, query: { size: 50 } }));
    expect(listed.records.find((r: { id: number }) => r.id === id)).toMatchObject({ groupName: '广东用户', status: 'done' });
    // Another member sees neither the audience nor its members.
    const other = await w.member();
    expect((await call(w.server, 'GET', P.detail, { headers: other.headers, query: { id } })).status).toBe(404);
    expect((await w.server.app.inject({ method: 'GET', url: P.export, query: { id: String(id) }, headers: other.headers })).statusCode).toBe(404);
  });

  it("computes a member's audience with the member's row filter, refusing the hidden column as output", async () => {
    const hidden = await call(w.server, 'POST', P.save, {
      headers: member.headers,
      payload: { groupName: '带金额', classifyId, defineRule: [rule({ columns: [f['金额']] })] },
    });
    expect(hidden.status).toBe(403);
    const id = ok(
      await call(w.server, 'POST', P.save, {
        headers: member.headers,
        payload: { groupName: '我的人群', classifyId, defineRule: [rule({ columns: [f['省份']] })] },
      }),
    );
    const result = await computeAudience(w.server.ctx, id);
    const expected = await w.direct(`select count(distinct phone) as n from orders where province = '广东'`);
    expect(result.size).toBe(Number(expected[0]!.n));
    const csv = await w.server.app.inject({ method: 'GET', url: P.export, query: { id: String(id) }, headers: member.headers });
    const provinces = new Set(
      csv.body
        .trim()
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(',')[1]),
    );
    expect([...provinces]).toEqual(['广东']);
  });

  it('imports a phone file (normalised, de-duplicated, bad lines counted) and intersects it with a dataset audience', async () => {
    const phones = (await w.direct(`select distinct phone from orders where province = '广东' order by phone limit 3`)).map((r) => String(r.phone));
    const outside = (await w.direct(`select distinct phone from orders where province <> '广东' order by phone limit 1`)).map((r) => String(r.phone));
    const [a, b, c] = phones as [string, string, string];
    const lines = [`+86 ${a.slice(0, 3)}-${a.slice(3, 7)}-${a.slice(7)}`, a, b, ` ${c} `, outside[0]!, '12345', '手机号', 'abc', ''];
    const wrongType = multipart({ name: '坏文件' }, { name: 'phones.csv', content: lines.join('\n') });
    const refused = await w.server.app.inject({ method: 'POST', url: P.import, headers: { ...w.admin, ...wrongType.headers }, payload: wrongType.payload });
    expect(JSON.parse(refused.body).msg).toBe('只支持导入xlsx、xls或txt文件');
    const noName = multipart({ name: ' ' }, { name: 'phones.txt', content: lines.join('\n') });
    const unnamed = await w.server.app.inject({ method: 'POST', url: P.import, headers: { ...w.admin, ...noName.headers }, payload: noName.payload });
    expect(JSON.parse(unnamed.body).msg).toBe('请填写人群名称');
    const form = multipart(
      { name: '导入人群', userGroupStatus: 1, startAnalyseDate: '2026-10', endAnalyseDate: '2026-10' },
      { name: 'phones.txt', content: lines.join('\r\n') },
    );
    const res = await w.server.app.inject({ method: 'POST', url: P.import, headers: { ...w.admin, ...form.headers }, payload: form.payload });
    const body = JSON.parse(res.body);
    expect(body.msg).toBe('导入成功');
    expect(body.data).toMatchObject({ valid: 4, invalid: 3, duplicate: 1 });
    const importId = body.data.id as number;
    const detail = ok(await call(w.server, 'GET', P.detail, { headers: w.admin, query: { id: importId } }));
    expect(detail).toMatchObject({ kind: 'import', size: 4, userGroupStatus: 1, startAnalyseDate: '2026-10', importInvalid: 3 });
    // 导入人群 ∩ 广东: the three 广东 phones.
    const answer = ok(
      await call(w.server, 'POST', P.preview, {
        headers: w.admin,
        payload: { defineRule: [rule({ filter: where('省份', ['广东']) }), { audienceId: importId, connectType: 'and' }] },
      }),
    );
    expect(sorted(answer.dataList.map((r: { phone: string }) => r.phone))).toEqual(sorted(phones));
  });

  it('two computations of one audience at once (刷新 while the job runs) leave one readable member table', async () => {
    const id = ok(
      await call(w.server, 'POST', P.save, {
        headers: w.admin,
        payload: { groupName: '并发刷新', classifyId, requestFreq: 0, defineRule: [rule({ filter: where('省份', ['广东']), columns: [f['渠道']] })] },
      }),
    );
    const expected = Number((await w.direct(`select count(distinct phone) as n from orders where province = '广东'`))[0]!.n);
    const log = pino({ level: 'silent' });
    for (let round = 0; round < 4; round++) {
      const slot = new Date(Date.UTC(2020, 0, 1 + round)).toISOString();
      const results = await Promise.all([
        computeAudience(w.server.ctx, id),
        runRefresh(w.server.ctx, log, { audienceId: id, slot }, `r${round}`),
        computeAudience(w.server.ctx, id),
      ]);
      expect(results[0].size).toBe(expected);
      expect(results[1]).toBe('done');
      const detail = ok(await call(w.server, 'GET', P.detail, { headers: w.admin, query: { id } }));
      expect(detail).toMatchObject({ status: 'done', size: expected, error: null });
      const csv = await w.server.app.inject({ method: 'GET', url: P.export, query: { id: String(id) }, headers: w.admin });
      expect(csv.statusCode, csv.body).toBe(200);
      expect(csv.body.trim().split('\r\n').slice(1)).toHaveLength(expected);
      // Besides the current member table only replaced ones are left, retired for the sweep (a reader may
      // still be streaming them); every losing table was dropped at once and nothing stays pending.
      const current = (await w.server.ctx.db.selectFrom('audience').select('memberTable').where('id', '=', id).executeTakeFirstOrThrow()).memberTable;
      const tables = (await w.direct(`select table_name from information_schema.tables where table_name like '__shutu_staging_audience_${id}_%'`)).map((r) =>
        String(r.table_name),
      );
      const gc = await w.server.ctx.db.selectFrom('audienceMemberGc').selectAll().where('tableName', 'like', `__shutu_staging_audience_${id}_%`).execute();
      expect(tables).toContain(current);
      expect(gc.filter((g) => g.state === 'pending')).toEqual([]);
      expect(tables.filter((t) => t !== current).sort()).toEqual(gc.map((g) => g.tableName).sort());
    }
    // Past the grace period the sweep drops every retired table; the current one stays readable.
    const later = new Date(Date.now() + RETIRED_GRACE_MS + 60_000);
    expect(await sweepMemberTables(w.server.ctx, later)).toBeGreaterThanOrEqual(1);
    const left = await w.direct(`select table_name from information_schema.tables where table_name like '__shutu_staging_audience_${id}_%'`);
    expect(left).toHaveLength(1);
    const csvAfterSweep = await w.server.app.inject({ method: 'GET', url: P.export, query: { id: String(id) }, headers: w.admin });
    expect(csvAfterSweep.body.trim().split('\r\n').slice(1)).toHaveLength(expected);
    const history = ok(await call(w.server, 'GET', P.refreshes, { headers: w.admin, query: { id } }));
    expect(history.filter((h: { status: string }) => h.status === 'done').length).toBeGreaterThanOrEqual(4);
    // Between processes: a computation that started before the last switch does not replace it.
    const current = await w.server.ctx.db.selectFrom('audience').select(['memberTable', 'refreshedAt']).where('id', '=', id).executeTakeFirstOrThrow();
    const stale = await switchMembers(
      w.server.ctx.db,
      id,
      { memberTable: '__shutu_staging_audience_stale', memberColumns: [{ name: 'phone', title: '手机号' }], size: 1, durationMs: 1 },
      new Date(current.refreshedAt!.getTime() - 1000),
    );
    expect(stale).toEqual({ previous: current.memberTable, superseded: true });
    const after = ok(await call(w.server, 'GET', P.detail, { headers: w.admin, query: { id } }));
    expect(after).toMatchObject({ status: 'done', size: expected });
  });

  it("keeps a deleted audience's members readable for the grace period and drops a dead computation's table only when stale", async () => {
    const id = ok(
      await call(w.server, 'POST', P.save, { headers: w.admin, payload: { groupName: '删除后清理', classifyId, requestFreq: 0, defineRule: [rule()] } }),
    );
    await computeAudience(w.server.ctx, id);
    const { memberTable } = await w.server.ctx.db.selectFrom('audience').select('memberTable').where('id', '=', id).executeTakeFirstOrThrow();
    expect(memberTable).toBeTruthy();
    // A computation killed mid-load leaves a pending table behind (here: reserved and filled, never switched).
    const orphan = await reserveMemberTable(w.server.ctx.db, id);
    const orphanColumns = [
      { name: 'audience_id', type: 'INTEGER' as const },
      { name: 'phone', type: 'STRING' as const },
    ];
    await loadMemberTable(w.server.ctx, orphan, orphanColumns, [[id, '13800000000']]);
    ok(await call(w.server, 'POST', P.remove, { headers: w.admin, payload: { id } }));
    const exists = async (t: string) => (await w.direct(`select count(*) as n from information_schema.tables where table_name = '${t}'`))[0]!.n;
    // Right after the deletion both tables are still there: a reader that began before it finishes.
    expect(await sweepMemberTables(w.server.ctx, new Date(Date.now() + 5 * 60_000))).toBe(0);
    expect(Number(await exists(memberTable!))).toBe(1);
    expect(Number(await exists(orphan))).toBe(1);
    // After the grace the deleted audience's table goes; the pending one waits until no computation could still own it.
    const afterGrace = new Date(Date.now() + RETIRED_GRACE_MS + 60_000);
    expect(afterGrace.getTime() - Date.now()).toBeGreaterThan(PENDING_LIMIT_MS);
    expect(await sweepMemberTables(w.server.ctx, afterGrace)).toBe(2);
    expect(Number(await exists(memberTable!))).toBe(0);
    expect(Number(await exists(orphan))).toBe(0);
    expect(await w.server.ctx.db.selectFrom('audienceMemberGc').selectAll().where('tableName', 'in', [memberTable!, orphan]).execute()).toEqual([]);
  });

  it('refreshes a due slot exactly once, whoever runs it', async () => {
    const id = ok(await call(w.server, 'POST', P.save, { headers: w.admin, payload: { groupName: '每日', classifyId, requestFreq: 1, defineRule: [rule()] } }));
    const slot = dueSlot(1, new Date())!.toISOString();
    const log = pino({ level: 'silent' });
    const results = await Promise.all([
      runRefresh(w.server.ctx, log, { audienceId: id, slot }, 'a'),
      runRefresh(w.server.ctx, log, { audienceId: id, slot }, 'b'),
    ]);
    expect(sorted(results)).toEqual(['done', 'taken']);
    expect(await runRefresh(w.server.ctx, log, { audienceId: id, slot }, 'c')).toBe('taken');
    // Slots: the day, the Monday, the first of the month in China time.
    expect(dueSlot(1, new Date('2026-11-26T17:00:00Z'))!.toISOString()).toBe('2026-11-26T16:00:00.000Z');
    expect(dueSlot(2, new Date('2026-11-26T03:00:00Z'))!.toISOString()).toBe('2026-11-22T16:00:00.000Z');
    expect(dueSlot(3, new Date('2026-11-26T03:00:00Z'))!.toISOString()).toBe('2026-10-31T16:00:00.000Z');
    expect(dueSlot(0, new Date())).toBeNull();
  });
});
