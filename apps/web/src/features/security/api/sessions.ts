import { ApiPrefix, type LogoutDeliveryPage, type PageResult, type SessionRow } from '@portal/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';
import type { SessionListQuery } from '../lib/session-query';

const SESSION = `${ApiPrefix.console}/session`;

/** `GET /session/page/list`: one page of the live SSO sessions of the enterprise's accounts. */
export async function getSessions(query: SessionListQuery): Promise<PageResult<SessionRow>> {
  return (await api().get<PageResult<SessionRow>>(`${SESSION}/page/list`, { params: query })).data[0] ?? { rows: [], total: 0 };
}

export const getSessionsQueryOptions = (query: SessionListQuery) =>
  queryOptions({
    queryKey: queryKeys.sessions.page(query),
    queryFn: () => getSessions(query),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useSessions(query: SessionListQuery) {
  return useQuery(getSessionsQueryOptions(query));
}

/** `DELETE /session/{id}` (强制下线): ends the SSO session and the portal's, and logs its applications out. */
export const endSession = async (id: string) => (await api().delete<unknown>(`${SESSION}/${encodeURIComponent(id)}`)).msg;

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions.all }),
  });
}

/** `GET /session/logout-deliveries`: one page of 单点登出记录, newest first. */
export async function getLogoutDeliveries(query: { offset: number; limit: number }): Promise<LogoutDeliveryPage> {
  return (await api().get<LogoutDeliveryPage>(`${SESSION}/logout-deliveries`, { params: query })).data[0] ?? { rows: [], total: 0 };
}

export function useLogoutDeliveries(query: { offset: number; limit: number }) {
  return useQuery({
    queryKey: queryKeys.sessions.deliveries(query),
    queryFn: () => getLogoutDeliveries(query),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
