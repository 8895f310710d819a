import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { addCalls } from './runtime-repo.ts';

/**
 * The per-key rate window (calls per minute), counted in memory and added to the shared row
 * (`data_api_rate`) at most once a second (docs/dataapi.md "Rate limit"). A key's first call of
 * a minute in this process waits for the row, so it starts from every process's count; later
 * calls compare the last known total plus this process's calls since. Another process's calls
 * therefore reach this one's count within a second of their next call: with N processes, a key
 * can overrun its limit by at most the calls the other processes took in that second.
 */

type Db = Kysely<Database>;

const SYNC_MS = 1_000;
const MINUTE_MS = 60_000;

interface Window {
  minute: number;
  /** The row's total at the last sync (every process's calls). */
  shared: number;
  /** Calls of this process being added to the row right now. */
  inFlight: number;
  /** Calls of this process not yet added. */
  pending: number;
  syncedAt: number;
  /** Whether a sync has answered in this minute (before that, calls wait for the first). */
  known: boolean;
  syncing: Promise<void> | null;
}

const windows = new WeakMap<Db, Map<string, Window>>();

function sync(db: Db, accessKey: string, window: Window): Promise<void> {
  const calls = window.pending;
  window.pending = 0;
  window.inFlight += calls;
  window.syncedAt = Date.now();
  const syncing: Promise<void> = addCalls(db, accessKey, new Date(window.minute * MINUTE_MS), calls)
    .then(
      (total) => {
        window.shared = Math.max(window.shared, total);
        window.known = true;
      },
      (error: unknown) => {
        // Not added: counted again with the next sync.
        window.pending += calls;
        throw error;
      },
    )
    .finally(() => {
      window.inFlight -= calls;
      if (window.syncing === syncing) window.syncing = null;
    });
  window.syncing = syncing;
  return syncing;
}

/** Counts one call of the key; answers the calls of the current minute so far (this one included). */
export async function countCall(db: Db, accessKey: string): Promise<number> {
  let byKey = windows.get(db);
  if (!byKey) windows.set(db, (byKey = new Map()));
  const now = Date.now();
  const minute = Math.floor(now / MINUTE_MS);
  let window = byKey.get(accessKey);
  if (!window || window.minute !== minute) {
    window = { minute, shared: 0, inFlight: 0, pending: 0, syncedAt: 0, known: false, syncing: null };
    byKey.set(accessKey, window);
    if (byKey.size > 10_000) for (const [k, w] of byKey) if (w.minute !== minute) byKey.delete(k);
  }
  window.pending += 1;
  if (!window.known) await (window.syncing ?? sync(db, accessKey, window));
  else if (!window.syncing && now - window.syncedAt >= SYNC_MS) void sync(db, accessKey, window).catch(() => undefined);
  return window.shared + window.inFlight + window.pending;
}
