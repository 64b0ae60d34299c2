import { ApiPrefix, type ScimTokenRow } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

/** Under the tenants' key: reloaded with the list. */
const tenantScimTokensKey = (id: number) => [...queryKeys.tenants.all, 'scim-tokens', id] as const;

/** `GET /web-api/console/v1/tenants/{id}/scim-tokens` (operators): the enterprise's SCIM clients and their last use. */
export async function getTenantScimTokens(id: number): Promise<ScimTokenRow[]> {
  return (await api().get<ScimTokenRow>(`${ApiPrefix.console}/tenants/${id}/scim-tokens`)).data;
}

export const getTenantScimTokensQueryOptions = (id: number) =>
  queryOptions({ queryKey: tenantScimTokensKey(id), queryFn: () => getTenantScimTokens(id), staleTime: 0 });

export function useTenantScimTokens(id: number | undefined) {
  return useQuery({ ...getTenantScimTokensQueryOptions(id ?? 0), enabled: id !== undefined });
}
