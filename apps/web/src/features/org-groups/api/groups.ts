import { ApiPrefix, type AccountGroupBody, type AccountGroupRow, type PageResult } from '@portal/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';
import type { GroupListQuery } from '../lib/group-query';

const BASE = `${ApiPrefix.console}/account-group`;

/** `GET /web-api/console/v1/account-group/page/list`: one page of the enterprise's groups. */
export async function getGroups(query: GroupListQuery): Promise<PageResult<AccountGroupRow>> {
  return (await api().get<PageResult<AccountGroupRow>>(`${BASE}/page/list`, { params: query })).data[0] ?? { rows: [], total: 0 };
}

export const getGroupsQueryOptions = (query: GroupListQuery) =>
  queryOptions({ queryKey: queryKeys.org.groups(query), queryFn: () => getGroups(query), placeholderData: keepPreviousData, staleTime: 0 });

export function useGroups(query: GroupListQuery) {
  return useQuery(getGroupsQueryOptions(query));
}

export const createGroup = async (body: AccountGroupBody) => (await api().post<unknown>(BASE, body)).msg;
export const updateGroup = async ({ id, body }: { id: number; body: AccountGroupBody }) =>
  (await api().put<unknown>(`${BASE}/${id}`, body)).msg;
export const deleteGroup = async (id: number) => (await api().delete<unknown>(`${BASE}/${id}`)).msg;

/** A group write changes the groups list, the accounts' groups, the roles' account counts and the pickers: all of 组织与账号 reloads. */
export function useOrgMutation<T>(write: (input: T) => Promise<string>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: write, onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.org.all }) });
}

export const useCreateGroup = () => useOrgMutation(createGroup);
export const useUpdateGroup = () => useOrgMutation(updateGroup);
export const useDeleteGroup = () => useOrgMutation(deleteGroup);
