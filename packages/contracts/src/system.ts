import { z } from 'zod';
import { zhCN } from './messages.ts';
import { requiredText } from './common.ts';

export const DEFAULT_SYSTEM_NAME = '数图';

export const systemConfigSchema = z.object({ systemName: requiredText(zhCN.systemNameRequired, 50) });
export type SystemConfig = z.infer<typeof systemConfigSchema>;

/**
 * Notification channels of subscriptions (系统设置 → 通知设置; docs/subscriptions.md):
 * the SMTP server and the group robots. Secrets (SMTP password, robot secrets, the
 * tianxiangyun token) are stored encrypted and never returned: a set secret reads as
 * SECRET_MASK, and saving SECRET_MASK keeps the stored one. An empty string clears a field.
 */
export const SECRET_MASK = '******';

const settingText = (max = 500) => z.string().trim().max(max).default('');
const webhookUrl = z
  .string()
  .trim()
  .max(1000)
  .refine((v) => v === '' || /^https?:\/\/\S+$/i.test(v), '请输入以 http:// 或 https:// 开头的地址')
  .default('');

export const notifySettingsSchema = z.object({
  smtpHost: settingText(200),
  smtpPort: z.number().int().min(1).max(65535).default(465),
  smtpSecure: z.boolean().default(true),
  smtpUser: settingText(200),
  smtpPassword: settingText(200),
  smtpFrom: settingText(200),
  wecomWebhook: webhookUrl,
  dingtalkWebhook: webhookUrl,
  dingtalkSecret: settingText(200),
  feishuWebhook: webhookUrl,
  feishuSecret: settingText(200),
  tianxiangyunWebhook: webhookUrl,
  tianxiangyunToken: settingText(500),
});
export type NotifySettings = z.output<typeof notifySettingsSchema>;
export type NotifySettingsInput = z.input<typeof notifySettingsSchema>;
/** The fields stored encrypted and returned masked. */
export const NOTIFY_SECRET_FIELDS = ['smtpPassword', 'dingtalkSecret', 'feishuSecret', 'tianxiangyunToken'] as const;
