import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiCall, apiLogin, eventually, startApp, type E2EApp } from './harness.ts';
import { createOrdersDataset } from './api-fixtures.ts';

interface Task {
  id: number;
  status: 'waiting' | 'running' | 'done' | 'failed';
  progress: number;
  rowCount: number;
  errMsg: string | null;
}

/** Orders in the demo warehouse: enough that writing them takes a while (progress every 5 000 rows). */
const ORDERS = 300_000;

/**
 * "Kill the server mid-export and restart" (issues 14, 27; docs/exports.md "Interrupted
 * exports"). The real server on the embedded store: an export of every order is SIGKILLed while
 * it writes; the restarted server hands the task back to the queue at start-up (its process is
 * gone) and writes the whole file without the user pressing 重试; one file is left.
 */
describe('an export interrupted by a crash', () => {
  let app: E2EApp | undefined;
  const env = { SHUTU_DEMO_SCALE: String(ORDERS) };
  afterAll(async () => {
    await app?.stop();
  });

  const taskOf = async (running: E2EApp, token: string, id: number) =>
    (await apiCall<{ records: Task[] }>(running, token, 'GET', '/api/export/tasks?current=1&size=50')).records.find((t) => t.id === id);

  it('runs again at the restart and writes the whole file, once, without a retry', async () => {
    app = await startApp(env);
    const dataDir = app.dataDir;
    let token = await apiLogin(app);
    const { cubeId, fieldIds: f } = await createOrdersDataset(app, token, { category: '导出恢复', name: '全部订单', publicStatus: 1 });
    const category = await apiCall<{ id: number }>(app, token, 'POST', '/api/board/categories', { kind: 'visual', categoryValue: '导出恢复' });
    const boardId = await apiCall<number>(app, token, 'POST', '/api/board/boards', {
      title: '全部订单',
      categoryId: category.id,
      content: { type: 'quick', layout: [{ i: 'd1', x: 0, y: 0, w: 24, h: 10 }] },
      charts: [
        {
          key: 'd1',
          name: 'detail',
          title: '全部订单明细',
          dataconfig: {
            cubeId,
            rowParamList: [{ fieldId: f['省份'] }, { fieldId: f['订单编号'] }, { fieldId: f['订购时间'] }],
            indexParamList: [{ fieldId: f['金额'] }],
            sortList: [{ fieldId: f['订单编号'], direction: 'ASC' }],
            pageSize: 10,
          },
        },
      ],
    });

    // The export runs: killed once it has written some rows.
    const created = await apiCall<Task>(app, token, 'POST', '/api/export/tasks', { boardId, chartKey: 'd1' });
    const first = app;
    const writing = await eventually(async () => {
      const task = await taskOf(first, token, created.id);
      if (task?.status === 'done' || task?.status === 'failed') throw new Error(`the export ended before the kill: ${JSON.stringify(task)}`);
      return task?.status === 'running' && task.rowCount > 0 ? task : undefined;
    }, 'the export to be writing rows');
    expect(writing.rowCount).toBeLessThan(ORDERS);
    await app.kill();

    // Restart on the same data: the task of the dead process is run again at start-up (its process
    // is gone: the embedded store is one process's), from the start, to every order — no 重试 needed.
    app = await startApp(env, { dataDir });
    const second = app;
    token = await apiLogin(app);
    const done = await eventually(
      async () => {
        const task = await taskOf(second, token, created.id);
        if (task?.status === 'failed') throw new Error(`the interrupted export failed instead of running again: ${task.errMsg}`);
        return task?.status === 'done' ? task : undefined;
      },
      'the interrupted export to be written again',
      240_000,
    );
    expect(done).toMatchObject({ status: 'done', progress: 100, rowCount: ORDERS, errMsg: null });
    const file = await fetch(`${app.url}/api/export/tasks/${created.id}/download`, { headers: { Authorization: `Bearer ${token}` } });
    expect(file.status).toBe(200);
    expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
    // One file: the killed run's half-written temp file is gone.
    const exports = path.join(dataDir, 'exports');
    const names = fs.readdirSync(exports, { recursive: true, encoding: 'utf8' }).filter((name) => path.basename(name).startsWith(`${created.id}.`));
    expect(names.map((name) => path.basename(name))).toEqual([`${created.id}.xlsx`]);
  }, 600_000);
});
