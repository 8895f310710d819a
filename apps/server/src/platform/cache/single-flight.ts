/**
 * Single flight with a short result cache: callers asking for the same key while a call is
 * running share that call; its answer is then kept for `ttlMs` and handed to the next callers.
 * Failures are never kept: every waiter of the failed flight gets the error, the next caller
 * runs again. Bounded: at most `maxEntries` answers and at most `maxWeight` in total (by
 * `weigh`, e.g. rows); the least recently used answers leave first, and an answer heavier
 * than `maxWeight` alone is handed out but not kept.
 */

export interface SingleFlightOptions<V> {
  /** How long an answer is kept, in milliseconds (0: flights are shared, nothing is kept). */
  ttlMs: number;
  /** Most answers kept. */
  maxEntries: number;
  /** Most total weight kept (default: no bound beyond maxEntries). */
  maxWeight?: number;
  /** The weight of one answer (default 1). */
  weigh?: (value: V) => number;
  /** The clock, in milliseconds (tests inject one). */
  now?: () => number;
}

export interface SingleFlightStats {
  /** Calls of the underlying function. */
  executions: number;
  /** Answers given from the kept results. */
  hits: number;
  /** Answers given by joining a call already in flight. */
  joins: number;
  /** Kept answers now. */
  entries: number;
  /** Their total weight. */
  weight: number;
  /** Calls in flight now. */
  inFlight: number;
}

export interface SingleFlightAnswer<V> {
  value: V;
  /** Came from a kept answer or from a flight another caller started. */
  shared: boolean;
}

interface Entry<V> {
  value: V;
  weight: number;
  expiresAt: number;
}

export class SingleFlightCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly flights = new Map<string, Promise<V>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly maxWeight: number;
  private readonly weigh: (value: V) => number;
  private readonly now: () => number;
  private totalWeight = 0;
  private counters = { executions: 0, hits: 0, joins: 0 };
  /** Bumped by clear(): a flight started before it does not store its answer. */
  private generation = 0;

  constructor(options: SingleFlightOptions<V>) {
    this.ttlMs = Math.max(0, options.ttlMs);
    this.maxEntries = Math.max(0, options.maxEntries);
    this.maxWeight = options.maxWeight ?? Number.POSITIVE_INFINITY;
    this.weigh = options.weigh ?? (() => 1);
    this.now = options.now ?? Date.now;
  }

  /** The kept answer for `key`, else the flight in progress for it, else a new call of `fn` (its answer kept `ttlMs`, default the cache's). */
  async run(key: string, fn: () => Promise<V>, ttlMs = this.ttlMs): Promise<SingleFlightAnswer<V>> {
    const kept = this.lookup(key);
    if (kept) {
      this.counters.hits += 1;
      return { value: kept.value, shared: true };
    }
    const flying = this.flights.get(key);
    if (flying) {
      this.counters.joins += 1;
      return { value: await flying, shared: true };
    }
    const generation = this.generation;
    this.counters.executions += 1;
    const flight = (async () => fn())();
    this.flights.set(key, flight);
    try {
      const value = await flight;
      if (generation === this.generation) this.store(key, value, ttlMs);
      return { value, shared: false };
    } finally {
      if (this.flights.get(key) === flight) this.flights.delete(key);
    }
  }

  stats(): SingleFlightStats {
    this.purgeExpired();
    return { ...this.counters, entries: this.entries.size, weight: this.totalWeight, inFlight: this.flights.size };
  }

  /** Forgets every kept answer (flights in progress finish but are not kept). */
  clear(): void {
    this.entries.clear();
    this.totalWeight = 0;
    this.generation += 1;
  }

  private lookup(key: string): Entry<V> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.remove(key, entry);
      return undefined;
    }
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /** Forgets the kept answers whose key passes `test` (flights in progress still keep theirs). */
  forget(test: (key: string) => boolean): void {
    for (const [key, entry] of this.entries) if (test(key)) this.remove(key, entry);
  }

  private store(key: string, value: V, ttlMs: number): void {
    if (ttlMs <= 0 || this.maxEntries === 0) return;
    const weight = Math.max(0, this.weigh(value));
    if (weight > this.maxWeight) return;
    const previous = this.entries.get(key);
    if (previous) this.remove(key, previous);
    this.entries.set(key, { value, weight, expiresAt: this.now() + ttlMs });
    this.totalWeight += weight;
    this.purgeExpired();
    for (const [oldKey, oldEntry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.totalWeight <= this.maxWeight) break;
      this.remove(oldKey, oldEntry);
    }
  }

  private purgeExpired(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.remove(key, entry);
  }

  private remove(key: string, entry: Entry<V>): void {
    this.entries.delete(key);
    this.totalWeight -= entry.weight;
  }
}
