import { ApiPrefix, type PortalMenuEntry } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';
import { tokenStore } from '@/lib/token';

/**
 * `GET /web/portal/menu/list` (spec section 7): `data[0]` for a logged-in user, an empty list for a
 * visitor. The answer is the user state (`hooks/use-session.ts`); its token goes to the token store,
 * which the API client sends. A cancelled call (logout) stores nothing.
 */
export async function getMenus({ signal }: { signal?: AbortSignal } = {}): Promise<PortalMenuEntry | null> {
  const res = await api().get<PortalMenuEntry>(`${ApiPrefix.portalAuth}/menu/list`, { signal });
  const entry = res.data[0] ?? null;
  if (entry) tokenStore.set(`${entry.token.token_type} ${entry.token.access_token}`);
  return entry;
}

export const getMenusQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.menus, queryFn: getMenus, staleTime: 5 * 60_000, retry: false });

export function useMenus() {
  return useQuery(getMenusQueryOptions());
}
