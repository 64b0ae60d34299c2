import {
  ApiPrefix,
  type PageResult,
  type PrefixRequestBody,
  type PrefixRequestDecisionBody,
  type PrefixRequestRow,
  type PrefixRequestStatus,
} from '@portal/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

const BASE = `${ApiPrefix.identity}/prefix-request`;

export interface PrefixRequestQuery {
  /** Left out: every status. */
  status?: PrefixRequestStatus;
  offset: number;
  limit: number;
}

/**
 * `GET /web-api/identity/v1/prefix-request/page/list`: 申请标识前缀 requests, newest first; the
 * enterprise's own, or every enterprise's for operators (identifier:all-enterprises).
 */
export async function getPrefixRequests(query: PrefixRequestQuery): Promise<PageResult<PrefixRequestRow>> {
  const res = await api().get<PageResult<PrefixRequestRow>>(`${BASE}/page/list`, { params: query });
  return res.data[0] ?? { rows: [], total: 0 };
}

export const getPrefixRequestsQueryOptions = (query: PrefixRequestQuery) =>
  queryOptions({
    queryKey: queryKeys.identifiers.prefixRequests.page(query),
    queryFn: () => getPrefixRequests(query),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function usePrefixRequests(query: PrefixRequestQuery) {
  return useQuery(getPrefixRequestsQueryOptions(query));
}

/** How many requests wait for a decision (the tab's badge). */
export function usePendingPrefixRequestCount() {
  return useQuery({ ...getPrefixRequestsQueryOptions({ status: 'pending', offset: 0, limit: 1 }), select: (page) => page.total });
}

/** `POST /web-api/identity/v1/prefix-request` (certified enterprises): answers the server's message. */
export const createPrefixRequest = async (body: PrefixRequestBody) => (await api().post<{ id: number }>(BASE, body)).msg;

/** `POST /web-api/identity/v1/prefix-request/{id}/decision` (operators): approving creates the prefix for the enterprise. */
export const decidePrefixRequest = async ({ id, body }: { id: number; body: PrefixRequestDecisionBody }) =>
  (await api().post<unknown>(`${BASE}/${id}/decision`, body)).msg;

export function useCreatePrefixRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPrefixRequest,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.identifiers.prefixRequests.all }),
  });
}

/** A decision: the requests reload, and on approval the prefix list with its new prefix. */
export function useDecidePrefixRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decidePrefixRequest,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.identifiers.all }),
  });
}
