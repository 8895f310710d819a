import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { openTestStore, reopenableTestStore, storeKinds, type ReopenableTestStore } from '../../../test/harness.ts';
import { md5Hex, hashPassword } from '../auth/password.ts';
import { hashToken } from '../auth/tokens.ts';
import { migrateToLatest, type MetadataStore } from '../db/store.ts';
import { Jobs, type JobDefinition } from './boss.ts';
import { housekeepingJob } from './housekeeping.ts';

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
