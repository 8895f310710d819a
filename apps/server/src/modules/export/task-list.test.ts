import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskEntry } from '@shutu/contracts';
import { createTestServer, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call, createUser } from '../../../test/fixtures.ts';

/**
 * 任务管理 (docs/exports.md "任务管理"): the caller's chart exports and slideshow PDFs in one
 * list, newest first across both, with a kind; a failed PDF is retried like an export (the same
 * task back to waiting, its job sent again), by its owner only.
 */
const kinds = await storeKinds();
type Headers = Record<string, string>;

describe.each(kinds)('任务管理 on %s', (kind) => {
  let server: TestServer;
  let admin: Headers;
  let me: { id: number; headers: Headers };
  let other: { id: number; headers: Headers };
  const sent: { name: string; data: unknown }[] = [];
  const at = (minutes: number) => new Date(Date.UTC(2026, 4, 1, 8, minutes));

  beforeAll(async () => {
    server = await createTestServer(kind);
    // A job queue that only records what is sent: nothing renders here.
    server.ctx.jobs = {
      send: async (name: string, data: unknown) => {
        sent.push({ name, data });
        return null;
      },
    } as unknown as NonNullable<typeof server.ctx.jobs>;
    admin = await server.login();
    const member = async () => {
      const created = await createUser(server, admin);
      return { id: created.id, headers: await server.login(created.account, created.password) };
    };
    me = await member();
    other = await member();
    const db = server.ctx.db;
    const ppt = await db
      .insertInto('ppt')
      .values({ ppName: '月度经营汇报', visualIds: '[]', settings: '{}', visualType: 0, createUserId: me.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Two exports and two PDFs of mine, interleaved in time; one PDF of someone else.
    await db
      .insertInto('exportTask')
      .values([
        { userId: me.id, boardId: 999_999, chartKey: 'c1', fileName: '各省金额.xlsx', request: '{}', status: 'done', progress: 100, createTime: at(1) },
        {
          userId: me.id,
          boardId: 999_999,
          chartKey: 'c2',
          fileName: '各省金额.csv',
          format: 'csv',
          request: '{}',
          status: 'running',
          progress: 40,
          createTime: at(3),
        },
      ])
      .execute();
    const pdf = (id: string, userId: number, minutes: number, extra: Record<string, unknown>) => ({
      id,
      userId,
      pptId: ppt.id,
      fileName: '月度经营汇报.pdf',
      boardIds: '[1,2]',
      pages: 2,
      createTime: at(minutes),
      ...extra,
    });
    await db
      .insertInto('pptPdfTask')
      .values([
        pdf('00000000-0000-4000-8000-000000000001', me.id, 2, {
          status: 'failed',
          rendered: 1,
          errMsg: '服务重启或异常退出，任务已中断，请重试',
          finishTime: at(2),
        }),
        pdf('00000000-0000-4000-8000-000000000002', me.id, 4, { status: 'running', rendered: 1 }),
        pdf('00000000-0000-4000-8000-000000000003', other.id, 5, { status: 'failed', rendered: 0, errMsg: 'PDF 导出失败' }),
      ])
      .execute();
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const list = async (headers: Headers, query: Record<string, string | number> = {}) => {
    const res = await call(server, 'GET', '/api/export/all-tasks', { headers, query });
    expect(res.status, res.raw.body).toBe(200);
    return res.body.data as { total: number; records: TaskEntry[] };
  };

  it('lists my exports and slideshow PDFs together, newest first, paged across both', async () => {
    const all = await list(me.headers);
    expect(all.total).toBe(4);
    expect(all.records.map((t) => [t.kind, t.fileName, t.status, t.progress])).toEqual([
      ['pdf', '月度经营汇报.pdf', 'running', 50],
      ['chart', '各省金额.csv', 'running', 40],
      ['pdf', '月度经营汇报.pdf', 'failed', 50],
      ['chart', '各省金额.xlsx', 'done', 100],
    ]);
    expect(all.records[0]).toMatchObject({ source: '月度经营汇报', id: '00000000-0000-4000-8000-000000000002', pages: 2, rowCount: null });
    expect(all.records[1]).toMatchObject({ sourceId: 999_999, pages: null, rowCount: 0 });
    // A board that is gone: no source (shown as 报表已删除).
    expect(all.records[1]!.source).toBeNull();
    const second = await list(me.headers, { current: 2, size: 3 });
    expect(second.records.map((t) => t.fileName)).toEqual(['各省金额.xlsx']);
    expect((await list(me.headers, { status: 'failed' })).records.map((t) => t.kind)).toEqual(['pdf']);
    expect((await list(me.headers, { kind: 'chart' })).total).toBe(2);
    // Someone else's tasks are never listed.
    expect((await list(other.headers)).records.map((t) => t.id)).toEqual(['00000000-0000-4000-8000-000000000003']);
  });

  it('retries a failed PDF as the same task, by its owner only, and refuses tasks that have not failed', async () => {
    const failed = '00000000-0000-4000-8000-000000000001';
    const foreign = await call(server, 'POST', `/api/ppt/pdf-tasks/${failed}/retry`, { headers: other.headers });
    expect([foreign.status, foreign.body.msg]).toEqual([404, '导出任务不存在']);
    const running = await call(server, 'POST', '/api/ppt/pdf-tasks/00000000-0000-4000-8000-000000000002/retry', { headers: me.headers });
    expect([running.status, running.body.msg]).toEqual([400, '只有失败的导出任务可以重试']);

    const retried = await call(server, 'POST', `/api/ppt/pdf-tasks/${failed}/retry`, { headers: me.headers });
    expect(retried.status, retried.raw.body).toBe(200);
    expect(retried.body.msg).toBe('已重新提交导出任务');
    expect(retried.body.data).toMatchObject({ id: failed, status: 'waiting', rendered: 0, errMsg: null });
    expect(sent.at(-1)).toEqual({ name: 'ppt-pdf', data: { taskId: failed } });
    const row = await server.ctx.db.selectFrom('pptPdfTask').selectAll().where('id', '=', failed).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'waiting', runId: null, finishTime: null, filePath: null });
    expect((await list(me.headers, { status: 'failed' })).total).toBe(0);

    const again = await call(server, 'POST', `/api/ppt/pdf-tasks/${failed}/retry`, { headers: me.headers });
    expect(again.status).toBe(400);
  });

  it('deletes a PDF task of mine, and nobody else’s', async () => {
    const theirs = '00000000-0000-4000-8000-000000000003';
    expect((await call(server, 'DELETE', `/api/ppt/pdf-tasks/${theirs}`, { headers: me.headers })).status).toBe(404);
    const removed = await call(server, 'DELETE', `/api/ppt/pdf-tasks/${theirs}`, { headers: other.headers });
    expect([removed.status, removed.body.msg]).toEqual([200, '删除成功']);
    expect((await list(other.headers)).total).toBe(0);
  });
});
