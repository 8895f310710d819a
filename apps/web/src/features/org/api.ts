import type { DepartmentNode, DepartmentSave, Page, Permission, RoleNode, RoleSave, User, UserCreate, UserUpdate } from '@shutu/contracts';
import { API, apiPath } from '@shutu/contracts';
import { http } from '../../shared/api.ts';
import { md5Hex } from '../../shared/password.ts';

export interface UserListParams {
  current: number;
  size: number;
  keyword?: string;
  deptId?: number;
}

export const orgKeys = {
  users: (q: UserListParams) => ['org', 'users', q] as const,
  usersAll: ['org', 'users'] as const,
  departments: ['org', 'departments'] as const,
  roles: ['org', 'roles'] as const,
  permissions: ['org', 'permissions'] as const,
};

export const fetchUsers = (q: UserListParams) => http.get<Page<User>>(API.org.users, { ...q });
/** The initial password goes out as MD5 hex, like every password. */
export const createUser = (body: UserCreate) => http.post<User>(API.org.users, { ...body, password: md5Hex(body.password) });
export const updateUser = (id: number, body: UserUpdate) => http.put<User>(apiPath(API.org.user, { id }), body);
export const setUserStatus = (id: number, status: 0 | 1) => http.put<User | null>(apiPath(API.org.userStatus, { id }), { status });
export const resetUserPassword = (id: number, password: string) => http.put<null>(apiPath(API.org.userPassword, { id }), { password: md5Hex(password) });

export const fetchDepartments = () => http.get<DepartmentNode[]>(API.org.departments);
export const createDepartment = (body: DepartmentSave) => http.post<DepartmentNode>(API.org.departments, body);
export const updateDepartment = (id: number, body: DepartmentSave) => http.put<DepartmentNode>(apiPath(API.org.department, { id }), body);
export const deleteDepartment = (id: number) => http.del<null>(apiPath(API.org.department, { id }));

export const fetchRoles = () => http.get<RoleNode[]>(API.org.roles);
export const createRole = (body: RoleSave) => http.post<RoleNode>(API.org.roles, body);
export const updateRole = (id: number, body: RoleSave) => http.put<RoleNode>(apiPath(API.org.role, { id }), body);
export const deleteRole = (id: number) => http.del<null>(apiPath(API.org.role, { id }));

export const fetchPermissions = () => http.get<Permission[]>(API.org.permissions);
