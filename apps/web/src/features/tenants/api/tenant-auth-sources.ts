import { ApiPrefix, type AuthSourceSummary } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

/** Under the tenants' key: a write to an enterprise (or to its sources) reloads it with the list. */
const tenantAuthSourcesKey = (id: number) => [...queryKeys.tenants.all, 'auth-sources', id] as const;

/** `GET /web-api/console/v1/tenants/{id}/auth-sources` (operators): the enterprise's sources and their latest sync. */
export async function getTenantAuthSources(id: number): Promise<AuthSourceSummary[]> {
  return (await api().get<AuthSourceSummary>(`${ApiPrefix.console}/tenants/${id}/auth-sources`)).data;
}

export const getTenantAuthSourcesQueryOptions = (id: number) =>
  queryOptions({ queryKey: tenantAuthSourcesKey(id), queryFn: () => getTenantAuthSources(id), staleTime: 0 });

export function useTenantAuthSources(id: number | undefined) {
  return useQuery({ ...getTenantAuthSourcesQueryOptions(id ?? 0), enabled: id !== undefined });
}
