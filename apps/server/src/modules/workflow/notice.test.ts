import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKFLOW_PATHS as P } from '@shutu/contracts';
import { createTestServer, reopenableTestStore, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call, createUser } from '../../../test/fixtures.ts';
import { decodeMimeHeader, startSmtpServer, type LocalSmtpServer } from '../../../test/notify-servers.ts';
import { buildApp } from '../../app.ts';
import type { App, AppContext, JobQueue } from '../../context.ts';
import { md5Hex } from '../../platform/auth/password.ts';
import { loadConfig } from '../../platform/config.ts';
import { FIRST_ADMIN, seed } from '../../platform/db/seed.ts';
import { migrateToLatest, type MetadataStore } from '../../platform/db/store.ts';
import { Jobs } from '../../platform/jobs/boss.ts';
import { moduleJobs } from '../jobs.ts';
import { claimNotice } from './notice-repo.ts';
import { deliverNotice, noticeMessages, sweepNotices, WORKFLOW_NOTICE_JOB } from './notify.ts';

/**
 * The approver's email outbox (docs/workflow.md "Approver mail"): one mail on the normal path; a
 * notice left pending by a process killed right after the step is sent once at the next start; two
 * processes sweeping at once send it once; a mail server that is down fails the notice with its
 * reason while the step stays done.
 */
const kinds = await storeKinds();
const silent = pino({ level: 'silent' });
type Headers = Record<string, string>;

/** A process killed between the step's commit and the enqueue: the job never reaches the queue. */
const killedAfterCommit: JobQueue = { send: async () => null };

interface Served {
  app: App;
  ctx: AppContext;
  jobs?: Jobs;
  inject(method: 'GET' | 'POST' | 'PUT', url: string, headers: Headers, payload?: object): Promise<{ status: number; body: { data: unknown } }>;
  login(account: string, password: string): Promise<Headers>;
  close(): Promise<void>;
}

/** A serving process on `store`, as `serve` builds it: with working jobs, or killed after each commit. */
async function serve(store: MetadataStore, dataDir: string, queue: 'jobs' | 'killed'): Promise<Served> {
  await migrateToLatest(store.db);
  await seed(store.db, { adminPassword: FIRST_ADMIN.password });
  const config = { ...loadConfig({}), webDist: undefined, databaseUrl: undefined, secretKey: undefined, dataDir };
  const ctx: AppContext = { config, store, db: store.db, selfUrl: 'http://127.0.0.1:3000' };
  const jobs = queue === 'jobs' ? await Jobs.start(store, silent, moduleJobs(ctx, silent), { work: true, pollingIntervalSeconds: 0.5 }) : undefined;
  ctx.jobs = jobs ?? killedAfterCommit;
  const app = await buildApp(ctx);
  await app.ready();
  const inject: Served['inject'] = (method, url, headers, payload) =>
    app.inject({ method, url, headers, ...(payload ? { payload } : {}) }).then((r) => ({ status: r.statusCode, body: r.json() }));
  return {
    app,
    ctx,
    jobs,
    inject,
    async login(account, password) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { account, password: md5Hex(password) } });
      return { authorization: `Bearer ${res.json<{ data: { token: string } }>().data.token}` };
    },
    async close() {
      await app.close();
      await jobs?.stop();
    },
  };
}

describe.each(kinds)('approver mail outbox on %s', (kind) => {
  let smtp: LocalSmtpServer;
  let data: Awaited<ReturnType<typeof reopenableTestStore>>;
  let dataDir: string;
  beforeAll(async () => {
    [smtp, data] = await Promise.all([startSmtpServer(), reopenableTestStore(kind)]);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-wfmail-'));
  });
  afterAll(async () => {
    await smtp?.close();
    await data?.cleanup();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const mailsTo = (address: string) => smtp.mails.filter((m) => m.to.includes(address));
  const notice = (db: AppContext['db'], instanceId: string) =>
    db.selectFrom('workflowNotice').selectAll().where('instanceId', '=', instanceId).executeTakeFirstOrThrow();
  /** No notice job waiting or running in any process (pg-boss's own table). */
  const noticeJobsIdle = async (db: AppContext['db']) => {
    const { rows } = await sql<{
      n: string;
    }>`select count(*) as n from pgboss.job where name = ${WORKFLOW_NOTICE_JOB} and state in ('created', 'retry', 'active')`.execute(db);
    return Number(rows[0]!.n) === 0;
  };

  it('sends one mail per notice: after a kill, on the normal path, from two sweeping processes; a dead mail server fails it with its reason', async () => {
    // 1. A process that dies right after each step: the notice is written with the step, no mail goes out.
    let store = await data.open();
    let served = await serve(store, dataDir, 'killed');
    const admin = await served.login(FIRST_ADMIN.account, FIRST_ADMIN.password);
    const users = await createUsers(served, admin);
    const smtpSettings = (port: number) => ({
      smtpHost: '127.0.0.1',
      smtpPort: port,
      smtpSecure: false,
      smtpUser: '',
      smtpPassword: '',
      smtpFrom: 'shutu@example.com',
    });
    expect((await served.inject('PUT', '/api/system/notify', admin, smtpSettings(smtp.port))).status).toBe(200);
    const definitionId = ((await served.inject('GET', P.startList, users.applicant)).body.data as { processDefinitionId: string }[])[0]!.processDefinitionId;
    const startLeave = async (s: Served) => {
      const res = await s.inject('POST', P.leaveStart, users.applicant, {
        processDefinitionId: definitionId,
        taskUser: users.approverId,
        startTime: '2026-12-01 09:00:00',
        endTime: '2026-12-02 18:00:00',
        reason: '家里有事',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.data as { processInstanceId: string }).processInstanceId;
    };
    const orphan = await startLeave(served);
    expect(await notice(served.ctx.db, orphan)).toMatchObject({ status: 'pending', attempts: 0, kind: 'started' });
    await served.close();
    await store.close();
    expect(mailsTo('approver@example.com')).toHaveLength(0);

    // 2. The next start sweeps the owed notice into a job: exactly one mail.
    store = await data.open();
    served = await serve(store, dataDir, 'jobs');
    await expect.poll(async () => (await notice(store.db, orphan)).status, { timeout: 20_000 }).toBe('sent');
    expect(mailsTo('approver@example.com')).toHaveLength(1);
    expect(decodeMimeHeader(/^Subject: (.*(?:\r\n\s.*)*)/m.exec(mailsTo('approver@example.com')[0]!.data)![1]!)).toBe('待审批：张三的请假流程');
    expect(await sweepNotices(served.ctx, () => undefined)).toBe(0);

    // 3. The normal path: the step's job sends one mail, the row says so.
    const normal = await startLeave(served);
    await expect.poll(async () => (await notice(store.db, normal)).status, { timeout: 20_000 }).toBe('sent');
    expect(await notice(store.db, normal)).toMatchObject({ attempts: 1, error: null });
    await expect.poll(() => noticeJobsIdle(store.db), { timeout: 20_000 }).toBe(true);
    expect(mailsTo('approver@example.com')).toHaveLength(2);

    // 4. Mail server down: the notice fails with the server's words, the request waits for its approver all the same.
    const closed = await startSmtpServer();
    await closed.close();
    expect((await served.inject('PUT', '/api/system/notify', admin, smtpSettings(closed.port))).status).toBe(200);
    const unsent = await startLeave(served);
    await expect.poll(async () => (await notice(store.db, unsent)).status, { timeout: 30_000 }).toBe('failed');
    expect((await notice(store.db, unsent)).error).toMatch(/^邮件发送失败：.*ECONNREFUSED/);
    const todo = ((await served.inject('GET', P.todoList, users.approver)).body.data as { records: { processInstanceId: string }[] }).records;
    expect(todo.map((t) => t.processInstanceId)).toContain(unsent);
    expect((await served.inject('PUT', '/api/system/notify', admin, smtpSettings(smtp.port))).status).toBe(200);
    expect(await sweepNotices(served.ctx, () => undefined)).toBe(0);

    // 5. Two processes (PostgreSQL: two stores; the embedded store has one process, so two queues on it).
    const realQueue = served.ctx.jobs;
    served.ctx.jobs = killedAfterCommit;
    const owed = [await startLeave(served), await startLeave(served), await startLeave(served)];
    const raced = await startLeave(served);
    served.ctx.jobs = realQueue;
    const otherStore = kind === 'postgres' ? await data.open() : store;
    const other = await serve(otherStore, dataDir, 'jobs');
    try {
      const racedId = (await notice(store.db, raced)).id;
      const outcomes = await Promise.all([deliverNotice(served.ctx, racedId, null, () => undefined), deliverNotice(other.ctx, racedId, null, () => undefined)]);
      // At most one of the two racing sends claims it; the other process's start-up sweep may have
      // enqueued and sent it first (then neither does). The mail count below proves it went out once.
      expect(outcomes.filter((o) => o === 'sent').length).toBeLessThanOrEqual(1);
      expect(outcomes.every((o) => o === 'sent' || o === 'not-claimed')).toBe(true);
      await expect.poll(async () => (await notice(store.db, raced)).status, { timeout: 20_000 }).toBe('sent');
      await Promise.all([sweepNotices(served.ctx, () => undefined), sweepNotices(other.ctx, () => undefined)]);
      for (const id of owed) await expect.poll(async () => (await notice(store.db, id)).status, { timeout: 20_000 }).toBe('sent');
      await expect.poll(() => noticeJobsIdle(store.db), { timeout: 20_000 }).toBe(true);
      expect(mailsTo('approver@example.com')).toHaveLength(2 + owed.length + 1);
      for (const id of owed) expect((await notice(store.db, id)).attempts).toBe(1);
    } finally {
      await other.close();
      if (otherStore !== store) await otherStore.close();
      await served.close();
      await store.close();
    }
  }, 180_000);
});

describe.each(kinds)('notice claims on %s', (kind) => {
  let server: TestServer;
  let smtp: LocalSmtpServer;
  beforeAll(async () => {
    [server, smtp] = await Promise.all([createTestServer(kind), startSmtpServer()]);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), smtp?.close()]);
  });

  it('takes over a send whose run died, never one a live run holds; fails after three claims; skips a decided task', async () => {
    server.ctx.jobs = killedAfterCommit;
    const admin = await server.login();
    const users = await createUsers({ app: server.app, login: server.login }, admin);
    const notify = { smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpSecure: false, smtpUser: '', smtpPassword: '', smtpFrom: 'shutu@example.com' };
    expect((await call(server, 'PUT', '/api/system/notify', { headers: admin, payload: notify })).status).toBe(200);
    const definitionId = (await call(server, 'GET', P.startList, { headers: users.applicant })).body.data[0].processDefinitionId as string;
    const start = async () => {
      const payload = {
        processDefinitionId: definitionId,
        taskUser: users.approverId,
        startTime: '2026-12-01 09:00:00',
        endTime: '2026-12-01 18:00:00',
        reason: '看病',
      };
      const instanceId = (await call(server, 'POST', P.leaveStart, { headers: users.applicant, payload })).body.data.processInstanceId as string;
      return (await server.ctx.db.selectFrom('workflowNotice').select('id').where('instanceId', '=', instanceId).executeTakeFirstOrThrow()).id;
    };
    const row = (id: string) => server.ctx.db.selectFrom('workflowNotice').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const db = server.ctx.db;

    // A run that is alive (recorded in job_run) holds its claim; once its run is gone, the claim is taken over and the mail sent once.
    const held = await start();
    await db.insertInto('jobInstance').values({ id: 'wfmail-instance' }).execute();
    await db
      .insertInto('jobRun')
      .values({ id: 'wfmail-run', instanceId: 'wfmail-instance', queue: WORKFLOW_NOTICE_JOB, jobId: 'wfmail-job', data: '{}' })
      .execute();
    expect(await claimNotice(db, held, 'wfmail-run')).toBe(true);
    expect(await sweepNotices(server.ctx, () => undefined)).toBe(0);
    expect(await deliverNotice(server.ctx, held, 'another-run', () => undefined)).toBe('not-claimed');
    await db.deleteFrom('jobRun').where('id', '=', 'wfmail-run').execute();
    const mailsBefore = smtp.mails.length;
    expect(await deliverNotice(server.ctx, held, 'retry-run', () => undefined)).toBe('sent');
    expect(await row(held)).toMatchObject({ status: 'sent', attempts: 2, runId: 'retry-run' });
    expect(smtp.mails.length).toBe(mailsBefore + 1);

    // Claimed three times by runs that all died: failed, no longer owed.
    const exhausted = await start();
    for (const run of ['r1', 'r2', 'r3']) expect(await claimNotice(db, exhausted, run)).toBe(true);
    expect(await claimNotice(db, exhausted, 'r4')).toBe(false);
    await sweepNotices(server.ctx, () => undefined);
    expect(await row(exhausted)).toMatchObject({ status: 'failed', error: noticeMessages.interrupted });

    // The approver decided before the owed mail went out: skipped, nothing sent.
    const decided = await start();
    const { taskId, instanceId } = await row(decided);
    const done = await call(server, 'POST', P.completeTask, {
      headers: users.approver,
      payload: { taskId, processInstanceId: instanceId, comment: '同意', flag: 'ok' },
    });
    expect(done.status).toBe(200);
    const mailsNow = smtp.mails.length;
    expect(await deliverNotice(server.ctx, decided, null, () => undefined)).toBe('skipped');
    expect(await row(decided)).toMatchObject({ status: 'skipped', error: noticeMessages.taskClosed });
    expect(smtp.mails.length).toBe(mailsNow);
  });
});

/** 张三 applies, 李四 approves (with a mail address). */
async function createUsers(served: Pick<Served, 'app' | 'login'>, admin: Headers) {
  const applicant = await createUser({ app: served.app } as TestServer, admin, { name: '张三', email: 'applicant@example.com' });
  const approver = await createUser({ app: served.app } as TestServer, admin, { name: '李四', email: 'approver@example.com' });
  return {
    applicant: await served.login(applicant.account, applicant.password),
    approver: await served.login(approver.account, approver.password),
    approverId: approver.id,
  };
}
