import type { CertificationStatus, PortalMenuEntry, PortalRouter } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { getMenusQueryOptions } from '@/api/get-menus';

/**
 * Spec section 3, "User session state", read from the menus answer (the one source; nothing copies
 * it). Not here: the API token, kept by `lib/token` because the token refresh replaces it (spec
 * section 7), and the e-mail, which the menus answer does not carry.
 */
export interface Session {
  name: string;
  /** Staff number, or the login name for a user without one (the header's login indicator). */
  number: string;
  loginName: string;
  phone: string;
  authorities: readonly string[];
  menus: readonly PortalRouter[];
  enterpriseId: number | null;
  enterpriseName: string;
  /** 企业认证 status of the enterprise. */
  certificationStatus: CertificationStatus;
}

export function sessionFromMenus(entry: PortalMenuEntry | null): Session | null {
  if (!entry) return null;
  const { user } = entry;
  return {
    name: user.name,
    number: user.number || user.username,
    loginName: user.username,
    phone: user.telephone,
    authorities: entry.authorities,
    menus: entry.routers,
    enterpriseId: user.enterpriseId,
    enterpriseName: user.enterpriseName,
    certificationStatus: user.certificationStatus,
  };
}

const NO_AUTHORITIES: readonly string[] = [];

const subscribeToNothing = () => () => {};

/**
 * False while React hydrates markup the server rendered (it reads the server's snapshot then), true
 * after and in a render of the browser's own. A page's parts hydrate one after another (Suspense
 * boundaries): by the time a later one does, the menus call may have answered, yet it must first draw
 * what the server drew, which never knows who is logged in.
 */
function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

/**
 * The logged-in user, or null for a visitor, until the menus call has answered, and while hydrating
 * server-rendered markup. Reading it never asks the server again: the public layout and the console
 * guard own the menus call.
 */
export function useSession(): Session | null {
  const hydrated = useHydrated();
  const session = useQuery({ ...getMenusQueryOptions(), select: sessionFromMenus, refetchOnMount: false }).data ?? null;
  return hydrated ? session : null;
}

/** Whether it is known who is logged in (the menus call has answered), under the same rule as `useSession`. */
export function useSessionKnown(): boolean {
  const hydrated = useHydrated();
  const { isFetched } = useQuery({ ...getMenusQueryOptions(), refetchOnMount: false });
  return hydrated && isFetched;
}

/** Spec section 3, header state: someone is logged in. */
export function useIsLoggedIn(): boolean {
  return useSession() !== null;
}

/** Spec section 6: the authorities of the menus answer (none for a visitor). */
export function useAuthorities(): readonly string[] {
  return useSession()?.authorities ?? NO_AUTHORITIES;
}
