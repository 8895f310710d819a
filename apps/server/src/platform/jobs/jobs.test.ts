import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { openTestStore, reopenableTestStore, storeKinds, type ReopenableTestStore } from '../../../test/harness.ts';
import { md5Hex, hashPassword } from '../auth/password.ts';
import { hashToken } from '../auth/tokens.ts';
import { migrateToLatest, type MetadataStore } from '../db/store.ts';
import { Jobs, type JobDefinition, type JobRun } from './boss.ts';
import { housekeepingJob } from './housekeeping.ts';
import { sql } from 'kysely';

const kinds = await storeKinds();
const log = pino({ level: 'silent' });
const QUEUE = 'test-restart';

/** Polls `check` until it returns a value, failing after `timeoutMs`; no fixed sleeps. */
async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(kinds)('jobs on %s', (kind) => {
  let data: ReopenableTestStore;
  beforeAll(async () => {
    data = await reopenableTestStore(kind);
  });
  afterAll(() => data?.cleanup());

  it('runs a job sent before a restart once the server is back', async () => {
    const handled: Array<{ n: number }> = [];
    const definition = (handle: JobDefinition['handle']): JobDefinition => ({ name: QUEUE, handle });

    // First life: an API node that only sends, then stops before anyone works the job.
    let store: MetadataStore = await data.open();
    await migrateToLatest(store.db);
    let jobs = await Jobs.start(store, log, [definition(async () => void handled.push({ n: -1 }))], { work: false });
    const id = await jobs.send(QUEUE, { n: 42 });
    expect(id).toEqual(expect.any(String));
    await jobs.stop();
    await store.close();
    expect(handled).toEqual([]);

    // Second life: a new store on the same data, this time working the queue.
    store = await data.open();
    try {
      expect(await migrateToLatest(store.db)).toEqual([]);
      jobs = await Jobs.start(store, log, [definition(async (payload) => void handled.push(payload as { n: number }))], {
        work: true,
        pollingIntervalSeconds: 0.5,
      });
      try {
        const job = await eventually(async () => {
          const found = await jobs.boss.getJobById(QUEUE, id!);
          return found?.state === 'completed' ? found : undefined;
        }, `job ${id} to complete`);
        expect(job.data).toEqual({ n: 42 });
        expect(handled).toEqual([{ n: 42 }]);
      } finally {
        await jobs.stop();
      }
    } finally {
      await store.close();
    }
  });
  it("keeps one job of a schedule's due time when pg-boss sends it twice within the minute", async () => {
    const store = await data.open();
    try {
      await migrateToLatest(store.db);
      const name = 'test-cron-once';
      // Due once a year: pg-boss's own clock monitor sends nothing during the test.
      const jobs = await Jobs.start(store, log, [{ name, cron: '0 0 1 1 *', handle: async () => undefined }], { work: false });
      try {
        const { rows } = await sql<{ options: Record<string, unknown> }>`select options from pgboss.schedule where name = ${name}`.execute(store.db);
        const options = rows[0]!.options;
        // What pg-boss's "send it" worker inserts for a due time, once per copy of it: two copies
        // happen when one check judged the minute due by the skew-corrected local clock a few ms early.
        for (let copy = 0; copy < 2; copy++) await jobs.boss.insert([{ name, data: {}, ...options }]);
        const { rows: made } = await sql<{ n: string }>`select count(*) as n from pgboss.job where name = ${name}`.execute(store.db);
        expect(Number(made[0]!.n)).toBe(1);
      } finally {
        await jobs.stop();
      }
    } finally {
      await store.close();
    }
  });

  it('runs a start job once the process starts working, not before', async () => {
    const runs: string[] = [];
    const store = await data.open();
    try {
      await migrateToLatest(store.db);
      const jobs = await Jobs.start(store, log, [{ name: 'test-at-start', runAtStart: true, handle: async () => void runs.push('ran') }], {
        work: false,
        pollingIntervalSeconds: 0.5,
      });
      try {
        expect(runs).toEqual([]);
        await jobs.work();
        await jobs.work(); // a second call neither adds workers nor sends the start job again
        await eventually(async () => (runs.length ? runs : undefined), 'the start job');
        expect(runs).toEqual(['ran']);
        expect(await jobs.boss.getQueueSize('test-at-start')).toBe(0);
      } finally {
        await jobs.stop();
      }
    } finally {
      await store.close();
    }
  });
  it('runs a job sent by a process that works its queue at once, not at the next poll', async () => {
    const runs: number[] = [];
    const store = await data.open();
    try {
      await migrateToLatest(store.db);
      // Polls every 10 minutes: without the send's nudge the job would wait that long.
      const jobs = await Jobs.start(store, log, [{ name: 'test-nudge', handle: async (payload) => void runs.push((payload as { n: number }).n) }], {
        work: true,
        pollingIntervalSeconds: 600,
      });
      try {
        await jobs.send('test-nudge', { n: 1 });
        await eventually(async () => (runs.length ? runs : undefined), 'the sent job', 20_000);
        expect(runs).toEqual([1]);
      } finally {
        await jobs.stop();
      }
    } finally {
      await store.close();
    }
  });
});

describe.each(kinds)('jobs whose process died on %s', (kind) => {
  let data: ReopenableTestStore;
  beforeAll(async () => {
    data = await reopenableTestStore(kind);
  });
  afterAll(() => data?.cleanup());

  it('takes over the runs of a process that stopped heart-beating, never a live process’s', async () => {
    const queue = 'test-abandoned';
    const handled: Array<{ n: number }> = [];
    const abandoned: Array<{ data: { n: number }; run: JobRun }> = [];
    const store = await data.open();
    try {
      await migrateToLatest(store.db);
      const jobs = await Jobs.start(
        store,
        log,
        [
          {
            name: queue,
            handle: async (payload) => void handled.push(payload as { n: number }),
            abandoned: async (payload, run) => void abandoned.push({ data: payload as { n: number }, run }),
          },
        ],
        { work: false, pollingIntervalSeconds: 0.5 },
      );
      try {
        // Two jobs picked up by two other processes: one died a minute ago, one is alive.
        const deadJob = (await jobs.send(queue, { n: 1 }))!;
        const liveJob = (await jobs.send(queue, { n: 2 }))!;
        const fetched = await jobs.boss.fetch(queue, { batchSize: 2 });
        expect(fetched.map((j) => j.id).sort()).toEqual([deadJob, liveJob].sort());
        const { db } = store;
        await db
          .insertInto('jobInstance')
          .values([
            { id: 'dead-instance', heartbeatAt: sql<Date>`now() - interval '1 minute'` },
            { id: 'live-instance', heartbeatAt: sql<Date>`now()` },
          ])
          .execute();
        await db
          .insertInto('jobRun')
          .values([
            { id: 'dead-run', instanceId: 'dead-instance', queue, jobId: deadJob, data: JSON.stringify({ n: 1 }) },
            { id: 'live-run', instanceId: 'live-instance', queue, jobId: liveJob, data: JSON.stringify({ n: 2 }) },
          ])
          .execute();

        // Starting to work sweeps at once: the dead run is handed to the hook and its job retried here.
        await jobs.work();
        expect(abandoned).toEqual([{ data: { n: 1 }, run: { id: 'dead-run', jobId: deadJob, instanceId: 'dead-instance' } }]);
        await eventually(async () => ((await jobs.boss.getJobById(queue, deadJob))?.state === 'completed' ? true : undefined), 'the retried job');
        expect(handled).toEqual([{ n: 1 }]);

        // The live process's run and job are untouched, sweep after sweep.
        expect(await jobs.recover()).toBe(0);
        expect((await jobs.boss.getJobById(queue, liveJob))?.state).toBe('active');
        const runs = await db.selectFrom('jobRun').select(['id', 'instanceId']).execute();
        expect(runs).toEqual([{ id: 'live-run', instanceId: 'live-instance' }]);
        // Dead instances are forgotten an hour later (their runs are gone already).
        const instances = await db.selectFrom('jobInstance').select('id').execute();
        expect(instances.map((i) => i.id).sort()).toEqual(['dead-instance', 'live-instance', jobs.instanceId].sort());

        // Once it too stops heart-beating, it is taken over as well.
        await db
          .updateTable('jobInstance')
          .set({ heartbeatAt: sql<Date>`now() - interval '31 seconds'` })
          .where('id', '=', 'live-instance')
          .execute();
        expect(await jobs.recover()).toBe(1);
        expect(abandoned.map((a) => a.run.id)).toEqual(['dead-run', 'live-run']);
        await eventually(async () => (handled.length === 2 ? true : undefined), 'the second retried job');
        expect(handled).toEqual([{ n: 1 }, { n: 2 }]);
      } finally {
        await jobs.stop();
      }
      // A process that stops cleanly removes its own instance.
      expect(await store.db.selectFrom('jobInstance').select('id').where('id', '=', jobs.instanceId).execute()).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('retries a job a process took but died before recording its run: confirmed on a second sweep, at once on the embedded store at start', async () => {
    const queue = 'test-orphaned';
    const handled: Array<{ n: number }> = [];
    const definitions: JobDefinition[] = [{ name: queue, handle: async (payload) => void handled.push(payload as { n: number }) }];
    const store = await data.open();
    try {
      await migrateToLatest(store.db);
      const jobs = await Jobs.start(store, log, definitions, { work: false, pollingIntervalSeconds: 0.5, staleAfterMs: 1000 });
      try {
        // Taken by a process that is killed before it writes its job_run row.
        const orphan = (await jobs.send(queue, { n: 1 }))!;
        expect((await jobs.boss.fetch(queue)).map((j) => j.id)).toEqual([orphan]);
        // Never on the sweep that first sees it (a live run's job is runless for an instant as it ends).
        expect(await jobs.recover()).toBe(0);
        expect((await jobs.boss.getJobById(queue, orphan))?.state).toBe('active');
        await eventually(async () => ((await jobs.recover()) === 1 ? true : undefined), 'the orphaned job to be failed by a sweep');
        await jobs.work();
        await eventually(async () => ((await jobs.boss.getJobById(queue, orphan))?.state === 'completed' ? true : undefined), 'the retried job');
        expect(handled).toEqual([{ n: 1 }]);
        expect(await jobs.recover()).toBe(0);
      } finally {
        await jobs.stop();
      }

      // The embedded store at start: nobody else can be working, so such a job is retried at once.
      const restarted = await Jobs.start(store, log, definitions, { work: false, pollingIntervalSeconds: 0.5, exclusiveStore: true });
      try {
        const orphan = (await restarted.send(queue, { n: 2 }))!;
        expect((await restarted.boss.fetch(queue)).map((j) => j.id)).toEqual([orphan]);
        await restarted.work();
        await eventually(async () => ((await restarted.boss.getJobById(queue, orphan))?.state === 'completed' ? true : undefined), 'the job retried at start');
        expect(handled).toEqual([{ n: 1 }, { n: 2 }]);
      } finally {
        await restarted.stop();
      }
    } finally {
      await store.close();
    }
  });

  it('records each run while its handler works, and with the embedded store abandons every other instance’s runs at start', async () => {
    const queue = 'test-runs';
    const store = await data.open();
    try {
      await migrateToLatest(store.db);
      let seen: unknown[] = [];
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const jobs = await Jobs.start(
        store,
        log,
        [
          {
            name: queue,
            handle: async () => {
              seen = await store.db.selectFrom('jobRun').select(['queue', 'instanceId']).where('queue', '=', queue).execute();
              await gate;
            },
          },
        ],
        { work: false, pollingIntervalSeconds: 0.5, exclusiveStore: true },
      );
      try {
        await store.db
          .insertInto('jobInstance')
          .values({ id: 'other-instance', heartbeatAt: sql<Date>`now()` })
          .execute();
        await store.db.insertInto('jobRun').values({ id: 'other-run', instanceId: 'other-instance', queue, jobId: crypto.randomUUID(), data: '{}' }).execute();
        await jobs.work();
        // Fresh as its heartbeat is, only one process opens an embedded store: that instance is gone.
        expect(await store.db.selectFrom('jobRun').select('id').where('id', '=', 'other-run').execute()).toEqual([]);
        expect(await store.db.selectFrom('jobInstance').select('id').where('id', '=', 'other-instance').execute()).toEqual([]);
        await jobs.send(queue, {});
        await eventually(async () => (seen.length ? true : undefined), 'the handler');
        expect(seen).toEqual([{ queue, instanceId: jobs.instanceId }]);
        release();
        await eventually(
          async () => ((await store.db.selectFrom('jobRun').select('id').where('queue', '=', queue).execute()).length === 0 ? true : undefined),
          'the run to be cleared',
        );
      } finally {
        release();
        await jobs.stop();
      }
    } finally {
      await store.close();
    }
  });
});

describe.each(kinds)('housekeeping on %s', (kind) => {
  let store: MetadataStore;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ store, cleanup } = await openTestStore(kind));
    await migrateToLatest(store.db);
  });
  afterAll(() => cleanup?.());

  it('deletes expired and long-revoked tokens and old login failures, keeps live ones', async () => {
    const { db } = store;
    const now = Date.now();
    const ago = (ms: number) => new Date(now - ms);
    const hour = 3600_000;
    const user = await db
      .insertInto('sysUser')
      .values({ account: 'keeper', passwordHash: await hashPassword(md5Hex('secret1')), name: 'Keeper', isAdministrator: false, status: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const token = (name: string, expiresAt: Date, revokedAt: Date | null = null) => ({ tokenHash: hashToken(name), userId: user.id, expiresAt, revokedAt });
    await db
      .insertInto('authToken')
      .values([
        token('expired', ago(60_000)),
        token('revoked-two-days-ago', ago(-hour), ago(48 * hour)),
        token('live', ago(-12 * hour)),
        token('revoked-an-hour-ago', ago(-hour), ago(hour)),
      ])
      .execute();
    await db
      .insertInto('authLoginFailure')
      .values([
        { account: 'old', failedAt: ago(2 * hour) },
        { account: 'recent', failedAt: ago(60_000) },
      ])
      .execute();

    await housekeepingJob(db, log).handle({});

    const tokens = await db.selectFrom('authToken').select('tokenHash').execute();
    expect(tokens.map((t) => t.tokenHash).sort()).toEqual([hashToken('live'), hashToken('revoked-an-hour-ago')].sort());
    const failures = await db.selectFrom('authLoginFailure').select('account').execute();
    expect(failures.map((f) => f.account)).toEqual(['recent']);
  });
});
