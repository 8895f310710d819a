/** The sign-in addresses, shared by the router, the guard and the login pages (no page code: the entry imports them). */

/** Only same-site paths are followed after login; anything else goes home. */
export function safeRedirect(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/login')) return '/';
  return value;
}

/** Where the guard sends a user who still has the initial password, coming back to `redirect` afterwards. */
export const CHANGE_PASSWORD_PATH = '/change-password';

export function changePasswordPath(redirect: string): string {
  const target = safeRedirect(redirect);
  return target === '/' ? CHANGE_PASSWORD_PATH : `${CHANGE_PASSWORD_PATH}?redirect=${encodeURIComponent(target)}`;
}
