import type { PortalRouter } from '@portal/shared';

/** A console route as the app defines it: the authority that opens it, and its children. */
export interface ServiceRoute {
  path: string;
  authCode: string;
  title: string;
  icon?: string;
  children?: ServiceRoute[];
}

function serverTitles(routers: PortalRouter[], into = new Map<string, string>()): Map<string, string> {
  for (const r of routers) {
    if (r.meta.title) into.set(r.authCode, r.meta.title);
    serverTitles(r.children, into);
  }
  return into;
}

/**
 * Spec sections 4 and 6: keep the service routes whose authCode is among the user's codes, filter
 * children the same way, drop a parent left with no permitted child, and let the server's names
 * override route titles.
 */
export function filterServiceRoutes<T extends ServiceRoute & { children?: T[] }>(
  routes: readonly T[],
  codes: readonly string[],
  routers: PortalRouter[] = [],
): T[] {
  const allowed = new Set(codes);
  const titles = serverTitles(routers);
  const walk = (list: readonly T[]): T[] =>
    list.flatMap((route) => {
      if (!allowed.has(route.authCode)) return [];
      const title = titles.get(route.authCode) ?? route.title;
      if (!route.children) return [{ ...route, title }];
      const children = walk(route.children);
      return children.length > 0 ? [{ ...route, title, children }] : [];
    });
  return walk(routes);
}
