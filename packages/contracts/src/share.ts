import { z } from 'zod';
import { pageQuerySchema } from './envelope.ts';
import { SHARE_DATA_TYPES, SHARE_PASSWORD_LENGTH, SHARE_PURPOSE_MAX_LENGTH, shareMessages } from './share-constants.ts';

/**
 * Share links (spec 1 §2.6, §3 "Share link", §7 "Shares"; docs/shares.md): a short link to a
 * dashboard, a self-service report or a slideshow. linkType 0 (login-free): anyone holding the
 * link opens it, and sees the rows the link's OWNER may see; linkType 1 (account matching): the
 * visitor signs in and sees the rows their OWN account may see, and must themself be allowed to
 * see the content. Either may carry a password and an expiry. The share-authorisation panel
 * (第三方链接 tab of a permission group) restricts account-matching links to groups.
 */

export * from './share-constants.ts';

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
