import { type NavItem, Role, type RuntimeConfig } from '@portal/shared';

export type NavTarget = { kind: 'route'; to: string } | { kind: 'external'; href: string };

/** An address on this app's own origin becomes a client route; anything else stays a link. */
export function toTarget(url: string, origin: string): NavTarget {
  if (url.startsWith('/')) return { kind: 'route', to: url };
  try {
    const u = new URL(url);
    if (u.origin === origin) return { kind: 'route', to: (u.pathname || '/') + u.search + u.hash };
  } catch {
    // not an absolute URL: fall through
  }
  return { kind: 'external', href: url };
}

/**
 * Header link targets (spec section 2): product → application center, service → open service,
 * center → `/`, any other key → `/{key}`.
 */
export function navTarget(item: NavItem, config: RuntimeConfig, origin: string): NavTarget {
  switch (item.key) {
    case 'product':
      return toTarget(config.appCenterUrl, origin);
    case 'service':
      return toTarget(config.openServiceUrl, origin);
    case 'center':
      return { kind: 'route', to: '/' };
    default:
      return { kind: 'route', to: `/${item.key}` };
  }
}

/** Whether the current path belongs to a header item. */
export function isActive(target: NavTarget, pathname: string): boolean {
  if (target.kind !== 'route') return false;
  const path = target.to.split(/[?#]/)[0] ?? '/';
  if (path === '/') return pathname === '/';
  return pathname === path || pathname.startsWith(`${path}/`);
}

/** Spec sections 2 and 6: the header's console entry is hidden for service-customer employees. */
export function showsConsoleEntry(authorities: readonly string[]): boolean {
  return !authorities.includes(Role.ServiceCustomerEmployee);
}
