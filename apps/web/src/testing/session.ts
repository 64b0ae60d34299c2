import type { PortalMenuEntry, PortalUser } from '@portal/shared';
import type { QueryClient } from '@tanstack/react-query';
import { getMenusQueryOptions } from '@/api/get-menus';

/** A menus answer (spec section 7) for a user holding `authorities`. */
export function menusEntry(authorities: readonly string[], user: Partial<PortalUser> = {}): PortalMenuEntry {
  return {
    routers: [],
    user: {
      name: '张伟',
      username: 'admin',
      telephone: '13800000001',
      number: 'HY0001',
      enterpriseName: '徐州恒岳重工机械有限公司',
      enterpriseId: 1,
      certificationStatus: 'certified',
      ...user,
    },
    token: { token_type: 'Bearer', access_token: 'abc.def', expires_in: 1800 },
    authorities: [...authorities],
  };
}

/** Puts the menus answer in the cache as if the server had given it: `null` is a visitor. */
export function setSession(queryClient: QueryClient, entry: PortalMenuEntry | null): void {
  queryClient.setQueryData(getMenusQueryOptions().queryKey, entry);
}
