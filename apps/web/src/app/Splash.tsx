import { sm } from '../features/share/messages.ts';

/**
 * What index.html shows before the app's script runs (the logo and 数图 on the layout's
 * background; on a share link 正在打开分享… under it, written by early.js), drawn again while the
 * antd part of the shell loads (router.tsx), so that the page does not flash between the two.
 * Plain elements: it is part of the entry.
 */
export function Splash() {
  const sharing = typeof window !== 'undefined' && window.location.pathname.startsWith('/share/');
  return (
    <div className="boot-splash" data-testid="boot-splash">
      <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="7" fill="#1677ff" />
        <rect x="7" y="16" width="4" height="9" rx="1" fill="#fff" />
        <rect x="14" y="11" width="4" height="14" rx="1" fill="#fff" />
        <rect x="21" y="7" width="4" height="18" rx="1" fill="#fff" />
      </svg>
      数图
      {sharing && <div className="boot-status">{sm.opening}</div>}
    </div>
  );
}
