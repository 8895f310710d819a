import { z } from 'zod';

/**
 * Tracked websites and their write keys (issue 22; docs/heatmap.md "Sites and write keys"), and
 * whether the heat map frames a page or shows the server's screenshot of it ("Screenshot fallback").
 * Administrators add a site (its key is made by the server), disable it (its batches are refused,
 * its clicks kept), set its rate limit and retention, and delete it with its clicks.
 */

export const trackMessages = {
  siteNameRequired: '请输入网站名称',
  siteNameTaken: '网站名称【{name}】已存在',
  siteNotFound: '网站不存在',
  siteDisabled: '该网站已停用，不再接收点击事件',
  rateLimited: '写入过于频繁（每秒最多 {limit} 条事件），请稍后重试',
  rateLimitInvalid: '每秒事件上限须为 1 到 100000 的整数',
  retentionInvalid: '保留天数须为 1 到 3650 的整数',
  projectInvalid: '项目名须为 1 到 100 个字符',
  // The screenshot fallback.
  frameDenied: '该网站禁止被其他网站嵌入（{header}），下面是服务器按所选宽度截取的页面截图',
  frameOtherOrigin: '本系统只嵌入本站的页面，下面是服务器按所选宽度截取的页面截图',
  frameUnreachable: '服务器无法打开该页面：{detail}',
  pageUnknown: '没有找到网站【{title}】',
  screenshotWidthInvalid: '截图宽度须为 320 到 3840 的整数',
} as const;

export const TRACK_RATE_LIMIT_DEFAULT = 5000;
export const TRACK_RATE_LIMIT_MAX = 100_000;
export const TRACK_RETENTION_DEFAULT = 365;
export const TRACK_RETENTION_MAX = 3650;
export const SCREENSHOT_MIN_WIDTH = 320;
export const SCREENSHOT_MAX_WIDTH = 3840;

export { TRACK_SITE_PATHS } from './constants.ts';

export const trackSiteSchema = z.object({
  id: z.number(),
  siteName: z.string(),
  writeKey: z.string(),
  project: z.string(),
  enabled: z.boolean(),
  rateLimit: z.number(),
  retentionDays: z.number(),
  acceptedEvents: z.number(),
  invalidBatches: z.number(),
  invalidEvents: z.number(),
  limitedBatches: z.number(),
  lastEventTime: z.string().nullable(),
  createTime: z.string(),
});
export type TrackSite = z.infer<typeof trackSiteSchema>;

const siteName = z.string({ error: trackMessages.siteNameRequired }).trim().min(1, trackMessages.siteNameRequired).max(100);
const project = z.string().trim().min(1, trackMessages.projectInvalid).max(100, trackMessages.projectInvalid);
const rateLimit = z
  .number({ error: trackMessages.rateLimitInvalid })
  .int(trackMessages.rateLimitInvalid)
  .min(1, trackMessages.rateLimitInvalid)
  .max(TRACK_RATE_LIMIT_MAX, trackMessages.rateLimitInvalid);
const retentionDays = z
  .number({ error: trackMessages.retentionInvalid })
  .int(trackMessages.retentionInvalid)
  .min(1, trackMessages.retentionInvalid)
  .max(TRACK_RETENTION_MAX, trackMessages.retentionInvalid);

export const trackSiteCreateSchema = z.object({
  siteName,
  project: project.default('production'),
  rateLimit: rateLimit.default(TRACK_RATE_LIMIT_DEFAULT),
  retentionDays: retentionDays.default(TRACK_RETENTION_DEFAULT),
});
export type TrackSiteCreate = z.input<typeof trackSiteCreateSchema>;

export const trackSiteUpdateSchema = z.object({
  siteName: siteName.optional(),
  project: project.optional(),
  enabled: z.boolean().optional(),
  rateLimit: rateLimit.optional(),
  retentionDays: retentionDays.optional(),
});
export type TrackSiteUpdate = z.input<typeof trackSiteUpdateSchema>;

export const trackSiteIdParamsSchema = z.object({ id: z.coerce.number().int().positive() });

export const heatmapFrameQuerySchema = z.object({ title: z.string().trim().min(1).max(200) });
export const heatmapFrameSchema = z.object({
  /** frame: the page in an iframe; screenshot: the server's picture of it. */
  mode: z.enum(['frame', 'screenshot']),
  /** Why not framed (for people), null when framed. */
  reason: z.string().nullable(),
});
export type HeatmapFrame = z.infer<typeof heatmapFrameSchema>;

export const heatmapScreenshotQuerySchema = z.object({
  title: z.string().trim().min(1).max(200),
  width: z.coerce
    .number({ error: trackMessages.screenshotWidthInvalid })
    .int(trackMessages.screenshotWidthInvalid)
    .min(SCREENSHOT_MIN_WIDTH, trackMessages.screenshotWidthInvalid)
    .max(SCREENSHOT_MAX_WIDTH, trackMessages.screenshotWidthInvalid),
});
