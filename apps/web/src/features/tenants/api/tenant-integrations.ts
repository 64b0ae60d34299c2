import { ApiPrefix, type TenantIntegrations } from '@portal/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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

/**
 * `PUT /web-api/console/v1/tenants/{id}/federation-domains/{domain}` (operators): approves or refuses an
 * email domain the enterprise's provider claims; only an approved one routes identity-first sign-ins.
 */
export const reviewTenantDomain = async (id: number, domain: string, approve: boolean) =>
  (await api().put<unknown>(`${ApiPrefix.console}/tenants/${id}/federation-domains/${encodeURIComponent(domain)}`, { approve })).msg;

export function useReviewTenantDomain(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ domain, approve }: { domain: string; approve: boolean }) => reviewTenantDomain(id, domain, approve),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tenantIntegrationsKey(id) }),
  });
}
