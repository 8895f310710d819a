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

/**
 * 嵌入设置: the origins (scheme, host, optional port; `https://*.example.com` for subdomains) whose
 * pages may frame the embeddable pages, /openview/{id} and share links /share/{code}: they go into
 * those pages' Content-Security-Policy `frame-ancestors` after 'self'. Every other page may be
 * framed by this server only. No paths, no `*` alone, no quotes: each entry is one CSP source.
 */
export const EMBED_ORIGIN_PATTERN = /^https?:\/\/(\*\.)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*(?::\d{1,5})?$/;
export const EMBED_ORIGINS_MAX = 50;
export const embedOriginInvalid = (value: string) => `来源格式不正确：${value}（只填协议、域名和端口，如 https://portal.example.com）`;

/** Trims, lower-cases and drops a trailing slash: `HTTPS://Portal.Example.com/` → `https://portal.example.com`. */
export const normalizeEmbedOrigin = (value: string): string => value.trim().toLowerCase().replace(/\/+$/, '');

export const embedSettingsSchema = z.object({
  embedOrigins: z
    .array(z.string().max(200).transform(normalizeEmbedOrigin))
    .max(EMBED_ORIGINS_MAX, `最多填写${EMBED_ORIGINS_MAX}个来源`)
    .transform((list) => [...new Set(list.filter((v) => v !== ''))])
    .superRefine((list, ctx) => {
      for (const value of list) {
        if (!EMBED_ORIGIN_PATTERN.test(value)) ctx.addIssue({ code: 'custom', message: embedOriginInvalid(value) });
      }
    }),
});
/** What GET and PUT answer: the stored, normalised list. */
export const embedSettingsResponseSchema = z.object({ embedOrigins: z.array(z.string()) });
export type EmbedSettings = z.output<typeof embedSettingsSchema>;
export type EmbedSettingsInput = z.input<typeof embedSettingsSchema>;
