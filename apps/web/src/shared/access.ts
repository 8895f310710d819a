import type { PermissionCode, UserInfo } from '@shutu/contracts';

/** Who may open a page or use a button. */
export type Access = 'user' | 'admin' | { permission: PermissionCode };

type Who = Pick<UserInfo, 'isAdministrator' | 'permissions'>;

/** Administrators hold every permission code. */
export function hasPermission(user: Who | null | undefined, code: PermissionCode): boolean {
  if (!user) return false;
  return user.isAdministrator || user.permissions.includes(code);
}

export function canAccess(user: Who | null | undefined, access: Access): boolean {
  if (!user) return false;
  if (access === 'user') return true;
  if (access === 'admin') return user.isAdministrator;
  return hasPermission(user, access.permission);
}
