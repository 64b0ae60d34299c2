import type { ConsoleRoute } from '../console-route';

/** Every route of the tree, parents before their children. */
export function flattenRoutes(routes: readonly ConsoleRoute[]): ConsoleRoute[] {
  return routes.flatMap((r) => [r, ...flattenRoutes(r.children ?? [])]);
}

/** The chain of routes from the top to the one at `pathname` (the breadcrumb's matched routes), or []. */
export function matchRouteChain(routes: readonly ConsoleRoute[], pathname: string): ConsoleRoute[] {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  for (const route of routes) {
    if (route.path === path) return [route];
    const below = matchRouteChain(route.children ?? [], path);
    if (below.length > 0) return [route, ...below];
  }
  return [];
}

/** The page at `pathname` (a route with a component), if the tree has one. */
export function findPage(routes: readonly ConsoleRoute[], pathname: string): ConsoleRoute | undefined {
  const last = matchRouteChain(routes, pathname).at(-1);
  return last?.component ? last : undefined;
}

/** The first page of the tree in menu order: where the console's root goes (spec section 2). */
export function firstPagePath(routes: readonly ConsoleRoute[]): string | undefined {
  return flattenRoutes(routes).find((r) => r.component && !r.hidden)?.path;
}

/**
 * Spec section 2, route `/`: the first permitted service route, or /403 when there is none (the
 * original's fallback route is /blank) and the user holds a token; without a token, /blank.
 */
export function rootTarget(permitted: readonly ConsoleRoute[], hasToken: boolean): string {
  const first = firstPagePath(permitted) ?? '/blank';
  return first === '/blank' && hasToken ? '/403' : first;
}
