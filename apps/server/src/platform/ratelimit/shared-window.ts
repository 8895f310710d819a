import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * One rate limit shared by every server process on the store (issue 27, docs/scale-out.md "Rate
 * limits"): a fixed window per scope + key (a data-API key's minute, a tracked site's two
 * seconds), counted in memory and added to its row of `rate_window` (migration 0040) at most once
 * a second per process and key — never once per call, so the heat-map's 50k events/s cost one
 * statement per site and second.
 *
 * A key's first use in a window in this process waits for its row, so it starts from every
 * process's count; later uses compare the last known total plus this process's count since.
 * Another process's calls reach this one within a second of its next call: with N processes a key
 * can overrun its limit by at most what the other N-1 took in that second. A `take` past 80 % of
 * its limit syncs every 100 ms instead, so the last fifth of a budget is shared within 100 ms
 * (up to ten statements a second per key and process, only then). One process (PGlite) is exact:
 * every call is counted locally before the next is compared.
 *
 * Windows are fixed (start = floor(now / length)), by each process's clock: processes must share a
 * time source (NTP), as they already must for sessions and jobs.
 */

type Db = Kysely<Database>;

const SYNC_MS = 1_000;
/** Past this share of its limit a `take` syncs every SYNC_NEAR_LIMIT_MS: the last of the budget is shared closely. */
const NEAR_LIMIT = 0.8;
const SYNC_NEAR_LIMIT_MS = 100;
/** Rows of windows older than this are deleted (by whichever process syncs), at most once a minute per scope. */
const KEEP_MS = 10 * 60_000;
const PRUNE_EVERY_MS = 60_000;
/** Keys kept in memory before windows already over are forgotten. */
const MAX_KEYS = 10_000;

interface Window {
  start: number;
  /** The row's total at the last sync (every process's calls). */
  shared: number;
  /** Calls of this process being added to the row right now. */
  inFlight: number;
  /** Calls of this process not yet added. */
  pending: number;
  syncedAt: number;
  /** Whether a sync has answered in this window (before that, uses wait for the first). */
  known: boolean;
  syncing: Promise<void> | null;
}

export interface SharedWindowOptions {
  /** Which limit: rows of different scopes never mix (at most 32 characters). */
  scope: string;
  windowMs: number;
  clock?: () => number;
}

/** Adds `calls` to the row of the window; answers the row's total (every process's calls). */
async function addToRow(db: Db, scope: string, key: string, windowStart: Date, calls: number): Promise<number> {
  const row = await db
    .insertInto('rateWindow')
    .values({ scope, key, windowStart, calls })
    .onConflict((oc) => oc.columns(['scope', 'key', 'windowStart']).doUpdateSet({ calls: sql`rate_window.calls + ${calls}` }))
    .returning('calls')
    .executeTakeFirstOrThrow();
  return row.calls;
}

export class SharedWindow {
  readonly scope: string;
  readonly windowMs: number;
  private readonly clock: () => number;
  private readonly windows = new Map<string, Window>();
  private prunedAt = 0;

  constructor(
    private readonly db: Db,
    options: SharedWindowOptions,
  ) {
    this.scope = options.scope;
    this.windowMs = options.windowMs;
    this.clock = options.clock ?? (() => Date.now());
  }

  /** Counts `n` calls of the key, allowed or not; answers the window's calls so far (these included). */
  async count(key: string, n = 1): Promise<number> {
    const window = this.windowOf(key);
    window.pending += n;
    if (!window.known) await (window.syncing ?? this.sync(key, window));
    else this.maybeSync(key, window);
    return window.shared + window.inFlight + window.pending;
  }

  /** Takes `n` from the key's window when that stays within `limit`; false (nothing taken) otherwise. */
  async take(key: string, n: number, limit: number): Promise<boolean> {
    const window = this.windowOf(key);
    if (!window.known) await (window.syncing ?? this.sync(key, window));
    if (window.shared + window.inFlight + window.pending + n > limit) return false;
    window.pending += n;
    const near = window.shared + window.inFlight + window.pending >= limit * NEAR_LIMIT;
    this.maybeSync(key, window, near ? SYNC_NEAR_LIMIT_MS : SYNC_MS);
    return true;
  }

  /** Adds what this process counted and not yet added (on close). */
  async flush(): Promise<void> {
    await Promise.all(
      [...this.windows].map(async ([key, window]) => {
        await window.syncing?.catch(() => undefined);
        if (window.pending > 0) await this.sync(key, window);
      }),
    );
  }

  /** Waits for the additions to the store under way (a test's step; no new one is started). */
  async settled(): Promise<void> {
    await Promise.all([...this.windows.values()].map((w) => w.syncing?.catch(() => undefined)));
  }

  private windowOf(key: string): Window {
    const start = Math.floor(this.clock() / this.windowMs) * this.windowMs;
    let window = this.windows.get(key);
    if (!window || window.start !== start) {
      window = { start, shared: 0, inFlight: 0, pending: 0, syncedAt: 0, known: false, syncing: null };
      this.windows.set(key, window);
      if (this.windows.size > MAX_KEYS) for (const [k, w] of this.windows) if (w.start !== start) this.windows.delete(k);
    }
    return window;
  }

  private maybeSync(key: string, window: Window, every = SYNC_MS): void {
    if (!window.syncing && window.pending > 0 && this.clock() - window.syncedAt >= every) void this.sync(key, window).catch(() => undefined);
  }

  private sync(key: string, window: Window): Promise<void> {
    const calls = window.pending;
    window.pending = 0;
    window.inFlight += calls;
    window.syncedAt = this.clock();
    // The row's total and this process's in-flight calls change together, in one callback: a use
    // compared in between would count these calls twice or not at all.
    const syncing: Promise<void> = addToRow(this.db, this.scope, key, new Date(window.start), calls)
      .then(
        (total) => {
          window.inFlight -= calls;
          window.shared = Math.max(window.shared, total);
          window.known = true;
        },
        (error: unknown) => {
          // Not added: counted again with the next sync.
          window.inFlight -= calls;
          window.pending += calls;
          throw error;
        },
      )
      .finally(() => {
        if (window.syncing === syncing) window.syncing = null;
      });
    window.syncing = syncing;
    this.prune();
    return syncing;
  }

  private prune(): void {
    const now = this.clock();
    if (now - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now;
    const before = new Date(now - Math.max(KEEP_MS, 2 * this.windowMs));
    void this.db
      .deleteFrom('rateWindow')
      .where('scope', '=', this.scope)
      .where('windowStart', '<', before)
      .execute()
      .catch(() => undefined);
  }
}

const byStore = new WeakMap<Db, Map<string, SharedWindow>>();

/** The store's window of a scope (one per scope and store, so every caller of a rule counts together). */
export function sharedWindow(db: Db, scope: string, windowMs: number): SharedWindow {
  let scopes = byStore.get(db);
  if (!scopes) byStore.set(db, (scopes = new Map()));
  let window = scopes.get(scope);
  if (!window || window.windowMs !== windowMs) scopes.set(scope, (window = new SharedWindow(db, { scope, windowMs })));
  return window;
}
