import type { AppDetail, AppMenu } from '@shutu/contracts';
import { PopupMenuBar, TopMenuBar } from './MenuBars.tsx';

/** The menu bar the app asks for (menuShowType '1' top, '2' pop-up); none when it has no menus. */
export function MenuBarFor({ app, activeId, onOpen }: { app: AppDetail; activeId: number | undefined; onOpen: (menu: AppMenu) => void }) {
  if (app.menus.length === 0) return null;
  const Bar = app.menuShowType === '2' ? PopupMenuBar : TopMenuBar;
  return <Bar menus={app.menus} activeId={activeId} onOpen={onOpen} />;
}
