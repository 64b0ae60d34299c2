import type { NavItem } from '@portal/shared';
import { Link, useLocation } from 'react-router';
import { useRuntimeConfig } from '@/config/runtime-config';
import { isActive, navTarget } from './nav-link';

/**
 * The header's menu items as links (spec section 2), for the desktop menu and the phone drawer: a
 * page of this app is a client route, the application and open-service centres are addresses.
 */
export function HeaderNavLinks({ nav, className, onNavigate }: { nav: readonly NavItem[]; className: string; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const config = useRuntimeConfig();
  // The portal's own origin (from the runtime configuration, so the server renders the same links).
  const origin = new URL(config.homeUrl).origin;
  return nav.map((item) => {
    const target = navTarget(item, config, origin);
    const active = isActive(target, pathname);
    const itemClassName = `${className}${active ? ' is-active' : ''}`;
    return target.kind === 'route' ? (
      <Link key={item.key} to={target.to} className={itemClassName} aria-current={active ? 'page' : undefined} onClick={onNavigate}>
        {item.title}
      </Link>
    ) : (
      <a key={item.key} href={target.href} className={itemClassName} onClick={onNavigate}>
        {item.title}
      </a>
    );
  });
}
