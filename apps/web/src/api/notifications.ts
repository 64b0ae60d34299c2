import { ApiPrefix, type NotificationKind, type NotificationRow, type PageResult } from '@portal/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

// 消息中心: the navbar bell and the message page share these calls.
const BASE = `${ApiPrefix.console}/notification`;

/** The bell asks again every minute while the console is open (and when the window regains focus). */
export const UNREAD_COUNT_REFRESH_MS = 60_000;

export interface NotificationListQuery {
  offset: number;
  limit: number;
  /** 1: unread only. */
  unread?: 0 | 1;
  kind?: NotificationKind;
}

/**
 * `GET /notification/unread-count`: the account's unread messages. Asked in the background, so a
 * failure is not toasted (every minute while the server is away); the bell keeps its last count.
 */
export async function getUnreadCount(): Promise<number> {
  return (await api().get<{ count: number }>(`${BASE}/unread-count`, { silent: true })).data[0]?.count ?? 0;
}

export const getUnreadCountQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.notifications.unreadCount,
    queryFn: getUnreadCount,
    staleTime: 0,
    refetchInterval: UNREAD_COUNT_REFRESH_MS,
    refetchOnWindowFocus: true,
  });

/** Only for holders of `message`: others have no 消息中心 and never ask. */
export function useUnreadCount(enabled: boolean) {
  return useQuery({ ...getUnreadCountQueryOptions(), enabled });
}

/** `GET /notification/page/list`: one page of the account's messages, newest first. */
export async function getNotifications(query: NotificationListQuery): Promise<PageResult<NotificationRow>> {
  return (await api().get<PageResult<NotificationRow>>(`${BASE}/page/list`, { params: query })).data[0] ?? { rows: [], total: 0 };
}

export const getNotificationsQueryOptions = (query: NotificationListQuery) =>
  queryOptions({
    queryKey: queryKeys.notifications.page(query),
    queryFn: () => getNotifications(query),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useNotifications(query: NotificationListQuery, enabled = true) {
  return useQuery({ ...getNotificationsQueryOptions(query), enabled });
}

/** `PUT /notification/{id}/read`. */
export const markNotificationRead = async (id: number) => (await api().put<unknown>(`${BASE}/${id}/read`)).msg;

/** `PUT /notification/read-all`. */
export const markAllNotificationsRead = async () => (await api().put<unknown>(`${BASE}/read-all`)).msg;

/** Every view of the messages (the bell's count and list, 消息中心) reloads after a write. */
function useInvalidateNotifications() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.notifications.all });
}

export function useMarkNotificationRead() {
  const invalidate = useInvalidateNotifications();
  return useMutation({ mutationFn: markNotificationRead, onSettled: invalidate });
}

export function useMarkAllNotificationsRead() {
  const invalidate = useInvalidateNotifications();
  return useMutation({ mutationFn: markAllNotificationsRead, onSettled: invalidate });
}
