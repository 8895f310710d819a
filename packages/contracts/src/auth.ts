import { z } from 'zod';
import { zhCN } from './messages.ts';
import { hashedPassword, requiredText } from './common.ts';

export const loginRequestSchema = z.object({
  account: requiredText(zhCN.accountRequired, 64),
  password: hashedPassword(),
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

/**
 * mustChangePassword: the account still has its initial password (the seeded admin / admin123);
 * every call but the password change, logout and current-user info answers 403 请先修改初始密码
 * until it is changed.
 */
export const loginResponseSchema = z.object({ token: z.string(), expiresAt: z.string(), mustChangePassword: z.boolean() });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const userInfoSchema = z.object({
  id: z.number(),
  account: z.string(),
  name: z.string(),
  realName: z.string().nullable(),
  avatar: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  deptId: z.number().nullable(),
  roleIds: z.array(z.number()),
  isAdministrator: z.boolean(),
  permissions: z.array(z.string()),
  /** Set while the initial password is unchanged: the web app opens 修改初始密码 before anything else. */
  mustChangePassword: z.boolean(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;
