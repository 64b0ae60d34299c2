import type { PortalMenuEntry } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';
import { useSessionStore } from '@/stores/session-store';

/**
 * `GET /web/portal/menu/list` (spec section 7): `data[0]` for a logged-in user, an empty list for a
 * visitor. A logged-in answer fills the session and header stores and the token.
 */
export async function getMenus(): Promise<PortalMenuEntry | null> {
  const res = await api().get<PortalMenuEntry>('/web/portal/menu/list');
  const entry = res.data[0] ?? null;
  if (entry) useSessionStore.getState().setFromMenus(entry);
  return entry;
}

export const getMenusQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.menus, queryFn: getMenus, staleTime: 5 * 60_000, retry: false });

export function useMenus() {
  return useQuery(getMenusQueryOptions());
}
