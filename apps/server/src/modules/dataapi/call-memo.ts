import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';

/**
 * What every published call reads before it runs — the API by its key, the access key, the
 * key's scope — kept in this process for META_MEMO_MS (docs/dataapi.md "Per-call work"). Every
 * write of an API or a key in this process forgets its kind at once (repo.ts, runtime-repo.ts
 * call `forgetMemo`), so a revoked key or an API taken offline is refused by the next call
 * here; another process sharing the store sees the change within META_MEMO_MS.
 */

type Db = Kysely<Database>;
export type MemoKind = 'api' | 'key' | 'scope';

export const META_MEMO_MS = 1_000;

interface Entry {
  until: number;
  value: Promise<unknown>;
}

const memos = new WeakMap<Db, Record<MemoKind, Map<string, Entry>>>();

function memoOf(db: Db): Record<MemoKind, Map<string, Entry>> {
  let memo = memos.get(db);
  if (!memo) memos.set(db, (memo = { api: new Map(), key: new Map(), scope: new Map() }));
  return memo;
}

/** `load()` under `kind`/`name`, shared for META_MEMO_MS by concurrent and later calls; failures are not kept. */
export function memoized<V>(db: Db, kind: MemoKind, name: string, load: () => Promise<V>): Promise<V> {
  const map = memoOf(db)[kind];
  const now = Date.now();
  const hit = map.get(name);
  if (hit && hit.until > now) return hit.value as Promise<V>;
  const value = load();
  const entry = { until: now + META_MEMO_MS, value };
  map.set(name, entry);
  value.catch(() => map.get(name) === entry && map.delete(name));
  // Bounded by the number of distinct names called within a second; expired entries go on the next write.
  if (map.size > 10_000) for (const [k, e] of map) if (e.until <= now) map.delete(k);
  return value;
}

/** After a write: the next call of this process reads the store again. */
export function forgetMemo(db: Db, ...kinds: MemoKind[]): void {
  const memo = memos.get(db);
  if (memo) for (const kind of kinds) memo[kind].clear();
}
