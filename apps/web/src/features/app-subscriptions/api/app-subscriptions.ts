import { ApiPrefix, type AppSubscriptionRow, type PageResult } from '@portal/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';
import type { Decision, SubscriptionListQuery } from '../lib/subscription-query';

const BASE = `${ApiPrefix.console}/app-subscription`;

/** `GET /app-subscription/page/list`: one page of the enterprises' subscriptions (operators). */
export async function getSubscriptions(query: SubscriptionListQuery): Promise<PageResult<AppSubscriptionRow>> {
  return (await api().get<PageResult<AppSubscriptionRow>>(`${BASE}/page/list`, { params: query })).data[0] ?? { rows: [], total: 0 };
}

export const getSubscriptionsQueryOptions = (query: SubscriptionListQuery) =>
  queryOptions({
    queryKey: queryKeys.subscriptions.page(query),
    queryFn: () => getSubscriptions(query),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useSubscriptions(query: SubscriptionListQuery) {
  return useQuery(getSubscriptionsQueryOptions(query));
}

/** `PUT /app-subscription/{id}/approve`: the enterprise gets the application in its 应用列表. */
export const approveSubscription = async (id: number) => (await api().put<unknown>(`${BASE}/${id}/approve`)).msg;

/** `PUT /app-subscription/{id}/reject` or `…/revoke` with the reason the enterprise reads. */
export const decideSubscription = async ({ id, decision, note }: { id: number; decision: Decision; note: string }) =>
  (await api().put<unknown>(`${BASE}/${id}/${decision}`, { note })).msg;

/**
 * A decision (or its refusal: someone decided first) changes the queue, the enterprise's detail page
 * and its 应用列表: all of them reload.
 */
function useDecision<T>(write: (input: T) => Promise<string>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.subscriptions.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.ssoApps.all }),
      ]),
  });
}

export const useApproveSubscription = () => useDecision(approveSubscription);
export const useDecideSubscription = () => useDecision(decideSubscription);
