import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/fixtures.ts';
import { datasetWorld, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';

/**
 * Marketing task statistics (issue 20): the task list, the daily rows of types 1 and 3, the funnel
 * by day and the 24-month retention of type 2, each equal to the warehouse's rows; market_view.
 * On the embedded store only: the rules are the server's and the data the warehouse's.
 */
describe('marketing task statistics', () => {
  let w: DatasetWorld;
  let admin: Headers;
  const get = (url: string, query: Record<string, string | number>, headers = admin) => call(w.server, 'GET', url, { headers, query });
  const taskOfType = async (type: number) => (await get('/api/market/tasks', { taskType: type, size: 100 })).body.data.records[0];

  beforeAll(async () => {
    w = await datasetWorld('pglite');
    admin = w.admin;
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('lists the 36 tasks, 12 of each type, newest push first', async () => {
    const res = await get('/api/market/tasks', { size: 100 });
    expect(res.body.data.total).toBe(36);
    const types = res.body.data.records.map((t: { taskType: number }) => t.taskType);
    expect([1, 2, 3].map((t) => types.filter((x: number) => x === t).length)).toEqual([12, 12, 12]);
    const pushes = res.body.data.records.map((t: { pushTime: string }) => t.pushTime);
    expect([...pushes].sort().reverse()).toEqual(pushes);
    expect((await get('/api/market/tasks', { missionName: '激活营销', size: 100 })).body.data.total).toBe(12);
  });

  it.each([
    [1, '/api/market/Member-activate-task', 'task_activation_daily', 'activate_num'],
    [3, '/api/market/Member-receive-task', 'task_receive_daily', 'receives_num'],
  ])('type %i: the daily rows of the warehouse in the range', async (type, url, table, column) => {
    const task = await taskOfType(type);
    const [range] = await w.direct(`SELECT min(dt) AS s, max(dt) AS e FROM ${table} WHERE task_id = '${task.taskId}'`);
    const rows = (await get(url, { task_id: task.taskId, start: String(range!.s), end: String(range!.e) })).body.data;
    const expected = await w.direct(`SELECT dt, ${column} AS n, cancel_num_rate AS r FROM ${table} WHERE task_id = '${task.taskId}' ORDER BY dt`);
    expect(rows.map((r: Record<string, unknown>) => [r.dt, r[column], r.cancel_num_rate])).toEqual(expected.map((r) => [r.dt, Number(r.n), Number(r.r)]));
    const one = (await get(url, { task_id: task.taskId, start: String(range!.s), end: String(range!.s) })).body.data;
    expect(one).toHaveLength(1);
    const bad = await get(url, { task_id: task.taskId, start: '2026-01-01', end: String(range!.e) });
    expect(bad.body).toMatchObject({ code: 400, msg: '日期格式应为yyyyMMdd' });
  });

  it('type 2: the funnel by day and the retention of 24 months', async () => {
    // The earliest pushed: its months have retention to show.
    const task = (await get('/api/market/tasks', { taskType: 2, size: 100 })).body.data.records.at(-1);
    const funnel = (await get('/api/market/marketing-task-chart', { task_id: task.taskId, channel: task.channelId, start: '20000101', end: '29991231' })).body
      .data;
    const [sums] = await w.direct(
      `SELECT count(*) AS n, sum(product_views) AS v, sum(order_success) AS s FROM task_funnel_daily WHERE task_id = '${task.taskId}'`,
    );
    expect(funnel).toHaveLength(Number(sums!.n));
    expect(funnel.reduce((a: number, r: { productViews: number }) => a + r.productViews, 0)).toBe(Number(sums!.v));
    expect(funnel.reduce((a: number, r: { orderSuccess: number }) => a + r.orderSuccess, 0)).toBe(Number(sums!.s));
    const keep = (await get('/api/market/marketing-task-keep', { task_id: task.taskId, start: '200001', end: '299912' })).body.data;
    expect(keep.length).toBeGreaterThan(0);
    expect(keep[0].retained).toHaveLength(24);
    const [first] = await w.direct(
      `SELECT retained_users AS r FROM task_retention_monthly WHERE task_id = '${task.taskId}' AND month = '${keep[0].month}' AND month_offset = 1`,
    );
    expect(keep[0].retained[0]).toBe(first ? Number(first.r) : null);
  });

  it('answers 403 without market_view and 404 for an unknown task', async () => {
    const plain = await w.member();
    expect((await get('/api/market/tasks', {}, plain.headers)).status).toBe(403);
    expect((await get('/api/market/task', { taskId: 'MT000000' })).body).toMatchObject({ code: 404, msg: '营销任务不存在' });
  });
});
