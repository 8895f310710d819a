import { z } from 'zod';
import { zhCN } from './messages.ts';

/** The browser never sends a password in clear: it sends the MD5 hex digest (spec 1 §5). */
export const hashedPassword = (missing: string = zhCN.passwordRequired) =>
  z
    .string({ error: missing })
    .min(1, missing)
    .regex(/^[0-9a-fA-F]{32}$/, zhCN.passwordMustBeHashed)
    .transform((s) => s.toLowerCase());

export const optionalText = (max = 200) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((s) => (s ? s : null));

export const phoneField = z
  .string()
  .trim()
  .nullish()
  .transform((s) => (s ? s : null))
  .refine((s) => s === null || /^\+?[0-9-]{5,20}$/.test(s), zhCN.phoneInvalid);

export const emailField = z
  .string()
  .trim()
  .nullish()
  .transform((s) => (s ? s : null))
  .refine((s) => s === null || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s), zhCN.emailInvalid);

export const requiredText = (message: string, max = 100) => z.string({ error: message }).trim().min(1, message).max(max);
