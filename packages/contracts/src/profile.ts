import { z } from 'zod';
import { zhCN } from './messages.ts';
import { emailField, hashedPassword, optionalText, phoneField, requiredText } from './common.ts';

/** Spec 1 §2.2 tab 0: avatar, name, realName, phone, email. */
export const profileUpdateSchema = z.object({
  avatar: optionalText(500),
  name: requiredText(zhCN.nameRequired, 50),
  realName: optionalText(50),
  phone: phoneField,
  email: emailField,
});
export type ProfileUpdate = z.input<typeof profileUpdateSchema>;

/** Spec 1 §2.2 tab 1: old, new and confirm, all sent hashed. */
export const passwordUpdateSchema = z
  .object({
    oldPassword: hashedPassword('请输入原密码'),
    newPassword: hashedPassword('请输入新密码'),
    confirmPassword: hashedPassword('请再次输入新密码'),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], message: zhCN.passwordMismatch })
  .refine((v) => v.newPassword !== v.oldPassword, { path: ['newPassword'], message: zhCN.passwordSameAsOld });
export type PasswordUpdate = z.input<typeof passwordUpdateSchema>;
