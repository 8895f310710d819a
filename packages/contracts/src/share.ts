import { z } from 'zod';
import { pageQuerySchema } from './envelope.ts';

/**
 * Share links (spec 1 §2.6, §3 "Share link", §7 "Shares"; docs/shares.md): a short link to a
 * dashboard, a self-service report or a slideshow. linkType 0 (login-free): anyone holding the
 * link opens it, and sees the rows the link's OWNER may see; linkType 1 (account matching): the
 * visitor signs in and sees the rows their OWN account may see, and must themself be allowed to
 * see the content. Either may carry a password and an expiry. The share-authorisation panel
 * (第三方链接 tab of a permission group) restricts account-matching links to groups.
 */

export const shareMessages = {
  linkGone: '链接不存在或已失效',
  scopeRefused: '分享链接只能查看分享的内容',
  linkExpired: '链接已过期',
  passwordRequired: '请输入访问密码',
  passwordWrong: '密码错误',
  passwordLength: '访问密码为 4-32 个字符',
  tooManyAttempts: '密码错误次数过多，请一分钟后再试',
  loginRequired: '该链接需要登录后访问',
  forbidden: '没有此大屏权限',
  groupForbidden: '您所在的权限组不能访问此链接',
  expireInPast: '有效期须晚于当前时间',
  dataNotFound: '分享的内容不存在',
  notOwned: '只能修改或删除自己创建的分享',
  linkNotFound: '分享不存在',
  linkIdsUnknown: '分享链接不存在，请刷新后重新选择',
  purposeRequired: '请填写用途',
  created: '已生成分享链接',
  copied: '已复制链接',
  saved: '已保存',
  updated: '已更新',
  deleted: '已删除',
} as const;

export const SHARE_DATA_TYPES = ['visual', 'report', 'ppt'] as const;
export type ShareDataType = (typeof SHARE_DATA_TYPES)[number];
export const SHARE_DATA_TYPE_LABELS: Record<ShareDataType, string> = { visual: '可视化大屏', report: '自助报表', ppt: '幻灯片' };

/** linkType: 0 login-free (the owner's rows), 1 account matching (the visitor's own rows). */
export const SHARE_LINK_TYPES = { loginFree: 0, accountMatching: 1 } as const;
export type ShareLinkType = 0 | 1;
export const SHARE_LINK_TYPE_LABELS: Record<ShareLinkType, string> = { 0: '免登录', 1: '账号匹配' };

export const SHARE_PASSWORD_LENGTH = { min: 4, max: 32 } as const;
export const SHARE_PURPOSE_MAX_LENGTH = 100;
/** A link's code: this many URL-safe random characters. */
export const SHARE_CODE_LENGTH = 10;
/** The token an opened link hands out lives this long (or until the link expires, whichever comes first). */
export const SHARE_TOKEN_MINUTES = 60;
/** Wrong passwords accepted per link per minute before 429. */
export const SHARE_PASSWORD_ATTEMPTS_PER_MINUTE = 10;
/** The page a share link opens. */
export const shareRoutes = { open: (code: string) => `/share/${code}`, mine: '/newbi/mine/share' } as const;

/** A share link (spec 1 §3): id, visualDataTitle, purpose, shortLink, linkType, and what ours adds. */
export const shareLinkSchema = z.object({
  id: z.number(),
  code: z.string(),
  dataType: z.enum(SHARE_DATA_TYPES),
  dataId: z.number(),
  visualDataTitle: z.string(),
  purpose: z.string(),
  /** `${origin}/share/{code}`. */
  shortLink: z.string(),
  linkType: z.union([z.literal(0), z.literal(1)]),
  hasPassword: z.boolean(),
  /** ISO time, or null: never expires. */
  expireTime: z.string().nullable(),
  expired: z.boolean(),
  enabled: z.boolean(),
  createUserId: z.number(),
  createUserName: z.string().nullable(),
  createTime: z.string(),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;

const password = z.string().min(SHARE_PASSWORD_LENGTH.min, shareMessages.passwordLength).max(SHARE_PASSWORD_LENGTH.max, shareMessages.passwordLength);

/** Create a link; the caller must be allowed to see the content. */
export const shareLinkCreateSchema = z.object({
  dataType: z.enum(SHARE_DATA_TYPES),
  dataId: z.number().int().positive(),
  purpose: z.string().trim().max(SHARE_PURPOSE_MAX_LENGTH).default(''),
  linkType: z.union([z.literal(0), z.literal(1)]).default(0),
  /** Clear text over TLS; stored as an argon2 hash. Empty or absent: no password. */
  password: z.preprocess((v) => (v === '' ? null : v), password.nullish()),
  /** ISO time in the future, or absent / null: never expires. */
  expireTime: z.iso.datetime({ offset: true }).nullish(),
});
export type ShareLinkCreate = z.input<typeof shareLinkCreateSchema>;

/** Update: each field only when sent. password null removes it; expireTime null makes the link permanent. */
export const shareLinkUpdateSchema = z.object({
  purpose: z.string().trim().max(SHARE_PURPOSE_MAX_LENGTH).optional(),
  enabled: z.boolean().optional(),
  password: password.nullable().optional(),
  expireTime: z.iso.datetime({ offset: true }).nullable().optional(),
});
export type ShareLinkUpdate = z.input<typeof shareLinkUpdateSchema>;

/** Share list: mine (administrators: every link), filtered by title; linkType to list one kind only. */
export const shareListQuerySchema = pageQuerySchema.extend({
  title: z.string().trim().max(100).optional(),
  linkType: z.coerce.number().int().min(0).max(1).optional(),
});
export type ShareListQuery = z.input<typeof shareListQuerySchema>;

/** Open a link (no login needed for login-free ones). */
export const shareOpenSchema = z.object({ password: z.string().max(SHARE_PASSWORD_LENGTH.max).nullish() });
export type ShareOpen = z.input<typeof shareOpenSchema>;

/** What an opened link hands back: a token scoped to the shared content, and what to render. */
export const shareOpenResultSchema = z.object({
  token: z.string(),
  expiresAt: z.string(),
  dataType: z.enum(SHARE_DATA_TYPES),
  dataId: z.number(),
  title: z.string(),
  linkType: z.union([z.literal(0), z.literal(1)]),
  /** The boards the token may read, in order (a slideshow's pages; one board otherwise). */
  boardIds: z.array(z.number()),
});
export type ShareOpenResult = z.infer<typeof shareOpenResultSchema>;

/** Why an open failed, in the error's data: the page shows a form or a panel for each. */
export const SHARE_OPEN_REFUSALS = ['password', 'passwordWrong', 'login', 'expired', 'gone', 'forbidden', 'tooMany'] as const;
export type ShareOpenRefusal = (typeof SHARE_OPEN_REFUSALS)[number];

/** Save auth share (spec 1 §7): the group's account-matching links become linkIdList. */
export const shareAuthSaveSchema = z.object({
  dataPermId: z.number().int().positive(),
  linkIdList: z.array(z.number().int().positive()).max(10000),
});
export type ShareAuthSave = z.input<typeof shareAuthSaveSchema>;
export const shareAuthQuerySchema = z.object({ dataPermId: z.coerce.number().int().positive() });

/**
 * What a token issued by an opened link may read (auth_token.scope): the link, the boards,
 * and the slideshow when a slideshow was shared. Routes other than the shareable ones refuse
 * such a token.
 */
export const tokenScopeSchema = z.object({
  share: z.number(),
  boards: z.array(z.number()),
  ppt: z.number().nullable(),
});
export type TokenScope = z.infer<typeof tokenScopeSchema>;
