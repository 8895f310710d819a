import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OrderExportTask } from '@shutu/contracts';
import { call } from '../../../test/fixtures.ts';
import { storeKinds } from '../../../test/harness.ts';
import { multipart } from '../../../test/multipart.ts';
import { datasetWorld, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';
import { Jobs } from '../../platform/jobs/boss.ts';
import { getDataSourceDriver } from '../datasource/registry.ts';
import { INTERRUPTED_MESSAGE } from '../../platform/jobs/recovery.ts';
import { moduleJobs } from '../jobs.ts';
import { MAX_RESUMES } from './jobs.ts';
import { insertTask } from './repo.ts';
import { extraction, partFile } from './run.ts';
import { cleanupExpired } from './service.ts';

/**
 * Order-data export (issue 20; docs/order-export.md): the form's limits and messages, the task
 * through 0 → 1 → 2 → 4 → 5 → 7 → 9 with each change stored, the CSV and result pages matching
 * the warehouse, download refused before 9, the permission code, a task whose process died
 * resumed after its last written slice (failed once resumed as often as allowed).
 */
const kinds = await storeKinds();
const silent = pino({ level: 'silent' });
const BASE = { utype: 1, CUsertype: 1, outputSpid: 1, outputSpname: 1, outputOrdertime: 1, outputOrderchannelname: 1 };

describe.each(kinds)('order-data export on %s', (kind) => {
  let w: DatasetWorld;
  let jobs: Jobs;
  let admin: Headers;
  let phones: string[];

  const details = async (headers: Headers, taskId: number): Promise<OrderExportTask> =>
    (await call(w.server, 'GET', '/api/orderexport/details', { headers, query: { taskId } })).body.data;
  const finished = async (headers: Headers, taskId: number): Promise<OrderExportTask> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const t = await details(headers, taskId);
      if ([3, 6, 8, 9].includes(t.taskStatus1)) return t;
      if (Date.now() > deadline) throw new Error(`task ${taskId} still ${t.taskStatus1}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const addTxt = (headers: Headers, form: object, content: string, name = 'phones.txt') => {
    const body = multipart({ form: JSON.stringify(form) }, { name, content, contentType: 'text/plain' });
    return w.server.app.inject({ method: 'POST', url: '/api/orderexport/addtxt', headers: { ...headers, ...body.headers }, payload: body.payload });
  };

  beforeAll(async () => {
    w = await datasetWorld(kind);
    admin = w.admin;
    jobs = await Jobs.start(w.server.store, silent, moduleJobs(w.server.ctx, silent), { work: true, pollingIntervalSeconds: 0.5 });
    w.server.ctx.jobs = jobs;
    phones = (await w.direct('SELECT DISTINCT userid FROM v_order_data ORDER BY userid LIMIT 20')).map((r) => String(r.userid));
  }, 120_000);
  afterAll(async () => {
    await jobs?.stop();
    await w?.close();
  });

  it('refuses bad forms with the spec messages', async () => {
    const bad = async (payload: object) => (await call(w.server, 'POST', '/api/orderexport/add', { headers: admin, payload })).body;
    expect(await bad({ CUsertype: 1 })).toMatchObject({ code: 400, msg: '请选择' });
    expect(await bad({ utype: 1, CUsertype: 1 })).toMatchObject({ code: 400, msg: '请选择' });
    expect(await bad({ ...BASE, userId: '138000000001' })).toMatchObject({ code: 400, msg: '手机号最多11个字符' });
    expect(await bad({ ...BASE, userId: '13800000000', fetchflag1: 1, monthStart: '202601', monthEnd: '202607' })).toMatchObject({ msg: '请选择6个月范围内' });
    expect(await bad({ ...BASE, userId: '13800000000', spid: Array.from({ length: 11 }, (_, i) => String(900101 + i)) })).toMatchObject({
      msg: '最多选择10个',
    });
    const rename = await call(w.server, 'POST', '/api/orderexport/updatename', { headers: admin, payload: { taskId: 1, taskName: ' ' } });
    expect(rename.body).toMatchObject({ code: 400, msg: '请输入任务名称' });
    const xlsx = await addTxt(admin, { CUsertype: 1 }, '13800000000\n', 'phones.xlsx');
    expect(xlsx.json()).toMatchObject({ code: 400, msg: '只支持导入txt文件' });
    expect((await call(w.server, 'GET', '/api/orderexport/maxrows', { headers: admin })).body.data).toBe(1_000_000);
    await call(w.server, 'PUT', '/api/orderexport/settings', { headers: admin, payload: { maxRows: 3, retentionDays: 7 } });
    const tooMany = await addTxt(admin, { CUsertype: 1 }, '1\n2\n3\n4\n');
    expect(tooMany.json()).toMatchObject({ code: 400, msg: '手机号码不能超过3行' });
    await call(w.server, 'PUT', '/api/orderexport/settings', { headers: admin, payload: { maxRows: 1_000_000, retentionDays: 7 } });
    expect((await w.server.ctx.db.selectFrom('orderExportTask').select('id').execute()).length).toBe(0);
  });

  it('runs a batch through every status to a CSV whose rows are the warehouse rows', async () => {
    const form = { ...BASE, mcomment: '批量订购', outputProvince: 1, outPutIsCB: 1, fetchflag2: 1, monthStart: '202601', monthEnd: '202603' };
    const res = await addTxt(admin, form, `\ufeff${phones.join('\r\n')}\r\n${phones[0]}\r\n\r\n`);
    expect(res.json()).toMatchObject({ code: 200, msg: '已提交' });
    const taskId = res.json().data as number;
    const done = await finished(admin, taskId);
    expect(done.taskStatus1).toBe(9);
    expect(done.history.map((h) => h.status)).toEqual([0, 1, 2, 4, 5, 7, 9]);
    expect(done.history[2]!.rows).toBe(phones.length);
    const list = `'${phones.join("','")}'`;
    const expected = await w.direct(
      `SELECT v.userid, v.province, v.spid, v.shortname, strftime(v.ordertime, '%Y-%m-%d %H:%M:%S') AS t, v.orderchannelname,
              CASE WHEN v.canceltime IS NULL THEN '否' ELSE '是' END AS cb, COALESCE(u.f, 0) AS f
       FROM v_order_data v LEFT JOIN (SELECT phone, SUM(flow_mb) AS f FROM user_month_usage WHERE month BETWEEN '2026-01' AND '2026-03' GROUP BY phone) u ON u.phone = v.userid
       WHERE v.userid IN (${list})`,
    );
    expect(done.fetchedNums).toBe(expected.length);
    expect(expected.length).toBeGreaterThan(0);

    const file = await w.server.app.inject({ method: 'GET', url: '/api/orderexport/download', headers: admin, query: { taskId: String(taskId) } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain(encodeURIComponent('批量订购.csv'));
    expect(file.body.startsWith('\ufeff')).toBe(true);
    const lines = file.body.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe('手机号,省份,产品编码,产品名称,订购时间,订购渠道,是否退订,流量（MB）');
    const rowOf = (r: Record<string, unknown>) => [r.userid, r.province, r.spid, r.shortname, r.t, r.orderchannelname, r.cb, Number(r.f)].join(',');
    expect(lines.slice(1).sort()).toEqual(expected.map(rowOf).sort());

    const page = await call(w.server, 'GET', '/api/orderexport/pageresult', { headers: admin, query: { taskId, current: 2, size: 10 } });
    expect(page.body.data.total).toBe(expected.length);
    expect(page.body.data.records).toHaveLength(Math.min(10, Math.max(0, expected.length - 10)));
    expect(page.body.data.columns[0]).toEqual({ column: 'userid', title: '手机号' });
  });

  it('refuses a download before 9, names a file fetch_order_{id}, searches history, expires files', async () => {
    const userId = (await w.server.ctx.db.selectFrom('sysUser').select('id').where('account', '=', 'admin').executeTakeFirstOrThrow()).id;
    const waiting = await insertTask(w.server.ctx.db, {
      userId,
      mcomment: null,
      utype: 1,
      cusertype: 1,
      conditionJson: JSON.stringify({ ...BASE, userId: phones[0] }),
      phonesPath: null,
    });
    const early = await call(w.server, 'GET', '/api/orderexport/download', { headers: admin, query: { taskId: waiting } });
    expect(early).toMatchObject({ status: 409, body: { msg: '文件还未生成' } });

    const res = await call(w.server, 'POST', '/api/orderexport/add', { headers: admin, payload: { ...BASE, userId: phones[1] } });
    const done = await finished(admin, res.body.data);
    expect(done.taskStatus1).toBe(9);
    const file = await w.server.app.inject({ method: 'GET', url: '/api/orderexport/download', headers: admin, query: { taskId: String(done.taskId) } });
    expect(file.headers['content-disposition']).toContain(`fetch_order_${done.taskId}.csv`);
    await call(w.server, 'POST', '/api/orderexport/updatename', { headers: admin, payload: { taskId: done.taskId, taskName: '稍后查看' } });
    const found = await call(w.server, 'GET', '/api/orderexport/page', {
      headers: admin,
      query: { mcomment: '稍后', startTime: '2000-01-01', endTime: '2999-12-31' },
    });
    expect(found.body.data.records.map((t: OrderExportTask) => t.taskId)).toEqual([done.taskId]);
    const none = await call(w.server, 'GET', '/api/orderexport/page', { headers: admin, query: { mcomment: '稍后', endTime: '2000-01-01' } });
    expect(none.body.data.total).toBe(0);

    await cleanupExpired(w.server.ctx, silent, new Date(Date.now() + 8 * 86_400_000));
    const gone = await call(w.server, 'GET', '/api/orderexport/download', { headers: admin, query: { taskId: done.taskId } });
    expect(gone).toMatchObject({ status: 410, body: { msg: '文件已超过保留期限（7天）被清理，请重新提交查询' } });
    expect((await details(admin, done.taskId)).fileExpired).toBe(true);
  });

  it('lists channels, the province/area tree and the product tree from the warehouse', async () => {
    const res = await call(w.server, 'GET', '/api/orderexport/channels', { headers: admin });
    expect(res.status).toBe(200);
    const channels = res.body.data;
    expect(channels.channels.map((c: { title: string }) => c.title)).toContain('营业厅');
    expect(channels.belongs.length).toBeGreaterThan(0);
    const areas = (await call(w.server, 'GET', '/api/orderexport/areaTree', { headers: admin })).body.data;
    expect(areas).toHaveLength(31);
    expect(areas.find((p: { title: string }) => p.title === '广东').children.length).toBeGreaterThan(1);
    const products = (await call(w.server, 'GET', '/api/orderexport/areapRoductTree', { headers: admin })).body.data;
    expect(products).toHaveLength(4);
    expect(products[0].children).toHaveLength(3);
    expect(products[0].children[0].children[0].value).toMatch(/^p:9001\d\d$/);
  });

  it('answers 403 without the permission code order_export, and reads as a member with it', async () => {
    const plain = await w.member();
    expect((await call(w.server, 'GET', '/api/orderexport/page', { headers: plain.headers })).status).toBe(403);
    expect((await call(w.server, 'POST', '/api/orderexport/add', { headers: plain.headers, payload: { ...BASE, userId: phones[0] } })).status).toBe(403);
    const granted = await w.member(['order_export']);
    const noTables = await call(w.server, 'POST', '/api/orderexport/add', { headers: granted.headers, payload: { ...BASE, userId: phones[0] } });
    const refused = await finished(granted.headers, noTables.body.data);
    expect(refused).toMatchObject({ taskStatus1: 6, errorMsg: expect.stringContaining('的使用权限') });
    await w.group([granted.id], ['orders', 'cancellations', 'products']);
    const ok = await call(w.server, 'POST', '/api/orderexport/add', { headers: granted.headers, payload: { ...BASE, userId: phones[0] } });
    expect((await finished(granted.headers, ok.body.data)).taskStatus1).toBe(9);
    // Another user's task is not theirs.
    expect((await call(w.server, 'GET', '/api/orderexport/details', { headers: granted.headers, query: { taskId: refused.taskId - 1 } })).status).toBe(404);
  });

  it('the engine writes the slices itself (writesCsvFile); an engine without the capability gets the same file through the row path', async () => {
    const driver = await getDataSourceDriver(w.server.ctx, w.warehouseId);
    const copy = vi.spyOn(driver, 'copySelectToCsvFile');
    const condition = { ...BASE, userId: phones[2], outputProvince: 1, outPutIsCB: 1 };
    const run = async () => {
      const res = await call(w.server, 'POST', '/api/orderexport/add', { headers: admin, payload: condition });
      const done = await finished(admin, res.body.data);
      expect(done.taskStatus1).toBe(9);
      return (await download(done.taskId)).split('\r\n');
    };
    try {
      const engine = await run();
      expect(copy).toHaveBeenCalled();
      expect(engine[0]).toBe('\ufeff手机号,省份,产品编码,产品名称,订购时间,订购渠道,是否退订');
      const rows = await w.direct(`SELECT count(*) AS n FROM v_order_data WHERE userid = '${phones[2]}'`);
      expect(engine.filter(Boolean)).toHaveLength(Number(rows[0]!.n) + 1);

      copy.mockClear();
      const real = await driver.info();
      const info = vi.spyOn(driver, 'info').mockResolvedValue({ ...real, capabilities: { ...real.capabilities, writesCsvFile: false } });
      try {
        const rowPath = await run();
        expect(copy).not.toHaveBeenCalled();
        expect(rowPath[0]).toBe(engine[0]);
        expect(rowPath.slice(1).sort()).toEqual(engine.slice(1).sort());
      } finally {
        info.mockRestore();
      }
    } finally {
      copy.mockRestore();
    }
  });

  /** A task as a process killed while extracting leaves it: a run of a dead instance owns it, in status 4 with its checkpoint. */
  const interrupted = async (values: { progress: number; resumeBytes: number | null; resumeKey?: number; resumes?: number }, condition: object) => {
    const { db } = w.server.ctx;
    const userId = (await db.selectFrom('sysUser').select('id').where('account', '=', 'admin').executeTakeFirstOrThrow()).id;
    const id = await insertTask(db, { userId, mcomment: '中断', utype: 1, cusertype: 1, conditionJson: JSON.stringify(condition), phonesPath: null });
    const instanceId = randomUUID();
    const runId = randomUUID();
    await db
      .insertInto('jobInstance')
      .values({ id: instanceId, heartbeatAt: sql<Date>`now() - interval '120 seconds'` })
      .execute();
    await db
      .insertInto('jobRun')
      .values({ id: runId, instanceId, queue: 'order-export', jobId: randomUUID(), data: JSON.stringify({ taskId: id }) })
      .execute();
    await db
      .updateTable('orderExportTask')
      .set({
        taskStatus1: 4,
        progress: values.progress,
        resumeBytes: values.resumeBytes,
        resumeKey: values.resumeKey ?? null,
        resumes: values.resumes ?? 0,
        runId,
      })
      .where('id', '=', id)
      .execute();
    return { id, userId };
  };
  const download = async (taskId: number) =>
    (await w.server.app.inject({ method: 'GET', url: '/api/orderexport/download', headers: admin, query: { taskId: String(taskId) } })).rawPayload.toString(
      'utf8',
    );

  it('resumes a task whose process died while extracting after its last written slice, with exactly the right rows', async () => {
    const [busiest] = await w.direct('SELECT userid, count(*) AS n FROM v_order_data GROUP BY userid ORDER BY n DESC, userid LIMIT 1');
    const n = Number(busiest!.n);
    expect(n).toBeGreaterThanOrEqual(3);
    const ids = (await w.direct(`SELECT order_id FROM v_order_data WHERE userid = '${String(busiest!.userid)}' ORDER BY order_id`)).map((r) =>
      Number(r.order_id),
    );
    const condition = { ...BASE, userId: String(busiest!.userid), outputProvince: 1 };
    const { sliceIds, engineSliceIds } = extraction;
    // Slices of ids [1, ids[1]], [ids[1] + 1, 2 × ids[1]], …: the first holds exactly the phone's first two orders.
    extraction.sliceIds = extraction.engineSliceIds = ids[1]!;
    try {
      // The file an uninterrupted run writes.
      const whole = await call(w.server, 'POST', '/api/orderexport/add', { headers: admin, payload: condition });
      const reference = await download((await finished(admin, whole.body.data)).taskId);
      expect(reference.split('\r\n').filter(Boolean)).toHaveLength(n + 1);

      // Killed after its first slice (two rows) was written and checkpointed, and while the next was half written.
      const [header, first, second, third] = reference.split('\r\n');
      const kept = `${[header, first, second].join('\r\n')}\r\n`;
      const { id, userId } = await interrupted({ progress: 2, resumeBytes: Buffer.byteLength(kept), resumeKey: ids[1]! }, condition);
      await fs.promises.mkdir(path.join(w.server.ctx.config.dataDir, 'orderexport', String(userId)), { recursive: true });
      await fs.promises.writeFile(path.join(w.server.ctx.config.dataDir, partFile({ id, userId })), `${kept}${third!.slice(0, 5)}`);

      const done = await finished(admin, id);
      expect(done.taskStatus1).toBe(9);
      expect(done.history.map((h) => [h.status, h.rows])).toEqual([
        [0, 0],
        [4, 2],
        [5, n],
        [7, n],
        [9, n],
      ]);
      // Every row once: the two kept, the rest written after the checkpoint (a slice's rows come in the engine's order).
      const lines = (text: string) => text.split('\r\n').filter(Boolean);
      const resumed = await download(id);
      expect(resumed.startsWith(kept)).toBe(true);
      expect(lines(resumed).sort()).toEqual(lines(reference).sort());
    } finally {
      Object.assign(extraction, { sliceIds, engineSliceIds });
    }
  });

  it('fails the task of a run whose process died once it was resumed as often as allowed', async () => {
    const { id } = await interrupted({ progress: 20000, resumeBytes: null, resumes: MAX_RESUMES }, { ...BASE, userId: phones[0] });
    const deadline = Date.now() + 60_000;
    let task = await details(admin, id);
    while (task.taskStatus1 === 4 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      task = await details(admin, id);
    }
    expect(task).toMatchObject({ taskStatus1: 6, errorMsg: INTERRUPTED_MESSAGE });
    expect(task.history.at(-1)).toMatchObject({ status: 6, rows: 20000 });
  });
});
