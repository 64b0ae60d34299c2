import type { JoinRequestRow, JoinRequestStatus, PageResult } from '@portal/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';
import { ORG_API, useInvalidateOrg } from './org-client';

export interface JoinRequestQuery {
  status: JoinRequestStatus;
  offset: number;
  limit: number;
}

/** `GET /join-request/page/list`: registrations that named this enterprise. */
export async function getJoinRequests(query: JoinRequestQuery): Promise<PageResult<JoinRequestRow>> {
  const res = await api().get<PageResult<JoinRequestRow>>(`${ORG_API}/join-request/page/list`, { params: query });
  return res.data[0] ?? { rows: [], total: 0 };
}

export const getJoinRequestsQueryOptions = (query: JoinRequestQuery) =>
  queryOptions({
    queryKey: queryKeys.org.joinRequests(query),
    queryFn: () => getJoinRequests(query),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useJoinRequests(query: JoinRequestQuery, enabled = true) {
  return useQuery({ ...getJoinRequestsQueryOptions(query), enabled });
}

/** How many requests wait for a decision (the toolbar's badge). */
export function usePendingJoinRequestCount() {
  return useQuery({ ...getJoinRequestsQueryOptions({ status: 'pending', offset: 0, limit: 1 }), select: (page) => page.total });
}

/** 通过: the applicant becomes an account of the enterprise and is told by SMS. */
export const approveJoinRequest = async (id: number) => (await api().post<unknown>(`${ORG_API}/join-request/${id}/approve`)).msg;
/** 拒绝: the applicant is told by SMS. */
export const rejectJoinRequest = async (id: number) => (await api().post<unknown>(`${ORG_API}/join-request/${id}/reject`)).msg;

export function useApproveJoinRequest() {
  const invalidate = useInvalidateOrg();
  return useMutation({ mutationFn: approveJoinRequest, onSettled: invalidate });
}

export function useRejectJoinRequest() {
  const invalidate = useInvalidateOrg();
  return useMutation({ mutationFn: rejectJoinRequest, onSettled: invalidate });
}
