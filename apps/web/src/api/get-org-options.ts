import { ApiPrefix, type OrgOptions } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

/** `GET /web-api/console/v1/org/options`: what 账号管理's and 账号组's pickers offer (shared by both features). */
export async function getOrgOptions(): Promise<OrgOptions> {
  return (await api().get<OrgOptions>(`${ApiPrefix.console}/org/options`)).data[0] ?? { groups: [], roles: [] };
}

export const getOrgOptionsQueryOptions = () => queryOptions({ queryKey: queryKeys.org.options, queryFn: getOrgOptions, staleTime: 30_000 });

export function useOrgOptions(enabled = true) {
  return useQuery({ ...getOrgOptionsQueryOptions(), enabled });
}
