import type { TableRef, GrantKind } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import type { Session } from '../../platform/auth/session.ts';
import { publish, stampOf } from '../../platform/cache/coherent.ts';
import { findUserFacts, findUserRole, listDeptParents, listGrantedIdsOfGroups, listGroupMembers, listTableGrantsOfGroups } from './access-repo.ts';
import { groupsOfUser, type GroupMembers } from './membership.ts';

/**
 * The permission service: the one place that answers "which groups does this user belong
 * to" and "may this user use resource Y". Every module asks here; nothing else reads grants.
 *
 * Answers are cached per app context in a snapshot that any change to groups, grants,
 * departments, roles or a user's department and roles throws away (`invalidatePermissions`).
 * The change is published on the cache bus's 'perm' topic (platform/cache/bus.ts), so every
 * process sharing the store throws its snapshot away too: at once by NOTIFY, at worst at its
 * next version poll (1 s). SNAPSHOT_TTL_MS is only a last backstop.
 */
export const SNAPSHOT_TTL_MS = 30_000;
const PERM_TOPICS = ['perm'] as const;

/** Who asks: a session, or the owner a share link or subscription acts for. */
export type Caller = Pick<Session, 'userId' | 'isAdministrator'>;

/** Everything, or the listed ids only. */
export type Granted = { all: true } | { all: false; ids: ReadonlySet<number> };

interface Snapshot {
  expiresAt: number;
  /** The 'perm' generation it was loaded under. */
  stamp: number;
  groups: Promise<{ groups: GroupMembers[]; parentOf: Map<number, number> }>;
  memberships: Map<number, Promise<number[]>>;
  /** Users read on behalf of (the owners of boards, links and jobs), by id. */
  owners: Map<number, Promise<Caller>>;
  /** Keyed by the sorted group ids of a caller: members of the same groups share one answer. */
  tableGrants: Map<string, Promise<Map<number, TableRef[]>>>;
  kindGrants: Map<string, Promise<Set<number>>>;
}

const snapshots = new WeakMap<AppContext, Snapshot>();

function snapshotOf(ctx: AppContext): Snapshot {
  const current = snapshots.get(ctx);
  const stamp = stampOf(ctx, PERM_TOPICS);
  if (current && current.stamp === stamp && current.expiresAt > Date.now()) return current;
  const fresh: Snapshot = {
    expiresAt: Date.now() + SNAPSHOT_TTL_MS,
    stamp,
    groups: Promise.all([listGroupMembers(ctx.db), listDeptParents(ctx.db)]).then(([groups, parentOf]) => ({ groups, parentOf })),
    memberships: new Map(),
    owners: new Map(),
    tableGrants: new Map(),
    kindGrants: new Map(),
  };
  // A failed load is not kept: the next question loads again.
  fresh.groups.catch(() => snapshots.get(ctx) === fresh && snapshots.delete(ctx));
  snapshots.set(ctx, fresh);
  return fresh;
}

/**
 * Call after any change to groups, grants, departments, roles or users' departments and roles
 * has committed: this process and every other one sharing the store forget their answers.
 */
export function invalidatePermissions(ctx: AppContext): void {
  snapshots.delete(ctx);
  publish(ctx, 'perm');
}

/** Memoises `load` under `key` in `map`, forgetting it again if it fails. */
function memo<K, V>(map: Map<K, Promise<V>>, key: K, load: () => Promise<V>): Promise<V> {
  let promise = map.get(key);
  if (!promise) {
    promise = load();
    map.set(key, promise);
    promise.catch(() => map.get(key) === promise && map.delete(key));
  }
  return promise;
}

/** The ids of the groups the user belongs to (administrators too: membership is not a right). */
export function groupIdsOf(ctx: AppContext, userId: number): Promise<number[]> {
  const snapshot = snapshotOf(ctx);
  return memo(snapshot.memberships, userId, async () => {
    const [{ groups, parentOf }, facts] = await Promise.all([snapshot.groups, findUserFacts(ctx.db, userId)]);
    return facts ? groupsOfUser(groups, facts, parentOf) : [];
  });
}

/**
 * The caller a read is made on behalf of: the owner of a board, slideshow, share link or job.
 * An owner whose account no longer exists is an ordinary user without groups (never an
 * administrator: nobody vouches for what they published).
 */
export function ownerCaller(ctx: AppContext, userId: number): Promise<Caller> {
  return memo(snapshotOf(ctx).owners, userId, async () => (await findUserRole(ctx.db, userId)) ?? { userId, isAdministrator: false });
}

async function groupKey(ctx: AppContext, caller: Caller): Promise<{ ids: number[]; key: string }> {
  const ids = [...(await groupIdsOf(ctx, caller.userId))].sort((a, b) => a - b);
  return { ids, key: ids.join(',') };
}

/** Tables granted to the caller's groups, per data source (not for administrators: they may use all). */
export async function grantedTablesBySource(ctx: AppContext, caller: Caller): Promise<Map<number, TableRef[]>> {
  const snapshot = snapshotOf(ctx);
  const { ids, key } = await groupKey(ctx, caller);
  return memo(snapshot.tableGrants, key, () => listTableGrantsOfGroups(ctx.db, ids));
}

/** The data sources the caller may build on: all for administrators, else those with a granted table. */
export async function usableSources(ctx: AppContext, caller: Caller): Promise<Granted> {
  if (caller.isAdministrator) return { all: true };
  return { all: false, ids: new Set((await grantedTablesBySource(ctx, caller)).keys()) };
}

/** Tables of one source granted to the caller's groups; `all` for administrators. */
export async function grantedTables(ctx: AppContext, caller: Caller, datasourceId: number): Promise<{ all: true } | { all: false; tables: TableRef[] }> {
  if (caller.isAdministrator) return { all: true };
  return { all: false, tables: (await grantedTablesBySource(ctx, caller)).get(datasourceId) ?? [] };
}

/** Resources of a kind granted to the caller's groups; everything for administrators. */
export async function grantedIds(ctx: AppContext, caller: Caller, kind: Exclude<GrantKind, 'datasource'>): Promise<Granted> {
  if (caller.isAdministrator) return { all: true };
  const snapshot = snapshotOf(ctx);
  const { ids, key } = await groupKey(ctx, caller);
  return { all: false, ids: await memo(snapshot.kindGrants, `${kind}:${key}`, () => listGrantedIdsOfGroups(ctx.db, ids, kind)) };
}

/** Public status of a resource (spec 1 §3: 1 public, 0 permission-group controlled). */
export const PUBLIC_STATUS = { restricted: 0, public: 1 } as const;

/**
 * May the caller see this resource: administrators always, anyone when it is public, else
 * when it is granted to one of the caller's groups.
 */
export async function mayView(
  ctx: AppContext,
  caller: Caller,
  kind: Exclude<GrantKind, 'datasource'>,
  resource: { id: number; publicStatus?: number | null },
): Promise<boolean> {
  if (caller.isAdministrator || resource.publicStatus === PUBLIC_STATUS.public) return true;
  const granted = await grantedIds(ctx, caller, kind);
  return granted.all || granted.ids.has(resource.id);
}
