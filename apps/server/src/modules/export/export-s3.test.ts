import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardSave, ChartSave, DatasetSave, ExportTask } from '@shutu/contracts';
import { call } from '../../../test/fixtures.ts';
import { datasetWorld, fieldIds, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';
import { moduleJobs } from '../jobs.ts';
import { Jobs } from '../../platform/jobs/boss.ts';
import { startTestS3Server, type TestS3Server } from '../../platform/files/s3-test-server.ts';
import { cleanupExports } from './service.ts';

/**
 * Exports with the file storage in an S3 bucket (SHUTU_FILE_STORAGE=s3, docs/storage.md): the
 * job streams the workbook into the bucket, the download streams it back, deleting the task
 * and the expiry sweep remove the object; nothing is written under the data directory.
 */
const silent = pino({ level: 'silent' });

const orders = (workspaceId: number, datasourceId: number): DatasetSave => ({
  cubeData: { cubeName: '订单S3', workspaceId, cubeTableNames: [{ tableName: 'orders', tableAliasName: 'o' }], publicStatus: 0 },
  datasourceId,
  columnList: [
    { id: 'province', columnName: 'province', columnTitle: '省份', tableAliasName: 'o', columnAttr: 'NORMAL' },
    { id: 'orderId', columnName: 'order_id', columnTitle: '订单编号', tableAliasName: 'o', columnAttr: 'NORMAL', viewDataType: 'NUMBER' },
    { id: 'amount', columnName: 'amount', columnTitle: '金额', tableAliasName: 'o', columnAttr: 'NORMAL', viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' },
  ],
});

describe('exports in an S3 bucket', () => {
  let s3: TestS3Server;
  let w: DatasetWorld;
  let jobs: Jobs;
  let admin: Headers;
  let boardId: number;

  const finished = async (id: number): Promise<ExportTask> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await call(w.server, 'GET', '/api/export/tasks', { headers: admin, query: { size: 100 } });
      const t = (res.body.data.records as ExportTask[]).find((r) => r.id === id);
      if (t && (t.status === 'done' || t.status === 'failed')) return t;
      if (Date.now() > deadline) throw new Error(`export ${id} still ${t?.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const download = (id: number) => w.server.app.inject({ method: 'GET', url: `/api/export/tasks/${id}/download`, headers: admin });

  beforeAll(async () => {
    s3 = await startTestS3Server({ prefix: 'shutu/' });
    w = await datasetWorld('pglite');
    // The server's file setting points at the bucket before any export is written.
    w.server.ctx.config.files = s3.config;
    admin = w.admin;
    jobs = await Jobs.start(w.server.store, silent, moduleJobs(w.server.ctx, silent), { work: true, pollingIntervalSeconds: 0.5 });
    w.server.ctx.jobs = jobs;
    const ws = await w.category('导出S3');
    const cubeId = (await w.save(admin, orders(ws, w.warehouseId))).body.data as number;
    const f = await fieldIds(w.server, admin, cubeId);
    const detail: ChartSave = {
      key: 'd1',
      name: 'detail',
      title: '订单明细',
      dataconfig: {
        cubeId,
        rowParamList: [{ fieldId: f['省份']! }, { fieldId: f['订单编号']! }],
        indexParamList: [{ fieldId: f['金额']! }],
        sortList: [{ fieldId: f['订单编号']!, direction: 'ASC' }],
      },
    };
    const categoryId = (await call(w.server, 'POST', '/api/board/categories', { headers: admin, payload: { kind: 'visual', categoryValue: '导出S3' } })).body
      .data.id;
    const payload: BoardSave = { title: '导出到桶', categoryId, content: { type: 'quick', layout: [{ i: 'd1', x: 0, y: 0, w: 12, h: 6 }] }, charts: [detail] };
    const saved = await call(w.server, 'POST', '/api/board/boards', { headers: admin, payload });
    expect(saved.status, saved.raw.body).toBe(200);
    boardId = saved.body.data;
  }, 180_000);

  afterAll(async () => {
    await jobs?.stop();
    await w?.close();
    await s3?.stop();
  });

  it('writes the workbook and the CSV into the bucket and downloads them from there', async () => {
    const xlsx = await finished((await call(w.server, 'POST', '/api/export/tasks', { headers: admin, payload: { boardId, chartKey: 'd1' } })).body.data.id);
    const csv = await finished(
      (await call(w.server, 'POST', '/api/export/tasks', { headers: admin, payload: { boardId, chartKey: 'd1', format: 'csv' } })).body.data.id,
    );
    expect(xlsx).toMatchObject({ status: 'done', errMsg: null });
    expect(csv).toMatchObject({ status: 'done', errMsg: null });
    const keys = s3.objectKeys();
    expect(
      keys.some((k) => new RegExp(`^shutu/exports/\\d+/${xlsx.id}\\.xlsx$`).test(k)),
      keys.join(),
    ).toBe(true);
    expect(
      keys.some((k) => new RegExp(`^shutu/exports/\\d+/${csv.id}\\.csv$`).test(k)),
      keys.join(),
    ).toBe(true);
    expect(fs.existsSync(path.join(w.server.ctx.config.dataDir, 'exports'))).toBe(false);

    const book = new ExcelJS.Workbook();
    const file = await download(xlsx.id);
    expect(file.statusCode).toBe(200);
    expect(Number(file.headers['content-length'])).toBe(xlsx.fileSize);
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets[0]!.rowCount).toBe(xlsx.rowCount! + 1);
    expect((book.worksheets[0]!.getRow(1).values as unknown[]).slice(1)).toEqual(['省份', '订单编号', '金额']);

    // A resumed download: the asked bytes only, read as a range of the object.
    const part = await w.server.app.inject({ method: 'GET', url: `/api/export/tasks/${xlsx.id}/download`, headers: { ...admin, range: 'bytes=10-19' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-19/${xlsx.fileSize}`);
    expect(part.rawPayload.equals(file.rawPayload.subarray(10, 20))).toBe(true);
    const past = await w.server.app.inject({
      method: 'GET',
      url: `/api/export/tasks/${xlsx.id}/download`,
      headers: { ...admin, range: `bytes=${xlsx.fileSize}-` },
    });
    expect([past.statusCode, past.headers['content-range']]).toEqual([416, `bytes */${xlsx.fileSize}`]);

    const text = (await download(csv.id)).rawPayload.toString('utf8');
    expect(text.startsWith('\ufeff省份,订单编号,金额\r\n')).toBe(true);
    expect(text.trimEnd().split('\r\n')).toHaveLength(csv.rowCount! + 1);
  });

  it('deleting a task and the expiry sweep remove its object from the bucket', async () => {
    const one = await finished(
      (await call(w.server, 'POST', '/api/export/tasks', { headers: admin, payload: { boardId, chartKey: 'd1', format: 'csv' } })).body.data.id,
    );
    const two = await finished(
      (await call(w.server, 'POST', '/api/export/tasks', { headers: admin, payload: { boardId, chartKey: 'd1', format: 'csv' } })).body.data.id,
    );
    const inBucket = (id: number) => s3.objectKeys().some((k) => k.endsWith(`/${id}.csv`));
    expect(inBucket(one.id) && inBucket(two.id)).toBe(true);
    expect((await call(w.server, 'DELETE', `/api/export/tasks/${one.id}`, { headers: admin })).status).toBe(200);
    expect(inBucket(one.id)).toBe(false);
    expect((await download(one.id)).statusCode).toBe(404);
    // Eight days on, every task goes with its object.
    await cleanupExports(w.server.ctx, silent, new Date(Date.now() + 8 * 86_400_000));
    expect(inBucket(two.id)).toBe(false);
    expect(s3.objectKeys().filter((k) => k.startsWith('shutu/exports/'))).toEqual([]);
  });
});
