import { ApiPrefix, type AccountGroupMemberRow, type PageResult } from '@portal/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';
import type { MemberListQuery } from '../lib/group-query';
import { useOrgMutation } from './groups';

const BASE = `${ApiPrefix.console}/account-group`;

/** Most candidates one search offers in 添加成员. */
export const CANDIDATE_LIMIT = 50;

/** `GET /account-group/{id}/members`: one page of the group's members. */
export async function getGroupMembers(groupId: number, query: MemberListQuery): Promise<PageResult<AccountGroupMemberRow>> {
  return (
    (await api().get<PageResult<AccountGroupMemberRow>>(`${BASE}/${groupId}/members`, { params: query })).data[0] ?? { rows: [], total: 0 }
  );
}

export const getGroupMembersQueryOptions = (groupId: number, query: MemberListQuery) =>
  queryOptions({
    queryKey: queryKeys.org.groupMembers(groupId, query),
    queryFn: () => getGroupMembers(groupId, query),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useGroupMembers(groupId: number, query: MemberListQuery) {
  return useQuery(getGroupMembersQueryOptions(groupId, query));
}

/** `GET /account-group/{id}/candidates`: the enterprise's accounts not yet in the group, matching `keyword`. */
export async function getGroupCandidates(groupId: number, keyword: string): Promise<AccountGroupMemberRow[]> {
  const params = { limit: CANDIDATE_LIMIT, ...(keyword ? { keyword } : {}) };
  return (await api().get<AccountGroupMemberRow>(`${BASE}/${groupId}/candidates`, { params })).data;
}

export function useGroupCandidates(groupId: number, keyword: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.org.groupCandidates(groupId, keyword),
    queryFn: () => getGroupCandidates(groupId, keyword),
    placeholderData: keepPreviousData,
    staleTime: 0,
    enabled,
  });
}

export const addGroupMembers = async ({ groupId, accountIds }: { groupId: number; accountIds: number[] }) =>
  (await api().post<unknown>(`${BASE}/${groupId}/members`, { accountIds })).msg;
export const removeGroupMember = async ({ groupId, accountId }: { groupId: number; accountId: number }) =>
  (await api().delete<unknown>(`${BASE}/${groupId}/members/${accountId}`)).msg;

export const useAddGroupMembers = () => useOrgMutation(addGroupMembers);
export const useRemoveGroupMember = () => useOrgMutation(removeGroupMember);
