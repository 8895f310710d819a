import { z } from 'zod';
import { zhCN } from './messages.ts';
import { emailField, hashedPassword, optionalText, phoneField, requiredText } from './common.ts';
import { pageQuerySchema } from './envelope.ts';

export const USER_STATUS = { disabled: 0, enabled: 1 } as const;

export const userSchema = z.object({
  id: z.number(),
  account: z.string(),
  name: z.string(),
  realName: z.string().nullable(),
  avatar: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  userExtJson: z.string().nullable(),
  deptId: z.number().nullable(),
  deptName: z.string().nullable(),
  roleIds: z.array(z.number()),
  isAdministrator: z.boolean(),
  status: z.number(),
  createTime: z.string(),
});
export type User = z.infer<typeof userSchema>;

const jsonText = z
  .string()
  .trim()
  .nullish()
  .transform((s) => (s ? s : null))
  .refine((s) => {
    if (s === null) return true;
    try {
      JSON.parse(s);
      return true;
    } catch {
      return false;
    }
  }, '扩展信息须为合法的JSON');

const userFields = {
  name: requiredText(zhCN.nameRequired, 50),
  realName: optionalText(50),
  avatar: optionalText(500),
  phone: phoneField,
  email: emailField,
  userExtJson: jsonText,
  deptId: z
    .number()
    .int()
    .positive()
    .nullish()
    .transform((v) => v ?? null),
  roleIds: z.array(z.number().int().positive()).max(100).default([]),
  isAdministrator: z.boolean().default(false),
};

export const userCreateSchema = z.object({
  account: requiredText(zhCN.accountRequired, 32).regex(/^[A-Za-z][A-Za-z0-9_]{1,31}$/, zhCN.accountInvalid),
  password: hashedPassword(),
  ...userFields,
});
export type UserCreate = z.input<typeof userCreateSchema>;

export const userUpdateSchema = z.object(userFields);
export type UserUpdate = z.input<typeof userUpdateSchema>;

export const userListQuerySchema = pageQuerySchema.extend({
  keyword: z.string().trim().max(100).optional(),
  deptId: z.coerce.number().int().positive().optional(),
});
export type UserListQuery = z.input<typeof userListQuerySchema>;

export const userStatusSchema = z.object({ status: z.union([z.literal(0), z.literal(1)]) });
export const resetPasswordSchema = z.object({ password: hashedPassword() });

export interface TreeNode<T> {
  children: (T & TreeNode<T>)[];
}

export const departmentSchema = z.object({
  id: z.number(),
  parentId: z.number(),
  deptName: z.string(),
  sort: z.number(),
});
export type Department = z.infer<typeof departmentSchema>;
export type DepartmentNode = Department & { children: DepartmentNode[] };
/** One department with its sub-departments, as GET departments returns them. */
export const departmentNodeSchema: z.ZodType<DepartmentNode> = departmentSchema
  .extend({
    get children() {
      return z.array(departmentNodeSchema);
    },
  })
  // A named schema: the API document refers to it from itself and lists it under components.
  .meta({ id: 'DepartmentNode' });

export const departmentSaveSchema = z.object({
  parentId: z.number().int().min(0).default(0),
  deptName: requiredText(zhCN.deptNameRequired, 50),
  sort: z.number().int().min(0).max(100000).default(0),
});
export type DepartmentSave = z.input<typeof departmentSaveSchema>;

export const roleSchema = z.object({
  id: z.number(),
  parentId: z.number(),
  roleName: z.string(),
  sort: z.number(),
  permissions: z.array(z.string()),
});
export type Role = z.infer<typeof roleSchema>;
export type RoleNode = Role & { children: RoleNode[] };
/** One role with its sub-roles, as GET roles returns them. */
export const roleNodeSchema: z.ZodType<RoleNode> = roleSchema
  .extend({
    get children() {
      return z.array(roleNodeSchema);
    },
  })
  .meta({ id: 'RoleNode' });

export const roleSaveSchema = z.object({
  parentId: z.number().int().min(0).default(0),
  roleName: requiredText(zhCN.roleNameRequired, 50),
  sort: z.number().int().min(0).max(100000).default(0),
  permissions: z.array(z.string()).max(200).default([]),
});
export type RoleSave = z.input<typeof roleSaveSchema>;

export const permissionSchema = z.object({ code: z.string(), name: z.string(), group: z.string() });
export type Permission = z.infer<typeof permissionSchema>;
