import { useState } from 'react';
import { Drawer } from 'antd';
import type { AppMenu } from '@shutu/contracts';
import { MenuIcon } from '../app/menu-icons.tsx';
import { topOf } from './reflow.ts';

interface BarProps {
  menus: AppMenu[];
  activeId: number | undefined;
  onOpen: (menu: AppMenu) => void;
}

/** menuShowType '1': the first-level menus as a scrolling tab row under the title, the children of the active one as a second row. */
export function TopMenuBar({ menus, activeId, onOpen }: BarProps) {
  const top = activeId === undefined ? undefined : topOf(menus, activeId);
  return (
    <nav className="m-topbar" data-testid="m-menu-top">
      <div className="m-tabs">
        {menus.map((m) => (
          <button
            key={m.menuId}
            type="button"
            className={`m-tab${top?.menuId === m.menuId ? ' is-active' : ''}`}
            data-testid="m-menu"
            data-name={m.menuName}
            onClick={() => onOpen(m.children.find((c) => c.visualId !== null) ?? m)}
          >
            <MenuIcon name={m.menuIcon} /> {m.menuName}
          </button>
        ))}
      </div>
      {top && top.children.length > 0 && (
        <div className="m-subtabs" data-testid="m-submenu">
          {top.children.map((c) => (
            <button
              key={c.menuId}
              type="button"
              className={`m-subtab${activeId === c.menuId ? ' is-active' : ''}`}
              data-testid="m-submenu-item"
              data-name={c.menuName}
              onClick={() => onOpen(c)}
            >
              {c.menuName}
            </button>
          ))}
        </div>
      )}
    </nav>
  );
}

/** menuShowType '2': the first-level menus in a bottom tab bar; one with children pops its sub-menu up from the bottom. */
export function PopupMenuBar({ menus, activeId, onOpen }: BarProps) {
  const [popup, setPopup] = useState<AppMenu | null>(null);
  const top = activeId === undefined ? undefined : topOf(menus, activeId);
  return (
    <>
      <nav className="m-bottombar" data-testid="m-menu-popup">
        {menus.map((m) => (
          <button
            key={m.menuId}
            type="button"
            className={`m-bottom-tab${top?.menuId === m.menuId ? ' is-active' : ''}`}
            data-testid="m-menu"
            data-name={m.menuName}
            onClick={() => (m.children.length > 0 ? setPopup(m) : onOpen(m))}
          >
            <span className="m-bottom-icon">
              <MenuIcon name={m.menuIcon} />
            </span>
            <span className="m-bottom-label">{m.menuName}</span>
          </button>
        ))}
      </nav>
      <Drawer
        placement="bottom"
        open={!!popup}
        title={popup?.menuName}
        onClose={() => setPopup(null)}
        styles={{ body: { padding: 0 } }}
        rootClassName="m-popup"
      >
        <div data-testid="m-submenu">
          {popup?.children.map((c) => (
            <button
              key={c.menuId}
              type="button"
              className={`m-popup-item${activeId === c.menuId ? ' is-active' : ''}`}
              data-testid="m-submenu-item"
              data-name={c.menuName}
              onClick={() => {
                setPopup(null);
                onOpen(c);
              }}
            >
              <MenuIcon name={c.menuIcon} /> {c.menuName}
            </button>
          ))}
        </div>
      </Drawer>
    </>
  );
}
