import type { PortalMenuEntry } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { getMenusQueryOptions } from '@/api/get-menus';
import { centralLoginUrl, onSessionEnd } from '@/lib/auth';
import { getPortalAppMenus } from '../api/get-portal-app-menus';
import type { ConsoleRoute } from '../console-route';
import { filterServiceRoutes } from '../lib/filter-routes';
import { LAST_URL_KEY } from '../settings';

export type GuardState = { status: 'loading' } | { status: 'login' } | { status: 'ready'; routes: ConsoleRoute[] };

function lastUrl(): { get(): string | null; set(url: string): void; clear(): void } {
  const storage = (() => {
    try {
      return window.sessionStorage;
    } catch {
      return undefined;
    }
  })();
  return {
    get: () => storage?.getItem(LAST_URL_KEY) ?? null,
    set: (url) => storage?.setItem(LAST_URL_KEY, url),
    clear: () => storage?.removeItem(LAST_URL_KEY),
  };
}

/** The permitted routes for a menus answer (spec sections 4 and 6); none for a visitor or a failure. */
export function permittedRoutes(all: readonly ConsoleRoute[], entry: PortalMenuEntry | null | undefined): ConsoleRoute[] {
  return entry ? filterServiceRoutes(all, entry.authorities, entry.routers) : [];
}

/**
 * The route guard of spec section 4, run on the first navigation into the console:
 * - menus non-empty: the answer is the user state and the token is stored (getMenus), the service routes are
 *   filtered by the returned codes, and a saved LAST_URL is cleared and becomes the redirect;
 * - menus empty: the current URL is saved as LAST_URL and, when the portal-app-menus call returns
 *   anything, the browser goes to the central login;
 * - a failure: the routes are built with those available (none of the service routes).
 * Later, when the session ends elsewhere (强制下线, 停用, 重置密码), the page is saved as LAST_URL and the
 * browser goes to the central login at once, which brings the user back here or says why they cannot log in.
 */
export function useConsoleGuard(all: readonly ConsoleRoute[]): GuardState {
  const menus = useQuery(getMenusQueryOptions());
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const [visitor, setVisitor] = useState<'checking' | 'login' | 'none'>('checking');
  const [ended, setEnded] = useState(false);
  const leaving = useRef(false);
  const entry = menus.data;

  // Reads the page of the moment the session ended. The shell is no longer drawn over pages that cannot
  // load: the user sees 正在前往登录… instead.
  const onEnded = useEffectEvent(() => {
    if (leaving.current) return;
    leaving.current = true;
    const here = pathname + search;
    lastUrl().set(here);
    setEnded(true);
    window.location.assign(centralLoginUrl(here));
  });
  useEffect(() => onSessionEnd(() => onEnded()), []);

  // Reads the location of the moment the menus answered: the guard acts on the first navigation only.
  const onMenus = useEffectEvent((answer: PortalMenuEntry | null) => {
    const saved = lastUrl();
    const here = pathname + search;
    if (answer) {
      const target = saved.get();
      if (target) {
        saved.clear();
        if (target !== here) void navigate(target, { replace: true });
      }
      return () => undefined;
    }
    // A visitor: remember where they wanted to go, then log in if the console has anything to offer.
    saved.set(here);
    let cancelled = false;
    getPortalAppMenus().then(
      (appMenus) => {
        if (cancelled) return;
        if (appMenus.length > 0) {
          setVisitor('login');
          window.location.assign(centralLoginUrl(here));
        } else setVisitor('none');
      },
      () => !cancelled && setVisitor('none'),
    );
    return () => {
      cancelled = true;
    };
  });

  useEffect(() => {
    if (menus.isSuccess) return onMenus(entry ?? null);
  }, [menus.isSuccess, entry]);

  const routes = useMemo(() => permittedRoutes(all, entry), [all, entry]);
  if (ended) return { status: 'login' };
  if (menus.isPending) return { status: 'loading' };
  if (menus.isError) return { status: 'ready', routes: [] };
  if (!entry) return visitor === 'none' ? { status: 'ready', routes: [] } : { status: visitor === 'login' ? 'login' : 'loading' };
  return { status: 'ready', routes };
}
