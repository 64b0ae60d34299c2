import { ApiPrefix, type TenantIntegrations } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

/** Under the tenants' key: a write to an enterprise (or to its sources) reloads it with the list. */
const tenantIntegrationsKey = (id: number) => [...queryKeys.tenants.all, 'integrations', id] as const;

/**
 * `GET /web-api/console/v1/tenants/{id}/integrations` (operators): the enterprise's 认证源 and SCIM
 * clients with their last activity, in one read.
 */
export async function getTenantIntegrations(id: number): Promise<TenantIntegrations> {
  const [found] = (await api().get<TenantIntegrations>(`${ApiPrefix.console}/tenants/${id}/integrations`)).data;
  return found ?? { sources: [], scimClients: [] };
}

export const getTenantIntegrationsQueryOptions = (id: number) =>
  queryOptions({ queryKey: tenantIntegrationsKey(id), queryFn: () => getTenantIntegrations(id), staleTime: 0 });

export function useTenantIntegrations(id: number | undefined) {
  return useQuery({ ...getTenantIntegrationsQueryOptions(id ?? 0), enabled: id !== undefined });
}
