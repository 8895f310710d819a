/**
 * The home page: messages and constants without zod (docs/web-performance.md "Schema-free contracts"): the
 * app shell's page list imports them from here and evaluates no schema; home.ts re-exports them.
 */

export const homeMessages = {
  visitKindInvalid: '访问类型只能是大屏（board）或幻灯片（ppt）',
  favourited: '已收藏',
  unfavourited: '已取消收藏',
} as const;

/** The page's own path (the spec names none). */
export const HOME_PATH = '/home';
