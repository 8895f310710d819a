import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

export interface SysUserTable {
  id: Generated<number>;
  account: string;
  passwordHash: string;
  name: string;
  realName: string | null;
  avatar: string | null;
  phone: string | null;
  email: string | null;
  userExtJson: string | null;
  deptId: number | null;
  isAdministrator: boolean;
  status: number;
  createTime: CreatedAt;
  updateTime: UpdatedAt;
}

export interface SysDeptTable {
  id: Generated<number>;
  parentId: number;
  deptName: string;
  sort: number;
}

export interface SysRoleTable {
  id: Generated<number>;
  parentId: number;
  roleName: string;
  sort: number;
}

export interface SysRolePermissionTable {
  roleId: number;
  code: string;
}

export interface SysUserRoleTable {
  userId: number;
  roleId: number;
}

export interface AuthTokenTable {
  id: Generated<number>;
  tokenHash: string;
  userId: number;
  createdAt: CreatedAt;
  expiresAt: Date;
  revokedAt: Date | null;
}

export interface AuthLoginFailureTable {
  id: Generated<number>;
  account: string;
  failedAt: CreatedAt;
}

export interface SysConfigTable {
  key: string;
  value: string;
}

export interface SysDictTable {
  id: Generated<number>;
  parentId: number;
  code: string;
  dictKey: number;
  dictValue: string;
  sort: number;
  isSealed: number;
  remark: string | null;
  createTime: CreatedAt;
  updateTime: UpdatedAt;
}

export interface Database {
  sysUser: SysUserTable;
  sysDept: SysDeptTable;
  sysRole: SysRoleTable;
  sysRolePermission: SysRolePermissionTable;
  sysUserRole: SysUserRoleTable;
  authToken: AuthTokenTable;
  authLoginFailure: AuthLoginFailureTable;
  sysConfig: SysConfigTable;
  sysDict: SysDictTable;
}
