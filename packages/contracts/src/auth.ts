import { z } from 'zod';
import { zhCN } from './messages.ts';
import { hashedPassword, requiredText } from './common.ts';

export const loginRequestSchema = z.object({
  account: requiredText(zhCN.accountRequired, 64),
  password: hashedPassword(),
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

export const loginResponseSchema = z.object({ token: z.string(), expiresAt: z.string() });
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
});
export type UserInfo = z.infer<typeof userInfoSchema>;
