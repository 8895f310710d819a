import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderExportTask } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { call } from '../../../test/fixtures.ts';
import { multipart } from '../../../test/multipart.ts';
import { datasetWorld, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';
import { Jobs } from '../../platform/jobs/boss.ts';
import { startTestS3Server, type TestS3Server } from '../../platform/files/s3-test-server.ts';
import { closeFileStorage } from '../../platform/files/storage.ts';
import { moduleJobs } from '../jobs.ts';
import { insertTask } from './repo.ts';
import { cleanupExpired, downloadFile, resultPage } from './service.ts';

/**
 * Order-data exports with the file storage in an S3 bucket (issue 27; docs/order-export.md): the
 * uploaded phone list and the finished CSV are objects in the bucket, nothing stays under the data
 * directory, the download (with Range) and the result pages come from the bucket — also for a
 * second context with a data directory of its own (another process) — and the retention sweep
 * removes the objects.
 */
const silent = pino({ level: 'silent' });
const BASE = { CUsertype: 1, outputSpid: 1, outputSpname: 1, outputOrdertime: 1, outputOrderchannelname: 1 };

describe('order-data export in an S3 bucket', () => {
  let s3: TestS3Server;
  let w: DatasetWorld;
  let jobs: Jobs;
  let admin: Headers;
  let phones: string[];

  const finished = async (taskId: number): Promise<OrderExportTask> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const t = (await call(w.server, 'GET', '/api/orderexport/details', { headers: admin, query: { taskId } })).body.data as OrderExportTask;
      if ([3, 6, 8, 9].includes(t.taskStatus1)) return t;
      if (Date.now() > deadline) throw new Error(`task ${taskId} still ${t.taskStatus1}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const download = (taskId: number, range?: string) =>
    w.server.app.inject({
      method: 'GET',
      url: '/api/orderexport/download',
      headers: { ...admin, ...(range ? { range } : {}) },
      query: { taskId: String(taskId) },
    });
  const localFiles = () => {
    const dir = path.join(w.server.ctx.config.dataDir, 'orderexport');
    return fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => /\.(csv|txt)$/.test(f)) : [];
  };

  beforeAll(async () => {
    s3 = await startTestS3Server({ prefix: 'shutu/' });
    w = await datasetWorld('pglite');
    w.server.ctx.config.files = s3.config;
    admin = w.admin;
    jobs = await Jobs.start(w.server.store, silent, moduleJobs(w.server.ctx, silent), { work: true, pollingIntervalSeconds: 0.5 });
    w.server.ctx.jobs = jobs;
    phones = (await w.direct('SELECT DISTINCT userid FROM v_order_data ORDER BY userid LIMIT 20')).map((r) => String(r.userid));
  }, 180_000);

  afterAll(async () => {
    await jobs?.stop();
    await w?.close();
    await s3?.stop();
  });

  it('stores the phone list and the CSV in the bucket; download, Range and result pages read it there, from another context too', async () => {
    const body = multipart(
      { form: JSON.stringify({ ...BASE, mcomment: '桶里的批量' }) },
      { name: 'phones.txt', content: `${phones.join('\n')}\n`, contentType: 'text/plain' },
    );
    const res = await w.server.app.inject({ method: 'POST', url: '/api/orderexport/addtxt', headers: { ...admin, ...body.headers }, payload: body.payload });
    expect(res.json()).toMatchObject({ code: 200, msg: '已提交' });
    const taskId = res.json().data as number;
    const done = await finished(taskId);
    expect(done).toMatchObject({ taskStatus1: 9, errorMsg: null });
    expect(done.history.map((h) => h.status)).toEqual([0, 1, 2, 4, 5, 7, 9]);
    expect(done.history[2]!.rows).toBe(phones.length);
    const expected = await w.direct(`SELECT count(*) AS n FROM v_order_data WHERE userid IN ('${phones.join("','")}')`);
    expect(done.fetchedNums).toBe(Number(expected[0]!.n));
    expect(done.fetchedNums).toBeGreaterThan(0);

    // The objects are in the bucket under the prefix; the data directory keeps neither the list nor the CSV (nor the working file).
    const keys = s3.objectKeys();
    expect(
      keys.some((k) => new RegExp(`^shutu/orderexport/\\d+/${taskId}\\.csv$`).test(k)),
      keys.join(),
    ).toBe(true);
    expect(
      keys.some((k) => new RegExp(`^shutu/orderexport/\\d+/${taskId}\\.txt$`).test(k)),
      keys.join(),
    ).toBe(true);
    expect(localFiles()).toEqual([]);

    const file = await download(taskId);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain(encodeURIComponent('桶里的批量.csv'));
    const text = file.rawPayload.toString('utf8');
    expect(text.startsWith('\ufeff手机号,产品编码,产品名称,订购时间,订购渠道\r\n')).toBe(true);
    expect(text.trimEnd().split('\r\n')).toHaveLength(done.fetchedNums! + 1);
    expect(Number(file.headers['content-length'])).toBe(file.rawPayload.length);

    // A resumed download: the asked bytes of the object; past the end 416.
    const part = await download(taskId, 'bytes=10-19');
    expect([part.statusCode, part.headers['content-range']]).toEqual([206, `bytes 10-19/${file.rawPayload.length}`]);
    expect(part.rawPayload.equals(file.rawPayload.subarray(10, 20))).toBe(true);
    const past = await download(taskId, `bytes=${file.rawPayload.length}-`);
    expect([past.statusCode, past.headers['content-range']]).toEqual([416, `bytes */${file.rawPayload.length}`]);

    const page = await call(w.server, 'GET', '/api/orderexport/pageresult', { headers: admin, query: { taskId, current: 1, size: 10 } });
    expect(page.body.data.total).toBe(done.fetchedNums);
    expect(page.body.data.records[0].userid).toBe(text.split('\r\n')[1]!.split(',')[0]);

    // Another process: its own context and data directory (nothing of this task on its disk), the same store and bucket.
    const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-other-'));
    const other: AppContext = { ...w.server.ctx, config: { ...w.server.ctx.config, dataDir: otherDir } };
    try {
      const userId = (await w.server.ctx.db.selectFrom('sysUser').select('id').where('account', '=', 'admin').executeTakeFirstOrThrow()).id;
      const served = await downloadFile(other, userId, taskId);
      const chunks: Buffer[] = [];
      for await (const chunk of served.body!) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(file.rawPayload)).toBe(true);
      const otherPage = await resultPage(other, userId, { taskId, current: 1, size: 10 });
      expect(otherPage.records).toEqual(page.body.data.records);
    } finally {
      await closeFileStorage(other);
      fs.rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it('a task whose process died in step 7 resumes on a process without its working file by extracting again', async () => {
    const { db } = w.server.ctx;
    const userId = (await db.selectFrom('sysUser').select('id').where('account', '=', 'admin').executeTakeFirstOrThrow()).id;
    const condition = { ...BASE, utype: 1, userId: phones[2] };
    const id = await insertTask(db, { userId, mcomment: '换进程', utype: 1, cusertype: 1, conditionJson: JSON.stringify(condition), phonesPath: null });
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
    await db.updateTable('orderExportTask').set({ taskStatus1: 7, progress: 5, runId }).where('id', '=', id).execute();
    const done = await finished(id);
    const expected = await w.direct(`SELECT count(*) AS n FROM v_order_data WHERE userid = '${phones[2]}'`);
    expect(done).toMatchObject({ taskStatus1: 9, fetchedNums: Number(expected[0]!.n) });
    expect(s3.objectKeys().some((k) => k.endsWith(`/${id}.csv`))).toBe(true);
    expect((await download(id)).rawPayload.toString('utf8').trimEnd().split('\r\n')).toHaveLength(Number(expected[0]!.n) + 1);
  });

  it('the retention sweep removes the objects and the task answers 410 afterwards', async () => {
    const res = await call(w.server, 'POST', '/api/orderexport/add', { headers: admin, payload: { ...BASE, utype: 1, userId: phones[1] } });
    const done = await finished(res.body.data);
    expect(done.taskStatus1).toBe(9);
    expect(s3.objectKeys().some((k) => k.endsWith(`/${done.taskId}.csv`))).toBe(true);
    await cleanupExpired(w.server.ctx, silent, new Date(Date.now() + 8 * 86_400_000));
    expect(s3.objectKeys().filter((k) => k.startsWith('shutu/orderexport/'))).toEqual([]);
    const gone = await call(w.server, 'GET', '/api/orderexport/download', { headers: admin, query: { taskId: done.taskId } });
    expect(gone).toMatchObject({ status: 410, body: { msg: '文件已超过保留期限（7天）被清理，请重新提交查询' } });
  });
});
