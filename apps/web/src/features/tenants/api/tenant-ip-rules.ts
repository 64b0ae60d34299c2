import { ApiPrefix, type TenantIpRules } from '@portal/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

const tenantIpRulesKey = (id: number) => [...queryKeys.tenants.all, 'ip-rules', id] as const;

/** `GET /web-api/console/v1/tenants/{id}/ip-rules` (operators): the enterprise's 控制台访问 list; empty: no restriction. */
export async function getTenantIpRules(id: number): Promise<TenantIpRules> {
  return (await api().get<TenantIpRules>(`${ApiPrefix.console}/tenants/${id}/ip-rules`)).data[0] ?? { rules: [] };
}

export const getTenantIpRulesQueryOptions = (id: number) =>
  queryOptions({ queryKey: tenantIpRulesKey(id), queryFn: () => getTenantIpRules(id), staleTime: 0 });

export function useTenantIpRules(id: number) {
  return useQuery(getTenantIpRulesQueryOptions(id));
}

/** `DELETE /web-api/console/v1/tenants/{id}/ip-rules`: lifts the enterprise's restriction (its 操作日志 records it). */
export const clearTenantIpRules = async (id: number) => (await api().delete<unknown>(`${ApiPrefix.console}/tenants/${id}/ip-rules`)).msg;

export function useClearTenantIpRules(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => clearTenantIpRules(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tenantIpRulesKey(id) }),
  });
}
