import { ApiPrefix, type SessionRow } from '@portal/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

const MY_SESSIONS = `${ApiPrefix.portalAuth}/account/sessions`;

/** `GET /web/portal/account/sessions`: the signed-in account's own live SSO sessions, the asking browser's marked `current`. */
export async function getMySessions(): Promise<SessionRow[]> {
  return (await api().get<SessionRow>(MY_SESSIONS)).data;
}

export const getMySessionsQueryOptions = () => queryOptions({ queryKey: queryKeys.sessions.mine, queryFn: getMySessions, staleTime: 0 });

export function useMySessions(enabled: boolean) {
  return useQuery({ ...getMySessionsQueryOptions(), enabled });
}

/** `DELETE /web/portal/account/sessions/{id}`: signs one of one's other browsers out, with its applications. */
export const endMySession = async (id: string) => (await api().delete<unknown>(`${MY_SESSIONS}/${encodeURIComponent(id)}`)).msg;

export function useEndMySession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endMySession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions.all }),
  });
}

/** `DELETE /web/portal/account/sessions` (退出其他设备): every other browser of the account signs out, with its applications. */
export const signOutElsewhere = async () => (await api().delete<unknown>(MY_SESSIONS)).msg;

export function useSignOutElsewhere() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOutElsewhere,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions.all }),
  });
}
