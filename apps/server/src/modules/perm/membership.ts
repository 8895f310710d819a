import type { PermJson } from '@shutu/contracts';

/** A group as membership needs it. */
export interface GroupMembers {
  id: number;
  permJson: PermJson;
}

/** What decides a user's groups: who they are, their department and their roles. */
export interface UserFacts {
  userId: number;
  deptId: number | null;
  roleIds: readonly number[];
}

/** The department and every department above it (a broken parent chain or a cycle just ends the walk). */
export function deptLineage(deptId: number | null, parentOf: ReadonlyMap<number, number>): Set<number> {
  const lineage = new Set<number>();
  for (let id = deptId; id !== null && id !== undefined && id !== 0 && !lineage.has(id); id = parentOf.get(id) ?? null) {
    lineage.add(id);
  }
  return lineage;
}

/**
 * The groups a user belongs to (spec 2 §6): listed by name, in a listed department or one of
 * its sub-departments, or holding a listed role; never when black-listed, whatever else lists them.
 */
export function groupsOfUser(groups: readonly GroupMembers[], user: UserFacts, parentOf: ReadonlyMap<number, number>): number[] {
  const lineage = deptLineage(user.deptId, parentOf);
  const roles = new Set(user.roleIds);
  const listed = (list: readonly { id: number }[], has: (id: number) => boolean) => list.some((m) => has(m.id));
  return groups
    .filter(({ permJson: p }) => {
      if (listed(p.blackUserList, (id) => id === user.userId)) return false;
      return listed(p.userList, (id) => id === user.userId) || listed(p.dpList, (id) => lineage.has(id)) || listed(p.roleList, (id) => roles.has(id));
    })
    .map((g) => g.id);
}
