import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, reopenableTestStore, storeKinds, type ReopenableTestStore } from '../../../test/harness.ts';
import { migrateToLatest, type MetadataStore } from '../db/store.ts';
import { SharedWindow } from './shared-window.ts';

/**
 * The shared rate window (docs/scale-out.md "Rate limits"): exact in one process; with two
 * processes on one PostgreSQL, together within the limit plus what the other took in the last
 * second. The clock is the test's: 20 ms per step, so a process adds its count to the store once
 * every 50 of its steps, as it would once a second.
 */

const STEP_MS = 20;
/** Steps of one process per second: the most the other process can take unseen. */
const STEPS_PER_SECOND = 1000 / STEP_MS;

describe('shared window, one process (PGlite)', () => {
  let store: MetadataStore;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ store, cleanup } = await openTestStore('pglite'));
  });
  afterAll(() => cleanup?.());

  it('takes exactly the limit over several seconds and refuses the rest', async () => {
    let now = 1_000_000_000_000;
    const window = new SharedWindow(store.db, { scope: 'test-exact', windowMs: 60_000, clock: () => now });
    let taken = 0;
    for (let i = 0; i < 200; i += 1) {
      now += STEP_MS;
      if (await window.take('k', 1, 120)) taken += 1;
    }
    expect(taken).toBe(120);
    await window.flush();
    const row = await store.db.selectFrom('rateWindow').select('calls').where('scope', '=', 'test-exact').executeTakeFirstOrThrow();
    expect(row.calls).toBe(120);
  });

  it('counts every call (refused ones too), keys and windows apart', async () => {
    let now = 1_000_000_020_000;
    const window = new SharedWindow(store.db, { scope: 'test-count', windowMs: 60_000, clock: () => now });
    const counts: number[] = [];
    for (let i = 0; i < 5; i += 1) counts.push(await window.count('a'));
    expect(counts).toEqual([1, 2, 3, 4, 5]);
    expect(await window.count('b')).toBe(1);
    now += 60_000;
    expect(await window.count('a')).toBe(1);
  });

  it('lets concurrent first calls of a window wait for one row and count each', async () => {
    const window = new SharedWindow(store.db, { scope: 'test-first', windowMs: 60_000, clock: () => 1_000_000_080_000 });
    const counts = await Promise.all(Array.from({ length: 10 }, () => window.count('k')));
    expect(Math.max(...counts)).toBe(10);
  });
});

const kinds = await storeKinds();

describe.runIf(kinds.includes('postgres'))('shared window, two processes on one PostgreSQL', () => {
  let stores: ReopenableTestStore;
  let a: MetadataStore;
  let b: MetadataStore;
  beforeAll(async () => {
    stores = await reopenableTestStore('postgres');
    a = await stores.open();
    await migrateToLatest(a.db);
    b = await stores.open();
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await stores?.cleanup();
  });

  it('keeps both together within the limit plus one second of the other, where each alone would take its own limit', async () => {
    let now = 1_000_000_200_000;
    const clock = () => now;
    const onA = new SharedWindow(a.db, { scope: 'test-two', windowMs: 60_000, clock });
    const onB = new SharedWindow(b.db, { scope: 'test-two', windowMs: 60_000, clock });
    const limit = 200;
    let takenA = 0;
    let takenB = 0;
    for (let i = 0; i < 400; i += 1) {
      now += STEP_MS;
      if (await onA.take('site', 1, limit)) takenA += 1;
      if (await onB.take('site', 1, limit)) takenB += 1;
      await Promise.all([onA.settled(), onB.settled()]);
    }
    // Neither was refused early, and both took some (they share the key, not a quota each).
    expect(takenA + takenB).toBeGreaterThanOrEqual(limit);
    expect(takenA).toBeGreaterThan(0);
    expect(takenB).toBeGreaterThan(0);
    // Before: one bucket per process, 2 × 200 = 400 taken.
    expect(takenA + takenB).toBeLessThanOrEqual(limit + STEPS_PER_SECOND);
    await Promise.all([onA.flush(), onB.flush()]);
    const row = await a.db.selectFrom('rateWindow').select('calls').where('scope', '=', 'test-two').executeTakeFirstOrThrow();
    expect(row.calls).toBe(takenA + takenB);
  });

  it('starts a window from every process’s count: the second process’s first call waits for the row', async () => {
    const clock = () => 1_000_000_400_000;
    const onA = new SharedWindow(a.db, { scope: 'test-start', windowMs: 60_000, clock });
    const onB = new SharedWindow(b.db, { scope: 'test-start', windowMs: 60_000, clock });
    for (let i = 0; i < 30; i += 1) await onA.count('key');
    await onA.flush();
    expect(await onB.count('key')).toBe(31);
    expect(await onB.take('key', 1, 31)).toBe(false);
  });
});
