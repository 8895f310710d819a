/** Share links' messages and constants without zod (docs/web-performance.md "Schema-free contracts"): the share page imports them from here; share.ts re-exports them. */

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
