import { ApiPrefix, type RoleCreateBody, type RoleRow, type RoleUpdateBody } from '@portal/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

const BASE = `${ApiPrefix.console}/role`;

/** `GET /web-api/console/v1/role/list`: the tenant system roles first (read-only), then the enterprise's own. */
export async function getRoles(): Promise<RoleRow[]> {
  return (await api().get<RoleRow>(`${BASE}/list`)).data;
}

export const getRolesQueryOptions = () => queryOptions({ queryKey: queryKeys.org.roles, queryFn: getRoles, staleTime: 0 });

export function useRoles() {
  return useQuery(getRolesQueryOptions());
}

export const createRole = async (body: RoleCreateBody) => (await api().post<unknown>(BASE, body)).msg;
export const updateRole = async ({ id, body }: { id: number; body: RoleUpdateBody }) =>
  (await api().put<unknown>(`${BASE}/${id}`, body)).msg;
export const deleteRole = async (id: number) => (await api().delete<unknown>(`${BASE}/${id}`)).msg;

/** A role write changes the pickers, the accounts' and groups' roles and what their holders may open: all of 组织与账号 reloads. */
function useRoleMutation<T>(write: (input: T) => Promise<string>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: write, onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.org.all }) });
}

export const useCreateRole = () => useRoleMutation(createRole);
export const useUpdateRole = () => useRoleMutation(updateRole);
export const useDeleteRole = () => useRoleMutation(deleteRole);
