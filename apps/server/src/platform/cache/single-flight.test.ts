import { describe, expect, it } from 'vitest';
import { SingleFlightCache } from './single-flight.ts';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('single flight with a short result cache', () => {
  it('runs concurrent calls of one key once, and answers the next from the cache', async () => {
    const cache = new SingleFlightCache<number>({ ttlMs: 1000, maxEntries: 10 });
    const gate = deferred<number>();
    let calls = 0;
    const fn = () => {
      calls += 1;
      return gate.promise;
    };
    const a = cache.run('k', fn);
    const b = cache.run('k', fn);
    expect(cache.stats().inFlight).toBe(1);
    gate.resolve(42);
    const [ra, rb] = await Promise.all([a, b]);
    expect(calls).toBe(1);
    expect(ra).toEqual({ value: 42, shared: false });
    expect(rb).toEqual({ value: 42, shared: true });
    expect(await cache.run('k', fn)).toEqual({ value: 42, shared: true });
    expect(calls).toBe(1);
    expect(cache.stats()).toMatchObject({ executions: 1, joins: 1, hits: 1, entries: 1, inFlight: 0 });
  });

  it('runs different keys separately', async () => {
    const cache = new SingleFlightCache<string>({ ttlMs: 1000, maxEntries: 10 });
    const [a, b] = await Promise.all([cache.run('a', async () => 'A'), cache.run('b', async () => 'B')]);
    expect([a.value, b.value]).toEqual(['A', 'B']);
    expect(cache.stats().executions).toBe(2);
  });

  it('forgets answers after the TTL (injected clock)', async () => {
    let now = 1_000;
    const cache = new SingleFlightCache<number>({ ttlMs: 30_000, maxEntries: 10, now: () => now });
    let calls = 0;
    const fn = async () => ++calls;
    expect((await cache.run('k', fn)).value).toBe(1);
    now += 29_999;
    expect(await cache.run('k', fn)).toEqual({ value: 1, shared: true });
    now += 1;
    expect(await cache.run('k', fn)).toEqual({ value: 2, shared: false });
    expect(calls).toBe(2);
    now += 30_000;
    expect(cache.stats().entries).toBe(0);
  });

  it('does not keep errors: every waiter gets it, the next call runs again', async () => {
    const cache = new SingleFlightCache<number>({ ttlMs: 1000, maxEntries: 10 });
    const gate = deferred<number>();
    let calls = 0;
    const failing = () => {
      calls += 1;
      return gate.promise;
    };
    const a = cache.run('k', failing);
    const b = cache.run('k', failing);
    gate.reject(new Error('boom'));
    await expect(a).rejects.toThrow('boom');
    await expect(b).rejects.toThrow('boom');
    expect(calls).toBe(1);
    expect(cache.stats()).toMatchObject({ entries: 0, inFlight: 0 });
    expect(await cache.run('k', async () => 7)).toEqual({ value: 7, shared: false });
  });

  it('a function that throws synchronously is an error of the flight', async () => {
    const cache = new SingleFlightCache<number>({ ttlMs: 1000, maxEntries: 10 });
    await expect(
      cache.run('k', () => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    expect(cache.stats()).toMatchObject({ entries: 0, inFlight: 0 });
  });

  it('keeps at most maxEntries, least recently used leaving first', async () => {
    const cache = new SingleFlightCache<string>({ ttlMs: 60_000, maxEntries: 2 });
    let calls = 0;
    const fn = (v: string) => async () => {
      calls += 1;
      return v;
    };
    await cache.run('a', fn('A'));
    await cache.run('b', fn('B'));
    await cache.run('a', fn('A')); // a is now the most recent
    await cache.run('c', fn('C')); // b leaves
    expect(cache.stats().entries).toBe(2);
    expect(calls).toBe(3);
    expect((await cache.run('a', fn('A'))).shared).toBe(true);
    expect((await cache.run('c', fn('C'))).shared).toBe(true);
    expect((await cache.run('b', fn('B'))).shared).toBe(false);
    expect(calls).toBe(4);
  });

  it('keeps at most maxWeight in total, and does not keep an answer heavier than that', async () => {
    const cache = new SingleFlightCache<number[]>({ ttlMs: 60_000, maxEntries: 100, maxWeight: 10, weigh: (rows) => rows.length });
    await cache.run('six', async () => [1, 2, 3, 4, 5, 6]);
    await cache.run('four', async () => [1, 2, 3, 4]);
    expect(cache.stats()).toMatchObject({ entries: 2, weight: 10 });
    await cache.run('one', async () => [1]); // six leaves
    expect(cache.stats()).toMatchObject({ entries: 2, weight: 5 });
    const big = await cache.run('big', async () => new Array(11).fill(0));
    expect(big.shared).toBe(false);
    expect(cache.stats()).toMatchObject({ entries: 2, weight: 5 });
    expect((await cache.run('big', async () => [])).shared).toBe(false);
  });

  it('with ttl 0 shares flights but keeps nothing', async () => {
    const cache = new SingleFlightCache<number>({ ttlMs: 0, maxEntries: 10 });
    const gate = deferred<number>();
    const a = cache.run('k', () => gate.promise);
    const b = cache.run('k', () => gate.promise);
    gate.resolve(1);
    expect((await b).shared).toBe(true);
    await a;
    expect(cache.stats().entries).toBe(0);
  });

  it('clear() forgets kept answers and does not keep a flight started before it', async () => {
    const cache = new SingleFlightCache<number>({ ttlMs: 60_000, maxEntries: 10 });
    await cache.run('a', async () => 1);
    const gate = deferred<number>();
    const pending = cache.run('b', () => gate.promise);
    cache.clear();
    gate.resolve(2);
    await pending;
    expect(cache.stats()).toMatchObject({ entries: 0, weight: 0 });
  });
});
