import { ApiPrefix } from '@portal/shared';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';

/** The console API of 组织与账号. */
export const ORG_API = ApiPrefix.console;

/**
 * Invalidates what an org write changes: every org list and option (accounts, groups, roles, join
 * requests) and the 工作台's account figures.
 */
export function useInvalidateOrg() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.org.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.dashboard }),
    ]);
}
