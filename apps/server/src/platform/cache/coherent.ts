import type { Kysely } from 'kysely';
import { LocalCacheBus, type CacheBus, type CacheTopic } from './bus.ts';
import type { WriteWatchPlugin } from './watch.ts';

/**
 * Caches that follow the bus (bus.ts). A cache of a topic keeps its entries while the topic's
 * generation stays the same and at most `ttlMs`; any change published on the topic, in this
 * process or another, drops them before the next read.
 */

/** What holds a bus: the app context (server, worker, tests) or a store's database handle. */
export interface HasBus {
  bus?: CacheBus;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database schema
type AnyDb = Kysely<any>;
export type BusHolder = HasBus | AnyDb;

/** The bus of each store's database handle (openCacheBus, or an in-process one made on first use). */
const dbBuses = new WeakMap<object, CacheBus>();
/** The write watch of each store's database handle (store.ts). */
const writeWatches = new WeakMap<object, WriteWatchPlugin>();
/** Every bus of this process, for changes made where no context is at hand (tokens revoked inside a transaction). */
const buses = new Set<CacheBus>();
/** Process-wide generations: what publishEverywhere bumps besides the buses. */
const processGenerations = new Map<CacheTopic, number>();

/** store.ts: the plugin that sees this database handle's writes. */
export function registerWriteWatch(db: object, watch: WriteWatchPlugin): void {
  writeWatches.set(db, watch);
}

/** openCacheBus: this bus serves the store's database handle; its writes invalidate locally. */
export function attachBus(db: object, bus: CacheBus): () => void {
  dbBuses.set(db, bus);
  return writeWatches.get(db)?.onWrite((topic) => bus.invalidateLocal(topic)) ?? (() => undefined);
}

/**
 * The bus of a context (its own, else its store's) or of a database handle. A store opened
 * without openCacheBus (API tests, scripts) gets an in-process bus on first use.
 */
export function busOf(holder: BusHolder): CacheBus {
  if ('bus' in holder && holder.bus) return holder.bus;
  const db: object = 'db' in holder && holder.db ? (holder.db as object) : holder;
  let bus = dbBuses.get(db);
  if (!bus) {
    bus = new LocalCacheBus();
    attachBus(db, bus);
  }
  return bus;
}

/** Lets publishEverywhere reach a bus; returns the removal (call it when the bus closes). */
export function registerBus(bus: CacheBus): () => void {
  buses.add(bus);
  return () => buses.delete(bus);
}

/** Publishes on the context's bus (with a key: only that part of the topic changed, e.g. one source's data). */
export function publish(holder: BusHolder, topic: CacheTopic, key?: string): void {
  busOf(holder).publish(topic, key);
}

/**
 * Publishes on every bus of this process and on the process-wide generation: for writers that
 * hold only a database handle (a transaction), e.g. revoking tokens.
 */
export function publishEverywhere(topic: CacheTopic): void {
  processGenerations.set(topic, (processGenerations.get(topic) ?? 0) + 1);
  for (const bus of buses) bus.publish(topic);
}

/** One number that changes when any of the topics changes (generations only grow). */
export function stampOf(holder: BusHolder, topics: readonly CacheTopic[]): number {
  const bus = busOf(holder);
  let stamp = 0;
  for (const topic of topics) stamp += bus.generation(topic) + (processGenerations.get(topic) ?? 0);
  return stamp;
}

interface Slot<V> {
  stamp: number;
  entries: Map<string, { at: number; value: Promise<V> }>;
}

/**
 * A per-context memo of promises, dropped whenever one of its topics changes, each entry kept
 * at most `ttlMs`. A load that fails is not kept. A load started before a change is not kept
 * either: the change replaced the map it was put in.
 */
export class CoherentMemo<V> {
  private readonly slots = new WeakMap<object, Slot<V>>();

  constructor(
    private readonly topics: readonly CacheTopic[],
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(holder: BusHolder, key: string, load: () => Promise<V>, now = Date.now()): Promise<V> {
    const entries = this.entriesOf(holder);
    const hit = entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    if (entries.size >= this.maxEntries) entries.clear();
    const value = load();
    const entry = { at: now, value };
    entries.set(key, entry);
    value.catch(() => entries.get(key) === entry && entries.delete(key));
    return value;
  }

  /** Forgets one entry in this process (the caller publishes too when others must forget). */
  delete(holder: BusHolder, key: string): void {
    this.slots.get(holder)?.entries.delete(key);
  }

  private entriesOf(holder: BusHolder): Map<string, { at: number; value: Promise<V> }> {
    const stamp = stampOf(holder, this.topics);
    let slot = this.slots.get(holder);
    if (!slot || slot.stamp !== stamp) {
      slot = { stamp, entries: new Map() };
      this.slots.set(holder, slot);
    }
    return slot.entries;
  }
}

const reads = new CoherentMemo<unknown>(['dataset'], 60_000, 20_000);

/**
 * A metadata read of the hot path (a board's chart, a dataset, its fields, filters, views),
 * kept per database handle until a watched table is written (watch.ts) or 60 s passed. Reads
 * inside a transaction are never kept nor served from memory.
 */
export function cachedRead<T>(db: AnyDb, key: string, load: () => Promise<T>): Promise<T> {
  if (db.isTransaction) return load();
  return reads.get(db, key, load) as Promise<T>;
}
