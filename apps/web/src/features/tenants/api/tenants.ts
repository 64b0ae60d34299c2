import { ApiPrefix, type EnterpriseStatus, type PageResult, type TenantCreateBody, type TenantRow } from '@portal/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';
import type { TenantListQuery } from '../lib/tenant-query';

const BASE = `${ApiPrefix.console}/tenant`;

/** `GET /web-api/console/v1/tenant/page/list`: one page of the platform's enterprises (operators). */
export async function getTenants(query: TenantListQuery): Promise<PageResult<TenantRow>> {
  return (await api().get<PageResult<TenantRow>>(`${BASE}/page/list`, { params: query })).data[0] ?? { rows: [], total: 0 };
}

export const getTenantsQueryOptions = (query: TenantListQuery) =>
  queryOptions({
    queryKey: queryKeys.tenants.page(query),
    queryFn: () => getTenants(query),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useTenants(query: TenantListQuery) {
  return useQuery(getTenantsQueryOptions(query));
}

/** `PUT /tenant/{id}/status`: 停用 ends every session of the enterprise's accounts; 启用 lets them log in again. */
export const setTenantStatus = async ({ id, status }: { id: number; status: EnterpriseStatus }) =>
  (await api().put<unknown>(`${BASE}/${id}/status`, { status })).msg;

export function useSetTenantStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setTenantStatus,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.tenants.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.dashboard }),
      ]),
  });
}

/**
 * `POST /tenant` (新建企业): the enterprise and its first administrator, whose random initial password
 * goes out by SMS. Silent: the dialog shows a refusal under the field it names, or toasts it.
 */
export const createTenant = async (body: TenantCreateBody) => (await api().post<{ id: number }>(BASE, body, { silent: true })).msg;

export function useCreateTenant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTenant,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.tenants.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.dashboard }),
      ]),
  });
}
