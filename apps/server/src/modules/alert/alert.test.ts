import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertMessages, alertWindow } from '@shutu/contracts';
import { alertWorld, type AlertWorld } from '../../../test/alert-fixtures.ts';
import { call } from '../../../test/fixtures.ts';

/** Alert records and preview (issue 19; docs/alerts.md). Rules of the server, so the embedded store. */

describe('the alert time window (spec 3 §3 "Alert time config")', () => {
  const now = new Date('2026-11-25T10:00:00Z');
  const rel = (leftVal: number, rightVal: number, leftModifier: 'BEFORE' | 'AFTER' = 'BEFORE', rightModifier: 'BEFORE' | 'AFTER' = 'BEFORE') =>
    ({ leftVal, rightVal, leftModifier, rightModifier }) as const;
  it('defaults 2 BEFORE … 1 BEFORE: the two whole units before the current one', () => {
    expect(alertWindow({ timeType: 'MONTH', relativeTime: rel(2, 1) }, now, 480)).toEqual({ start: '2026-09-01', end: '2026-10-31' });
    expect(alertWindow({ timeType: 'DAY', relativeTime: rel(2, 1) }, now, 480)).toEqual({ start: '2026-11-23', end: '2026-11-24' });
    expect(alertWindow({ timeType: 'QUARTER', relativeTime: rel(2, 1) }, now, 480)).toEqual({ start: '2026-04-01', end: '2026-09-30' });
  });
  it('counts on the installation clock and across years; AFTER looks ahead', () => {
    // 2026-01-31T20:00Z is already 1 February in Beijing.
    expect(alertWindow({ timeType: 'MONTH', relativeTime: rel(1, 1) }, new Date('2026-01-31T20:00:00Z'), 480)).toEqual({
      start: '2026-01-01',
      end: '2026-01-31',
    });
    expect(alertWindow({ timeType: 'MONTH', relativeTime: rel(1, 1) }, new Date('2026-01-31T20:00:00Z'), 0)).toEqual({
      start: '2025-12-01',
      end: '2025-12-31',
    });
    expect(alertWindow({ timeType: 'DAY', relativeTime: rel(0, 2, 'BEFORE', 'AFTER') }, now, 480)).toEqual({ start: '2026-11-25', end: '2026-11-27' });
  });
});

describe('alerts (issue 19)', () => {
  let a: AlertWorld;
  beforeAll(async () => {
    a = await alertWorld();
  }, 120_000);
  afterAll(() => a?.w.close());

  it('refuses a save with the spec messages, in the editor order, and writes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, alertMessages.formIncomplete],
      [{ requestFreq: null }, alertMessages.formIncomplete],
      [{ warnUserIds: '' }, alertMessages.recipientsRequired],
      [{ warnUserIds: '999999' }, alertMessages.recipientsRequired],
      [{ requestFreq: 30 }, alertMessages.requestFreqMin],
      [{ columnJson: [{ cubeColumnId: a.f['省份'], dimensionType: 'WEIDU' }] }, alertMessages.fieldsIncomplete],
      [{ filterTimeJson: { timeType: 'DAY' } }, alertMessages.fieldsIncomplete],
      [{ columnJson: Array.from({ length: 6 }, () => ({ cubeColumnId: a.f['订单编号'], dimensionType: 'ZHIBIAO' })) }, alertMessages.tooManyMeasures],
      [{ pushEnabled: true }, alertMessages.pushWayRequired],
      [{ pushEnabled: true, warningWays: [{ warningWayEnum: 'APP' }] }, alertMessages.pushContentRequired],
      [{ checkedWays: ['email', 'sms'] }, alertMessages.smsTemplateRequired],
      [{ columnJson: [{ cubeColumnId: 987654, dimensionType: 'ZHIBIAO' }] }, '字段【987654】不属于所选数据集'],
    ];
    for (const [extra, msg] of cases) {
      const res = await a.save(a.w.admin, a.body(extra));
      expect([res.status, res.body.msg], JSON.stringify(extra)).toEqual([400, msg]);
    }
    const list = await call(a.w.server, 'GET', '/api/alert/alerts', { headers: a.w.admin });
    expect(list.body.data.total).toBe(0);
  });

  it('saves (Base64 payload), computes timeValue, lists, copies, enables and deletes', async () => {
    const payload = Buffer.from(
      JSON.stringify(a.body({ filterTimeJson: { timeType: 'DAY', timeColumn: a.f['下单时间'], timeTypeColumn: a.f['省份'] } })),
    ).toString('base64');
    const saved = await a.save(a.w.admin, { payload });
    expect([saved.status, saved.body.msg]).toEqual([200, '保存成功']);
    const alert = saved.body.data;
    expect(alert).toMatchObject({ name: '订单数预警', requestFreq: 300, enableStatus: 1, cubeDataName: '订单预警', state: 'ok', warnUserIds: '1' });
    // Defaults 2 BEFORE and 1 BEFORE; NORMAL clears the time-type column.
    expect(alert.filterTimeJson).toMatchObject({
      relativeTime: { leftVal: 2, leftModifier: 'BEFORE', rightVal: 1, rightModifier: 'BEFORE' },
      timeTypeColumn: null,
    });
    expect(alert.filterTimeJson.timeValue).toHaveLength(2);
    expect(alert.datasourceName).toBeTruthy();

    const copy = await call(a.w.server, 'POST', `/api/alert/alerts/${alert.id}/copy`, { headers: a.w.admin });
    expect(copy.body.data).toMatchObject({ name: '订单数预警（副本）', enableStatus: 0 });
    // The member may neither see nor change the administrator's alert.
    const foreign = await call(a.w.server, 'GET', `/api/alert/alerts/${alert.id}`, { headers: a.member.headers });
    expect([foreign.status, foreign.body.msg]).toEqual([403, alertMessages.notOwner]);
    const off = await call(a.w.server, 'PUT', `/api/alert/alerts/${alert.id}/enabled`, { headers: a.w.admin, payload: { enableStatus: 0 } });
    expect(off.status).toBe(200);
    const detail = await call(a.w.server, 'GET', `/api/alert/alerts/${alert.id}`, { headers: a.w.admin });
    expect(detail.body.data.enableStatus).toBe(0);
    const list = await call(a.w.server, 'GET', '/api/alert/alerts', { headers: a.w.admin });
    expect(list.body.data.records.map((r: { name: string }) => r.name)).toEqual(['订单数预警（副本）', '订单数预警']);
    for (const id of [alert.id, copy.body.data.id])
      expect((await call(a.w.server, 'DELETE', `/api/alert/alerts/${id}`, { headers: a.w.admin })).status).toBe(200);
    expect((await call(a.w.server, 'GET', `/api/alert/alerts/${alert.id}`, { headers: a.w.admin })).status).toBe(404);
  });

  it('lets a member choose recipients: active users without contact details, and the department tree', async () => {
    const admin = a.w.admin;
    const dept = await call(a.w.server, 'POST', '/api/org/departments', { headers: admin, payload: { deptName: '华南区', parentId: 0 } });
    await call(a.w.server, 'POST', '/api/org/departments', { headers: admin, payload: { deptName: '广州组', parentId: dept.body.data.id } });
    const res = await call(a.w.server, 'GET', '/api/alert/recipients', { headers: a.member.headers });
    expect(res.status).toBe(200);
    const { users, departments } = res.body.data as { users: Record<string, unknown>[]; departments: { deptName: string; children: { deptName: string }[] }[] };
    expect(users.map((u) => u.id)).toEqual(expect.arrayContaining([1, a.member.id]));
    expect(Object.keys(users[0]!).sort()).toEqual(['deptId', 'id', 'name', 'realName']);
    expect(departments.find((d) => d.deptName === '华南区')?.children.map((c) => c.deptName)).toEqual(['广州组']);
    // The organisation screens stay the administrators'.
    expect((await call(a.w.server, 'GET', '/api/org/users', { headers: a.member.headers })).status).toBe(403);
  });

  it('answers the editor the computed range of a time configuration', async () => {
    const res = await call(a.w.server, 'POST', '/api/alert/window', { headers: a.w.admin, payload: { timeType: 'MONTH' } });
    const now = new Date();
    expect(res.body.data).toEqual(
      Object.values(alertWindow({ timeType: 'MONTH', relativeTime: { leftVal: 2, leftModifier: 'BEFORE', rightVal: 1, rightModifier: 'BEFORE' } }, now, 480)),
    );
    const inverted = await call(a.w.server, 'POST', '/api/alert/window', {
      headers: a.w.admin,
      payload: { timeType: 'DAY', relativeTime: { leftVal: 1, leftModifier: 'AFTER', rightVal: 1, rightModifier: 'BEFORE' } },
    });
    expect([inverted.status, inverted.body.msg]).toEqual([400, alertMessages.windowInverted]);
  });

  it('previews rows and the field dictionary with the reader own row filters', async () => {
    const body = a.body();
    const preview = (headers: Record<string, string>, extra: Record<string, unknown> = {}) =>
      call(a.w.server, 'POST', '/api/alert/preview', {
        headers,
        payload: { cubeDataId: body.cubeDataId, columnList: body.columnJson, filterList: [], filterTimeJson: body.filterTimeJson, ...extra },
      });
    const admin = await preview(a.w.admin);
    expect(admin.status).toBe(200);
    expect(admin.body.data.fieldDict.map((f: { title: string }) => f.title)).toEqual(['省份', '订单编号']);
    const provinces = (res: typeof admin) => res.body.data.dataList.map((r: Record<string, unknown>) => r[res.body.data.fieldDict[0].alias]).sort();
    expect(provinces(admin).length).toBeGreaterThan(1);
    const member = await preview(a.member.headers);
    expect(member.status).toBe(200);
    expect(provinces(member)).toEqual(['广东']);
    // Thresholds are having-conditions on the measures.
    const [window] = await a.w.direct(
      `SELECT COUNT(*) AS n FROM orders WHERE province = '广东' AND order_time >= TIMESTAMP '${admin.body.data.timeValue[0]}' AND order_time < TIMESTAMP '${admin.body.data.timeValue[1]}' + INTERVAL 1 DAY`,
    );
    const count = Number(window!.n);
    const over = (n: number) =>
      preview(a.member.headers, { filterList: [{ cubeColumnId: a.f['订单编号'], connectTime: 'having', conditions: [{ function: 'gt', values: [n] }] }] });
    expect((await over(count - 1)).body.data.dataList).toHaveLength(1);
    expect((await over(count)).body.data.dataList).toHaveLength(0);
    // Where-conditions: 或 among them, and a date range on a date field (both days included).
    const where = (cubeColumnId: number, fn: string, values: string[]) => ({ cubeColumnId, connectTime: 'where', conditions: [{ function: fn, values }] });
    const either = await preview(a.w.admin, { filterRelation: 'OR', filterList: [where(a.f['省份']!, 'eq', ['广东']), where(a.f['省份']!, 'eq', ['浙江'])] });
    expect(provinces(either)).toEqual(['广东', '浙江']);
    const both = await preview(a.w.admin, { filterList: [where(a.f['省份']!, 'eq', ['广东']), where(a.f['省份']!, 'eq', ['浙江'])] });
    expect(both.body.data.dataList).toHaveLength(0);
    const [first] = await a.w.direct(`SELECT CAST(MIN(order_time) AS DATE) AS d FROM orders WHERE order_time >= TIMESTAMP '${admin.body.data.timeValue[0]}'`);
    const day = String(first!.d instanceof Date ? first!.d.toISOString().slice(0, 10) : first!.d).slice(0, 10);
    const oneDay = await preview(a.w.admin, { filterList: [where(a.f['下单时间']!, 'between', [day, day])] });
    expect(oneDay.body.data.dataList.length).toBeGreaterThan(0);
    expect((await preview(a.w.admin, { filterList: [where(a.f['下单时间']!, 'between', ['1990-01-01', '1990-12-31'])] })).body.data.dataList).toHaveLength(0);
    // One item with two conditions joined by its own connectType (spec 3 §3 "Filter"), beside the relation.
    const item = (connectType: string) => ({
      cubeColumnId: a.f['省份'],
      connectTime: 'where',
      connectType,
      conditions: [
        { function: 'eq', values: ['广东'] },
        { function: 'eq', values: ['浙江'] },
      ],
    });
    expect(provinces(await preview(a.w.admin, { filterList: [item('or')] }))).toEqual(['广东', '浙江']);
    expect((await preview(a.w.admin, { filterList: [item('and')] })).body.data.dataList).toHaveLength(0);
    // Relative time on a date field, counted from the check's instant: the last 5000 days hold all the
    // window's rows; a day 100 years back, and 2000 to 5000 days ahead (countType right), none.
    const relative = (fn: string, values: number[], countType = 'left') => ({
      cubeColumnId: a.f['下单时间'],
      connectTime: 'where',
      dateType: 'DAY',
      conditions: [{ function: fn, values, timeType: 'relative', countType }],
    });
    expect(provinces(await preview(a.w.admin, { filterList: [relative('between', [5000])] }))).toEqual(provinces(admin));
    expect((await preview(a.w.admin, { filterList: [relative('eq', [36500])] })).body.data.dataList).toHaveLength(0);
    expect((await preview(a.w.admin, { filterList: [relative('between', [2000, 5000], 'right')] })).body.data.dataList).toHaveLength(0);
    const onText = await preview(a.w.admin, { filterList: [{ ...relative('eq', [1]), cubeColumnId: a.f['省份'] }] });
    expect(onText.status).toBe(400);
    const incomplete = await preview(a.w.admin, { columnList: [{ cubeColumnId: a.f['省份'], dimensionType: 'WEIDU' }] });
    expect([incomplete.status, incomplete.body.msg]).toEqual([400, alertMessages.previewNeedsFields]);
  });
});
