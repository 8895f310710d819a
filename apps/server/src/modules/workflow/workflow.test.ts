import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKFLOW_PATHS as P, workflowMessages } from '@shutu/contracts';
import { createTestServer, reopenableTestStore, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call, createUser } from '../../../test/fixtures.ts';
import { decodeMimeHeader, startSmtpServer, type LocalSmtpServer } from '../../../test/notify-servers.ts';
import { buildApp } from '../../app.ts';
import type { AppContext } from '../../context.ts';
import { md5Hex } from '../../platform/auth/password.ts';
import { loadConfig } from '../../platform/config.ts';
import { FIRST_ADMIN, seed } from '../../platform/db/seed.ts';
import { migrateToLatest, type MetadataStore } from '../../platform/db/store.ts';

/**
 * The leave process end to end through the API (issue 23): start, to-do, 403 for anyone but the
 * assignee, approve / reject with the history, a second completion refused, withdraw, transfer
 * with the email notice, and the instance surviving a server restart between start and approval.
 */
const kinds = await storeKinds();
type Headers = Record<string, string>;

const leave = (processDefinitionId: string, taskUser: number, extra: Record<string, unknown> = {}) => ({
  processDefinitionId,
  taskUser,
  startTime: '2026-12-01 09:00:00',
  endTime: '2026-12-02 18:00:00',
  reason: '回老家办事',
  ...extra,
});

describe.each(kinds)('approval workflow on %s', (kind) => {
  let server: TestServer;
  let smtp: LocalSmtpServer;
  let admin: Headers;
  const users: Record<'applicant' | 'approver' | 'other', { id: number; headers: Headers }> = {} as never;
  let definitionId: string;

  beforeAll(async () => {
    [server, smtp] = await Promise.all([createTestServer(kind), startSmtpServer()]);
    admin = await server.login();
    for (const role of ['applicant', 'approver', 'other'] as const) {
      const created = await createUser(server, admin, { name: { applicant: '张三', approver: '李四', other: '王五' }[role], email: `${role}@example.com` });
      users[role] = { id: created.id, headers: await server.login(created.account, created.password) };
    }
    const settings = await call(server, 'PUT', '/api/system/notify', {
      headers: admin,
      payload: { smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpSecure: false, smtpUser: '', smtpPassword: '', smtpFrom: 'shutu@example.com' },
    });
    expect(settings.status, settings.raw.body).toBe(200);
    server.ctx.selfUrl = 'http://127.0.0.1:3000';
    const list = await call(server, 'GET', P.startList, { headers: users.applicant.headers });
    expect(list.body.data).toEqual([expect.objectContaining({ processDefinitionKey: 'leave', name: '请假流程', version: 1 })]);
    definitionId = list.body.data[0].processDefinitionId;
    expect(definitionId).toMatch(/^leave:1:[0-9a-f]{12}$/);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([server?.close(), smtp?.close()]);
  });

  const start = async (extra: Record<string, unknown> = {}) => {
    const res = await call(server, 'POST', P.leaveStart, { headers: users.applicant.headers, payload: leave(definitionId, users.approver.id, extra) });
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body.msg).toBe(workflowMessages.started);
    return res.body.data as { processInstanceId: string; businessId: string };
  };
  const todo = async (headers: Headers) =>
    (await call(server, 'GET', P.todoList, { headers })).body.data.records as { taskId: string; processInstanceId: string }[];
  const taskOf = async (headers: Headers, processInstanceId: string) => (await todo(headers)).find((t) => t.processInstanceId === processInstanceId)!.taskId;
  const complete = (headers: Headers, payload: Record<string, unknown>) => call(server, 'POST', P.completeTask, { headers, payload });
  const history = async (processInstanceId: string) =>
    (await call(server, 'GET', `${P.historyFlowList}?processInstanceId=${processInstanceId}`, { headers: users.applicant.headers })).body.data as {
      assigneeName: string;
      historyActivityName: string;
      comment: string | null;
      endTime: string | null;
    }[];

  it('lists approvers by account and refuses a bad start form with the spec messages', async () => {
    const approvers = await call(server, 'GET', P.userList, { headers: users.applicant.headers });
    expect(approvers.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ id: users.approver.id, name: '李四' })]));
    const empty = await call(server, 'POST', P.leaveStart, { headers: users.applicant.headers, payload: { processDefinitionId: definitionId } });
    expect(empty.status).toBe(400);
    expect(empty.body.data.fields.map((f: { message: string }) => f.message)).toEqual(
      expect.arrayContaining([
        workflowMessages.approverRequired,
        workflowMessages.startRequired,
        workflowMessages.endRequired,
        workflowMessages.reasonRequired,
      ]),
    );
    const backwards = await call(server, 'POST', P.leaveStart, {
      headers: users.applicant.headers,
      payload: leave(definitionId, users.approver.id, { startTime: '2026-12-03 09:00:00', endTime: '2026-12-02 09:00:00' }),
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.msg).toBe(workflowMessages.endBeforeStart);
    const self = await call(server, 'POST', P.leaveStart, { headers: users.applicant.headers, payload: leave(definitionId, users.applicant.id) });
    expect(self.body.msg).toBe(workflowMessages.selfApprover);
    const unknown = await call(server, 'POST', P.leaveStart, { headers: users.applicant.headers, payload: leave('leave:9:x', users.approver.id) });
    expect(unknown.status).toBe(404);
  });

  it('starts a request, mails the approver, lets only the approver decide and refuses a second completion', async () => {
    const mailsBefore = smtp.mails.length;
    const { processInstanceId, businessId } = await start();
    const taskId = await taskOf(users.approver.headers, processInstanceId);
    expect((await call(server, 'GET', P.todoCount, { headers: users.approver.headers })).body.data).toBeGreaterThanOrEqual(1);
    expect(await todo(users.applicant.headers)).toEqual([]);
    const paged = await call(server, 'GET', `${P.todoList}?current=1&size=1`, { headers: users.approver.headers });
    expect(paged.body.data).toMatchObject({ current: 1, size: 1, total: expect.any(Number) });
    expect(paged.body.data.records).toHaveLength(1);

    await expect.poll(() => smtp.mails.length, { timeout: 10_000 }).toBe(mailsBefore + 1);
    const mail = smtp.mails.at(-1)!;
    expect(mail.to).toEqual(['approver@example.com']);
    expect(decodeMimeHeader(/^Subject: (.*(?:\r\n\s.*)*)/m.exec(mail.data)![1]!)).toBe('待审批：张三的请假流程');
    expect(mail.data).toContain(`taskId=3D${taskId}`.slice(0, 12));

    const detail = await call(server, 'GET', `${P.leaveDetail}?businessId=${businessId}`, { headers: users.approver.headers });
    expect(detail.body.data).toMatchObject({
      applicantName: '张三',
      reason: '回老家办事',
      startTime: '2026-12-01 09:00:00',
      flow: { assigneeName: '李四', taskId, mine: true },
    });

    const byOther = await complete(users.other.headers, { taskId, processInstanceId, comment: '我来批', flag: 'ok' });
    expect(byOther.status).toBe(403);
    expect(byOther.body.msg).toBe(workflowMessages.notAssignee);
    expect((await call(server, 'GET', `${P.historyFlowList}?processInstanceId=${processInstanceId}`, { headers: users.other.headers })).status).toBe(403);

    const noComment = await complete(users.approver.headers, { taskId, processInstanceId, comment: ' ' });
    expect(noComment.status).toBe(400);
    expect(noComment.body.msg).toBe(workflowMessages.commentRequired);

    const approved = await complete(users.approver.headers, { taskId, processInstanceId, comment: '同意，注意安全', flag: 'ok' });
    expect(approved.status, approved.raw.body).toBe(200);
    expect(approved.body.msg).toBe(workflowMessages.done);
    const again = await complete(users.approver.headers, { taskId, processInstanceId, comment: '再批一次', flag: 'ok' });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe(workflowMessages.taskDone);

    expect((await history(processInstanceId)).map((h) => [h.historyActivityName, h.assigneeName, h.comment])).toEqual([
      ['发起申请', '张三', null],
      ['审批人审批', '李四', '同意，注意安全'],
      ['已同意', '', null],
    ]);
    const mine = (await call(server, 'GET', P.sendList, { headers: users.applicant.headers })).body.data.records as {
      processInstanceId: string;
      status: string;
    }[];
    expect(mine.find((r) => r.processInstanceId === processInstanceId)?.status).toBe('approved');
    const done = (await call(server, 'GET', P.doneList, { headers: users.approver.headers })).body.data.records as {
      processInstanceId: string;
      comment: string;
    }[];
    expect(done.find((r) => r.processInstanceId === processInstanceId)?.comment).toBe('同意，注意安全');
  });

  it('rejects without the flag, and two completions of one task at once end with one', async () => {
    const { processInstanceId } = await start();
    const taskId = await taskOf(users.approver.headers, processInstanceId);
    const results = await Promise.all([
      complete(users.approver.headers, { taskId, processInstanceId, comment: '不同意' }),
      complete(users.approver.headers, { taskId, processInstanceId, comment: '同意', flag: 'ok' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const steps = await history(processInstanceId);
    expect(steps.filter((h) => h.historyActivityName === '审批人审批')).toHaveLength(1);
    expect(['已同意', '已驳回']).toContain(steps.at(-1)!.historyActivityName);
  });

  it('lets the applicant withdraw an undecided request, and only then', async () => {
    const { processInstanceId } = await start();
    const taskId = await taskOf(users.approver.headers, processInstanceId);
    expect((await call(server, 'POST', P.withdraw, { headers: users.approver.headers, payload: { processInstanceId } })).status).toBe(403);
    const res = await call(server, 'POST', P.withdraw, { headers: users.applicant.headers, payload: { processInstanceId, comment: '计划有变' } });
    expect(res.body.msg).toBe(workflowMessages.withdrawn);
    expect((await call(server, 'POST', P.withdraw, { headers: users.applicant.headers, payload: { processInstanceId } })).status).toBe(409);
    expect((await complete(users.approver.headers, { taskId, processInstanceId, comment: '同意', flag: 'ok' })).status).toBe(409);
    expect((await history(processInstanceId)).at(-1)).toMatchObject({ historyActivityName: '申请人撤回', assigneeName: '张三', comment: '计划有变' });
  });

  it('transfers a task: the new assignee is mailed and decides, the old one no longer can', async () => {
    const { processInstanceId } = await start();
    const taskId = await taskOf(users.approver.headers, processInstanceId);
    const mailsBefore = smtp.mails.length;
    const moved = await call(server, 'POST', P.transferTask, {
      headers: users.approver.headers,
      payload: { taskId, assigneeId: users.other.id, comment: '我出差' },
    });
    expect(moved.body.msg).toBe(workflowMessages.transferred);
    await expect.poll(() => smtp.mails.filter((m) => m.to.includes('other@example.com')).length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(smtp.mails.length).toBeGreaterThan(mailsBefore);
    expect((await complete(users.approver.headers, { taskId, processInstanceId, comment: '同意', flag: 'ok' })).status).toBe(409);
    const newTask = await taskOf(users.other.headers, processInstanceId);
    expect((await complete(users.other.headers, { taskId: newTask, processInstanceId, comment: '准了', flag: 'ok' })).status).toBe(200);
    expect((await history(processInstanceId)).map((h) => [h.historyActivityName, h.assigneeName, h.comment])).toEqual([
      ['发起申请', '张三', null],
      ['审批人审批', '李四', '转交给 王五：我出差'],
      ['审批人审批', '王五', '准了'],
      ['已同意', '', null],
    ]);
  });
});

/** A serving app on an existing store, as `serve` builds it (no listen). */
async function appOn(store: MetadataStore, dataDir: string) {
  await migrateToLatest(store.db);
  await seed(store.db, { adminPassword: FIRST_ADMIN.password });
  const config = { ...loadConfig({}), webDist: undefined, databaseUrl: undefined, secretKey: undefined, dataDir };
  const ctx: AppContext = { config, store, db: store.db };
  const app = await buildApp(ctx);
  await app.ready();
  const login = async (account: string, password: string) => {
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { account, password: md5Hex(password) } });
    return { authorization: `Bearer ${res.json<{ data: { token: string } }>().data.token}` };
  };
  return { app, ctx, login };
}

describe.each(kinds)('workflow across restarts and processes on %s', (kind) => {
  it('finishes an instance after a restart, and two processes completing one task at once complete it once', async () => {
    const data = await reopenableTestStore(kind);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-wf-'));
    try {
      let store = await data.open();
      let served = await appOn(store, dataDir);
      const inject = (app: typeof served.app, method: 'GET' | 'POST', url: string, headers: Headers, payload?: object) =>
        app.inject({ method, url, headers, ...(payload ? { payload } : {}) }).then((r) => ({ status: r.statusCode, body: r.json() }));
      const admin = await served.login(FIRST_ADMIN.account, FIRST_ADMIN.password);
      const approver = await createUser({ app: served.app } as TestServer, admin, { name: '审批人' });
      const definitionId = (await inject(served.app, 'GET', P.startList, admin)).body.data[0].processDefinitionId as string;
      const first = (await inject(served.app, 'POST', P.leaveStart, admin, leave(definitionId, approver.id))).body.data.processInstanceId as string;
      const second = (await inject(served.app, 'POST', P.leaveStart, admin, leave(definitionId, approver.id))).body.data.processInstanceId as string;

      // Restart: the first server and its store go away; a new one opens the same data.
      await served.app.close();
      await store.close();
      store = await data.open();
      served = await appOn(store, dataDir);
      const approverHeaders = await served.login(approver.account, approver.password);
      const tasks = (await inject(served.app, 'GET', P.todoList, approverHeaders)).body.data.records as { taskId: string; processInstanceId: string }[];
      const taskOf = (id: string) => tasks.find((t) => t.processInstanceId === id)!.taskId;
      const done = await inject(served.app, 'POST', P.completeTask, approverHeaders, {
        taskId: taskOf(first),
        processInstanceId: first,
        comment: '重启后同意',
        flag: 'ok',
      });
      expect(done.status).toBe(200);
      const steps = (await inject(served.app, 'GET', `${P.historyFlowList}?processInstanceId=${first}`, admin)).body.data as { historyActivityName: string }[];
      expect(steps.map((s) => s.historyActivityName)).toEqual(['发起申请', '审批人审批', '已同意']);

      // A second process on the same store (PostgreSQL; the embedded store has one process, so a second app there).
      const otherStore = kind === 'postgres' ? await data.open() : store;
      const other = kind === 'postgres' ? await appOn(otherStore, dataDir) : served;
      try {
        const otherHeaders = await other.login(approver.account, approver.password);
        const payload = { taskId: taskOf(second), processInstanceId: second, comment: '同意', flag: 'ok' };
        const results = await Promise.all([
          inject(served.app, 'POST', P.completeTask, approverHeaders, payload),
          inject(other.app, 'POST', P.completeTask, otherHeaders, payload),
        ]);
        expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
        const history = (await inject(served.app, 'GET', `${P.historyFlowList}?processInstanceId=${second}`, admin)).body.data as {
          historyActivityName: string;
        }[];
        expect(history.map((s) => s.historyActivityName)).toEqual(['发起申请', '审批人审批', '已同意']);
      } finally {
        if (other !== served) {
          await other.app.close();
          await otherStore.close();
        }
      }
      await served.app.close();
      await store.close();
    } finally {
      await data.cleanup();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
