import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportTask } from '@shutu/contracts';
import { storeKinds } from '../../../test/harness.ts';
import { call } from '../../../test/fixtures.ts';
import { datasetWorld, fieldIds, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';
import { moduleJobs } from '../jobs.ts';
import { Jobs } from '../../platform/jobs/boss.ts';
import { INTERRUPTED_MESSAGE } from '../../platform/jobs/recovery.ts';
import { fileStorage, keyOfPath } from '../../platform/files/storage.ts';
import type { LocalFileStorage } from '../../platform/files/storage-local.ts';
import { MAX_AUTOMATIC_RERUNS } from './recovery.ts';
import { insertTask, updateTask } from './repo.ts';
import { exportFilePath } from './run-export.ts';

/**
 * An export whose process died (issues 14, 27; docs/exports.md "Interrupted exports"): the task
 * of a run whose process stopped heart-beating goes back to the queue within the recovery sweep
 * and is written again, once, to a full file (the dead run's partial file removed); after
 * MAX_AUTOMATIC_RERUNS it fails with a reason and the owner retries it; a live process's running
 * task is left alone.
 */
const kinds = await storeKinds();
const silent = pino({ level: 'silent' });

describe.each(kinds)('interrupted exports on %s', (kind) => {
  let w: DatasetWorld;
  let jobs: Jobs;
  let admin: Headers;
  let boardId: number;

  const tasks = async (headers: Headers): Promise<ExportTask[]> =>
    (await call(w.server, 'GET', '/api/export/tasks', { headers, query: { size: 100 } })).body.data.records;
  const task = async (headers: Headers, id: number) => (await tasks(headers)).find((t) => t.id === id);
  const finished = async (headers: Headers, id: number): Promise<ExportTask> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const t = await task(headers, id);
      if (t && (t.status === 'done' || t.status === 'failed')) return t;
      if (Date.now() > deadline) throw new Error(`export ${id} still ${t?.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  /** A task some process claimed and is writing (as run `runId` of `instanceId`, heart-beating `ago` ago). */
  const runningTask = async (userId: number, instanceId: string, heartbeatAgoSeconds: number, reruns = 0): Promise<number> => {
    const { db } = w.server.ctx;
    const id = await insertTask(db, { userId, boardId, chartKey: 'd1', fileName: `订单-${instanceId}.xlsx`, request: '{}' });
    const runId = randomUUID();
    await db
      .insertInto('jobInstance')
      .values({ id: instanceId, heartbeatAt: sql<Date>`now() - ${heartbeatAgoSeconds} * interval '1 second'` })
      .execute();
    await db
      .insertInto('jobRun')
      .values({ id: runId, instanceId, queue: 'chart-export', jobId: randomUUID(), data: JSON.stringify(reruns ? { taskId: id, reruns } : { taskId: id }) })
      .execute();
    await db
      .updateTable('exportTask')
      .set({ status: 'running', startTime: new Date(), progress: 6, rowCount: 5000, totalRows: 80000, runId })
      .where('id', '=', id)
      .execute();
    return id;
  };

  beforeAll(async () => {
    w = await datasetWorld(kind);
    admin = w.admin;
    jobs = await Jobs.start(w.server.store, silent, moduleJobs(w.server.ctx, silent), { work: true, pollingIntervalSeconds: 0.5 });
    w.server.ctx.jobs = jobs;
    const ws = await w.category('导出恢复');
    const cubeId = (
      await w.save(admin, {
        cubeData: { cubeName: '订单恢复', workspaceId: ws, cubeTableNames: [{ tableName: 'orders', tableAliasName: 'o' }], publicStatus: 0 },
        datasourceId: w.warehouseId,
        columnList: [
          { id: 'province', columnName: 'province', columnTitle: '省份', tableAliasName: 'o', columnAttr: 'NORMAL' },
          { id: 'orderId', columnName: 'order_id', columnTitle: '订单编号', tableAliasName: 'o', columnAttr: 'NORMAL', viewDataType: 'NUMBER' },
          {
            id: 'amount',
            columnName: 'amount',
            columnTitle: '金额',
            tableAliasName: 'o',
            columnAttr: 'NORMAL',
            viewDataType: 'NUMBER',
            dimensionType: 'ZHIBIAO',
          },
        ],
      })
    ).body.data as number;
    const f = await fieldIds(w.server, admin, cubeId);
    const categoryId = (await call(w.server, 'POST', '/api/board/categories', { headers: admin, payload: { kind: 'visual', categoryValue: '导出恢复' } })).body
      .data.id;
    const saved = await call(w.server, 'POST', '/api/board/boards', {
      headers: admin,
      payload: {
        title: '恢复大屏',
        categoryId,
        content: { type: 'quick', layout: [{ i: 'd1', x: 0, y: 0, w: 12, h: 6 }] },
        charts: [
          {
            key: 'd1',
            name: 'detail',
            title: '订单明细',
            dataconfig: {
              cubeId,
              rowParamList: [{ fieldId: f['省份']! }, { fieldId: f['订单编号']! }],
              indexParamList: [{ fieldId: f['金额']! }],
              sortList: [{ fieldId: f['订单编号']!, direction: 'ASC' }],
              pageSize: 20,
            },
          },
        ],
      },
    });
    expect(saved.status, saved.raw.body).toBe(200);
    boardId = saved.body.data;
  }, 180_000);
  afterAll(async () => {
    await jobs?.stop();
    await w?.close();
  });

  it('hands the task of a dead process back to the queue: written again once, to one full file, the partial file removed', async () => {
    const me = (await call(w.server, 'GET', '/api/profile', { headers: admin })).body.data.id as number;
    const dead = await runningTask(me, 'crashed-process', 120);
    const live = await runningTask(me, 'other-live-process', 1);
    // The dead run had begun its file: a storage temp file beside the task's key.
    const storage = fileStorage(w.server.ctx) as LocalFileStorage;
    const finalFile = storage.pathOf(keyOfPath(exportFilePath(me, dead)));
    fs.mkdirSync(path.dirname(finalFile), { recursive: true });
    const partial = `${finalFile}.0123456789ab.tmp`;
    fs.writeFileSync(partial, 'half a workbook');

    expect(await jobs.recover()).toBe(1);
    expect(fs.existsSync(partial)).toBe(false);
    // Another process, heart-beating, is still writing its export: untouched.
    expect(await task(admin, live)).toMatchObject({ status: 'running', progress: 6, errMsg: null, finishTime: null });
    expect(await jobs.recover()).toBe(0);

    const done = await finished(admin, dead);
    expect(done).toMatchObject({ status: 'done', progress: 100, errMsg: null });
    const counted = await w.direct('select count(*) as n from orders');
    expect(done.rowCount).toBe(Number(counted[0]!.n));
    const file = await w.server.app.inject({ method: 'GET', url: `/api/export/tasks/${dead}/download`, headers: admin });
    expect(file.statusCode).toBe(200);
    expect(fs.readdirSync(path.dirname(finalFile)).filter((name) => name.startsWith(`${dead}.`))).toEqual([`${dead}.xlsx`]);
  });

  it('fails a task interrupted again after its automatic re-runs with a reason, and lets the owner retry it', async () => {
    const me = (await call(w.server, 'GET', '/api/profile', { headers: admin })).body.data.id as number;
    const dead = await runningTask(me, 'crashed-again', 120, MAX_AUTOMATIC_RERUNS);
    expect(await jobs.recover()).toBe(1);
    expect(await task(admin, dead)).toMatchObject({ status: 'failed', errMsg: INTERRUPTED_MESSAGE, finishTime: expect.any(String) });

    // 重试: the same task runs again, from the start, to a full file.
    const retried = await call(w.server, 'POST', `/api/export/tasks/${dead}/retry`, { headers: admin });
    expect(retried.status, retried.raw.body).toBe(200);
    expect(retried.body.msg).toBe('已重新提交导出任务');
    expect(retried.body.data).toMatchObject({ id: dead, status: 'waiting', progress: 0, rowCount: 0, errMsg: null, finishTime: null });
    const done = await finished(admin, dead);
    expect(done).toMatchObject({ status: 'done', progress: 100, errMsg: null });
    const file = await w.server.app.inject({ method: 'GET', url: `/api/export/tasks/${dead}/download`, headers: admin });
    expect(file.statusCode).toBe(200);

    // Only failed tasks are retried, and only by their owner.
    const again = await call(w.server, 'POST', `/api/export/tasks/${dead}/retry`, { headers: admin });
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe('只有失败的导出任务可以重试');
    const other = await w.member();
    const foreign = await call(w.server, 'POST', `/api/export/tasks/${dead}/retry`, { headers: other.headers });
    expect(foreign.status).toBe(404);
    expect(foreign.body.msg).toBe('导出任务不存在');
  });

  it('ignores a run taken over for dead that turns out alive: its progress and outcome change nothing', async () => {
    const me = (await call(w.server, 'GET', '/api/profile', { headers: admin })).body.data.id as number;
    const id = await runningTask(me, 'stalled-process', 300);
    const { runId } = await w.server.ctx.db.selectFrom('exportTask').select('runId').where('id', '=', id).executeTakeFirstOrThrow();
    expect(await updateTask(w.server.ctx.db, id, { progress: 50 }, runId)).toBe(true);
    expect(await jobs.recover()).toBe(1);
    // Handed back to the queue under no run: the stalled process comes back and reports progress, then done: nothing changes.
    expect(await updateTask(w.server.ctx.db, id, { progress: 60 }, runId)).toBe(false);
    expect(await updateTask(w.server.ctx.db, id, { status: 'done', progress: 100 }, runId)).toBe(false);
    // The task is the re-run's: written in full by a live process.
    const counted = await w.direct('select count(*) as n from orders');
    expect(await finished(admin, id)).toMatchObject({ status: 'done', progress: 100, errMsg: null, rowCount: Number(counted[0]!.n) });
  });
});
