import { Menu, type MenuProps } from 'antd';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import type { ConsoleRoute } from '../console-route';
import { menuIcon } from '../lib/menu-icons';
import { consoleSettings } from '../settings';

type MenuItem = Required<MenuProps>['items'][number];

function toItems(routes: readonly ConsoleRoute[]): MenuItem[] {
  return routes
    .filter((r) => !r.hidden)
    .map((r) =>
      r.children?.length
        ? { key: r.path, icon: menuIcon(r.icon), label: r.title, children: toItems(r.children) }
        : { key: r.path, icon: menuIcon(r.icon), label: r.title },
    );
}

/**
 * Spec section 2: 210 px sidebar with the logo and the nested menu of the permitted routes; collapsed
 * to its icons (54 px) on a desktop, a drawer on a phone.
 */
export function Sidebar({
  routes,
  activeChain,
  collapsed,
}: {
  routes: readonly ConsoleRoute[];
  /** Paths from the top menu to the current page. */
  activeChain: string[];
  collapsed: boolean;
}) {
  const navigate = useNavigate();
  const items = useMemo(() => toItems(routes), [routes]);
  const selected = activeChain.at(-1);
  return (
    <nav className="console-sidebar" aria-label="控制台菜单">
      {consoleSettings.sidebarLogo && (
        <a className="console-sidebar__logo" href="/console" title={consoleSettings.title}>
          <img src="/favicon.svg" alt="" width={32} height={32} />
          {!collapsed && (
            <span className="console-sidebar__brand">
              <strong>Engineering e+</strong>
              <small>企业控制台</small>
            </span>
          )}
        </a>
      )}
      <div className="console-sidebar__menu">
        <Menu
          mode="inline"
          theme="dark"
          inlineCollapsed={collapsed}
          items={items}
          selectedKeys={selected ? [selected] : []}
          // The current page's parents start open; the user may open or close others freely.
          defaultOpenKeys={activeChain.slice(0, -1)}
          onClick={({ key }) => void navigate(key)}
        />
      </div>
    </nav>
  );
}
