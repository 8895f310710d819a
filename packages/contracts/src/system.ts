import { z } from 'zod';
import { zhCN } from './messages.ts';
import { requiredText } from './common.ts';

export { DEFAULT_SYSTEM_NAME } from './constants.ts';

export const systemConfigSchema = z.object({ systemName: requiredText(zhCN.systemNameRequired, 50) });
export type SystemConfig = z.infer<typeof systemConfigSchema>;
/** What GET /api/system/config answers (public): the name, and the zone every time is shown in (docs/decisions.md "Time zone"). */
export const systemConfigResponseSchema = systemConfigSchema.extend({ timeZone: z.string() });
export type SystemConfigResponse = z.infer<typeof systemConfigResponseSchema>;

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

/**
 * 公开访问地址: the address people reach 数图 at (a domain behind a reverse proxy, say), put in front
 * of every link the product sends out or shows for copying — subscription messages, share links.
 * An http(s) origin with an optional path prefix; no user, query or fragment. Empty: the
 * environment's PUBLIC_URL, else where the request came in (share links) or the server's own
 * address (subscriptions; docs/decisions.md).
 */
export const PUBLIC_URL_MAX = 500;
export const publicUrlInvalid =
  '公开访问地址格式不正确：请填写以 http:// 或 https:// 开头的地址，可带路径前缀，不含 ?、# 和账号（如 https://bi.example.com 或 https://example.com/shutu）';

/**
 * The canonical form of a public base URL (`HTTPS://BI.Example.com:443/shutu/` → `https://bi.example.com/shutu`),
 * or undefined when the text is not one. '' stays ''.
 */
export function normalizePublicUrl(value: string): string | undefined {
  const text = value.trim();
  if (text === '') return '';
  if (!/^https?:\/\/[^\s?#]+$/i.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.username || url.password || !url.hostname) return undefined;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export const publicUrlSettingsSchema = z.object({
  publicUrl: z
    .string()
    .max(PUBLIC_URL_MAX, publicUrlInvalid)
    .transform((value, ctx) => {
      const normalized = normalizePublicUrl(value);
      if (normalized === undefined) {
        ctx.addIssue({ code: 'custom', message: publicUrlInvalid });
        return z.NEVER;
      }
      return normalized;
    }),
});
export type PublicUrlSettingsInput = z.input<typeof publicUrlSettingsSchema>;
/** What GET and PUT answer: the stored address ('' = unset) and the environment's PUBLIC_URL ('' = unset), the default. */
export const publicUrlSettingsResponseSchema = z.object({ publicUrl: z.string(), envPublicUrl: z.string() });
export type PublicUrlSettings = z.output<typeof publicUrlSettingsResponseSchema>;
