import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_JOB, SUBSCRIPTION_SEND_JOB } from '@shutu/contracts';
import { ensureDatabase, LOCAL_PG, postgresReachable, startNode, type ServerNode } from '../../../scripts/cluster/nodes.mjs';
import { ADMIN_PASSWORD, login, ok, until, webDist } from './multi-process-helpers.ts';

/**
 * Issue 27 "Done when": two real server processes (`main.ts serve`) on one PostgreSQL; the one
 * running a job is killed with SIGKILL in the middle of it — an export streaming a slow query,
 * a subscription mail whose SMTP DATA the server has not acknowledged yet — and the other
 * process must finish it once: the export task is handed back to the queue by the other
 * process and written there to 完成 without any user action, one file in the shared file
 * directory (the dead run's partial file removed), every row; the mail arrives once, the send
 * is logged once as sent. Short job periods (heartbeat 1 s, dead after 3 s) keep it quick.
 */
const withPostgres = await postgresReachable();
if (!withPostgres && process.env.CI === 'true') throw new Error(`CI=true: PostgreSQL at ${LOCAL_PG} is required by the kill -9 tests`);

const JOB_ENV = { SHUTU_JOB_HEARTBEAT_SECONDS: '1', SHUTU_JOB_STALE_SECONDS: '3', SHUTU_JOB_SWEEP_SECONDS: '1' };

/** An SMTP server that holds the first message unanswered (the sender is killed meanwhile) and accepts the rest. */
async function startHoldingSmtp() {
  const accepted: string[] = [];
  let heldResolve!: () => void;
  const held = new Promise<void>((resolve) => (heldResolve = resolve));
  let holding = true;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    closeTimeout: 500,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (holding) {
          // The whole message arrived; "250 OK" never goes back, so it is not delivered.
          holding = false;
          heldResolve();
          return;
        }
        accepted.push(Buffer.concat(chunks).toString('utf8'));
        callback(null, 'OK queued');
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return { port, accepted, held, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe.skipIf(!withPostgres)('a server process killed (SIGKILL) mid-job: the other process finishes it once', () => {
  const suffix = Date.now().toString(36);
  let meta: Awaited<ReturnType<typeof ensureDatabase>>;
  let warehouse: Awaited<ReturnType<typeof ensureDatabase>>;
  let store: pg.Pool;
  let dist: string;
  const nodes: ServerNode[] = [];
  let token: string;
  let boardId: number;
  /** The files of both processes: one shared directory, as on a cluster (SHUTU_FILES_DIR; docs/deploy.md). */
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-kill-files-'));
  /** The names under the shared exports folder that belong to a task (its file, temp files). */
  const filesOf = (taskId: number) => {
    const dir = path.join(filesDir, 'exports');
    return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => path.basename(name).startsWith(`${taskId}.`)) : [];
  };

  const startOne = async (name: string, dataDir?: string) => {
    const node = await startNode({
      databaseUrl: meta.url,
      name,
      ...(dataDir ? { dataDir } : {}),
      env: { ...JOB_ENV, SHUTU_FILES_DIR: filesDir, WEB_DIST: dist, SHUTU_ADMIN_PASSWORD: ADMIN_PASSWORD, SHUTU_THUMBNAILS: '0', SHUTU_DEMO_SCALE: '1000' },
    });
    nodes.push(node);
    return node;
  };
  const live = () => nodes.filter((n) => n.alive());
  /** The process (by pid) that holds a run of `queue` right now. */
  const runner = (queue: string) =>
    until(async () => {
      const { rows } = await store.query<{ pid: number }>('select i.pid from job_run r join job_instance i on i.id = r.instance_id where r.queue = $1', [
        queue,
      ]);
      const pid = rows[0]?.pid;
      return pid === undefined ? undefined : live().find((n) => n.pid === pid);
    }, `a run of ${queue}`);

  beforeAll(async () => {
    dist = webDist();
    meta = await ensureDatabase(`shutu_kill_${suffix}`, { fresh: true });
    warehouse = await ensureDatabase(`shutu_kill_wh_${suffix}`, { fresh: true });
    const wh = new pg.Client({ connectionString: warehouse.url });
    await wh.connect();
    // A slow query of its own: every row waits a little, so an export of it runs for seconds.
    await wh.query(`create view slow_orders as
      select g as order_id, '省份' || (g % 5) as province, (g * 1.5)::numeric(12, 2) as amount
      from generate_series(1, 20000) g cross join lateral (select pg_sleep(0.0003)) s`);
    await wh.end();
    store = new pg.Pool({ connectionString: meta.url, max: 2 });
    // One after the other: the first migrates and seeds, the second finds it done.
    await startOne('a');
    await startOne('b');
    const [a] = nodes as [ServerNode];
    token = await login(a);
    const source = await ok<{ id: number }>(a, token, 'POST', '/api/datasource', {
      dsDb: `慢仓库${suffix}`,
      type: 'postgres',
      host: '127.0.0.1',
      port: 5432,
      database: warehouse.name,
      username: 'postgres',
      password: '',
    });
    const workspaceId = (await ok<{ id: number }>(a, token, 'POST', '/api/dataset/categories', { wsName: `杀进程${suffix}`, parentId: 0 })).id;
    const cubeId = await ok<number>(a, token, 'POST', '/api/dataset/cubes', {
      cubeData: { cubeName: '慢订单', workspaceId, cubeTableNames: [{ tableName: 'slow_orders', tableAliasName: 'o', type: 'VIEW' }], publicStatus: 0 },
      datasourceId: source.id,
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
    });
    const fields = await ok<{ id: number; columnTitle: string }[]>(a, token, 'GET', `/api/dataset/cubes/${cubeId}/fields`);
    const f = Object.fromEntries(fields.map((x) => [x.columnTitle, x.id]));
    const categoryId = (await ok<{ id: number }>(a, token, 'POST', '/api/board/categories', { kind: 'visual', categoryValue: `杀进程${suffix}` })).id;
    boardId = await ok<number>(a, token, 'POST', '/api/board/boards', {
      title: '杀进程大屏',
      categoryId,
      content: { type: 'quick', layout: [{ i: 'd1', x: 0, y: 0, w: 12, h: 6 }] },
      charts: [
        {
          key: 'd1',
          name: 'detail',
          title: '订单明细',
          dataconfig: {
            cubeId,
            rowParamList: [{ fieldId: f['省份'] }, { fieldId: f['订单编号'] }],
            indexParamList: [{ fieldId: f['金额'] }],
            sortList: [{ fieldId: f['订单编号'], direction: 'ASC' }],
            pageSize: 20,
          },
        },
      ],
    });
  }, 600_000);

  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await store?.end();
    await meta?.drop();
    await warehouse?.drop();
    for (const n of nodes) fs.rmSync(n.dataDir, { recursive: true, force: true });
    fs.rmSync(filesDir, { recursive: true, force: true });
  }, 120_000);

  it('an export: the killed process’s task is written again by the other one to 完成, without any user action — one file, every row', async () => {
    const [first] = live() as [ServerNode];
    const created = await ok<{ id: number }>(first, token, 'POST', '/api/export/tasks', { boardId, chartKey: 'd1', fileName: '慢订单' });
    const victim = await runner(EXPORT_JOB);
    // Killed half-way through writing its file: rows written (progress saved) and a partial temp file.
    let seen = 'nothing yet';
    await until(async () => {
      const { rows } = await store.query<{ status: string; rowCount: number; errMsg: string | null }>(
        'select status, row_count as "rowCount", err_msg as "errMsg" from export_task where id = $1 and run_id is not null',
        [created.id],
      );
      const files = filesOf(created.id);
      seen = `${JSON.stringify(rows[0] ?? null)}, files ${JSON.stringify(files)}`;
      // Past the point of killing it: say what happened instead of waiting out the timeout.
      if (rows[0] && rows[0].status !== 'running') throw new Error(`the export ended before it was killed: ${seen}`);
      return rows[0]?.status === 'running' && rows[0].rowCount > 0 && files.some((name) => name.endsWith('.tmp')) ? true : undefined;
    }, 'the export to be half-written').catch((error: Error) => {
      throw new Error(`${error.message} (last seen: ${seen})`, { cause: error });
    });
    await victim.kill();
    const survivor = live()[0]!;

    type Task = { id: number; status: string; errMsg: string | null; rowCount: number; fileSize: number | null };
    const taskOn = async (node: ServerNode) =>
      (await ok<{ records: Task[] }>(node, token, 'GET', '/api/export/tasks?size=100', undefined)).records.find((t) => t.id === created.id);
    const done = await until(
      async () => {
        const t = await taskOn(survivor);
        if (t?.status === 'failed') throw new Error(`the export failed instead of being written again: ${t.errMsg}`);
        return t?.status === 'done' ? t : undefined;
      },
      'the killed export to be written again by the other process',
      180_000,
    );
    expect(done.errMsg).toBeNull();
    expect(done.rowCount).toBe(20_000);
    const file = await fetch(`${survivor.url}/api/export/tasks/${created.id}/download`, { headers: { Authorization: `Bearer ${token}` } });
    expect(file.status).toBe(200);
    expect((await file.arrayBuffer()).byteLength).toBe(done.fileSize);
    // One file for the task in the shared directory: the dead run's temp file is gone.
    expect(filesOf(created.id).map((name) => path.basename(name))).toEqual([`${created.id}.xlsx`]);
    // Written once: once the re-run's job completes, no run is left and no job of the task waits to write it again.
    await until(async () => {
      const { rowCount } = await store.query(`select 1 from pgboss.job where name = $1 and data->>'taskId' = $2 and state in ('created', 'retry', 'active')`, [
        EXPORT_JOB,
        String(created.id),
      ]);
      return rowCount === 0 ? true : undefined;
    }, 'the export jobs to be finished');
    expect((await store.query('select 1 from job_run where queue = $1', [EXPORT_JOB])).rowCount).toBe(0);
    expect((await taskOn(survivor))?.status).toBe('done');
  }, 400_000);

  it('a subscription mail: the process killed before the SMTP server acknowledged it leaves the send to the other process, and the mail arrives once', async () => {
    // Two processes again: the one killed above starts on its data directory.
    const dead = nodes.find((n) => !n.alive());
    if (dead) await startOne('again', dead.dataDir);
    const [first] = live() as [ServerNode];
    const smtp = await startHoldingSmtp();
    try {
      await ok(first, token, 'PUT', '/api/system/notify', {
        smtpHost: '127.0.0.1',
        smtpPort: smtp.port,
        smtpSecure: false,
        smtpUser: '',
        smtpPassword: '',
        smtpFrom: 'shutu@example.com',
      });
      await ok(first, token, 'PUT', '/api/profile', { name: '系统管理员', email: 'boss@example.com' });
      const subscription = await ok<{ id: number }>(first, token, 'POST', '/api/subscription/subscriptions', {
        dataType: 'visual',
        dataId: boardId,
        subTitle: '杀进程大屏',
        notifyTitle: '每日订单',
        notifyType: 'email',
        triggerPeriod: 'day',
        triggerHour: 0,
      });
      // The send of one due time, as the per-minute tick enqueues it.
      const slot = '2026-01-01T00:00:00.000Z';
      const boss = new PgBoss({ connectionString: meta.url, schema: 'pgboss', max: 1, supervise: false, schedule: false, migrate: false });
      await boss.start();
      try {
        await boss.send(SUBSCRIPTION_SEND_JOB, { subscriptionId: subscription.id, slot }, { singletonKey: `${subscription.id}:${slot}` });
      } finally {
        await boss.stop({ graceful: false });
      }
      await smtp.held;
      const victim = await runner(SUBSCRIPTION_SEND_JOB);
      await victim.kill();

      type Log = { state: string; errCode: number | null; attempts: number };
      const logs = async () =>
        (
          await store.query<Log>('select state, err_code as "errCode", attempts from subscription_log where subscription_id = $1 and slot = $2', [
            subscription.id,
            slot,
          ])
        ).rows;
      const sent = await until(
        async () => {
          const rows = await logs();
          return rows[0] && rows[0].state !== 'pending' ? rows : undefined;
        },
        'the send to be finished by the other process',
        180_000,
      );
      expect(sent).toEqual([{ state: 'sent', errCode: 0, attempts: 2 }]);
      expect(smtp.accepted).toHaveLength(1);
      expect(smtp.accepted[0]).toContain('boss@example.com');
      // The log is written inside the handler and the run row removed once it returns: no run is left after that.
      await until(
        async () => ((await store.query('select 1 from job_run where queue = $1', [SUBSCRIPTION_SEND_JOB])).rowCount === 0 ? true : undefined),
        'the send job to be finished',
      );
      expect(smtp.accepted).toHaveLength(1);
    } finally {
      await smtp.close();
    }
  }, 400_000);
});
