import { ApiPrefix, type AppSubscriptionBody, type MyAppSubscription } from '@portal/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

const subscriptionUrl = (uuid: string) => `${ApiPrefix.portal}/applications/${encodeURIComponent(uuid)}/subscription`;

/** `GET …/applications/{uuid}/subscription`: the signed-in user's enterprise's subscription and whether they may apply. */
export async function getMySubscription(uuid: string): Promise<MyAppSubscription> {
  const subscription = (await api().get<MyAppSubscription>(subscriptionUrl(uuid))).data[0];
  if (!subscription) throw new Error('订阅状态加载失败');
  return subscription;
}

export const getMySubscriptionQueryOptions = (uuid: string) =>
  queryOptions({ queryKey: queryKeys.subscriptions.mine(uuid), queryFn: () => getMySubscription(uuid), staleTime: 0 });

/** Signed-in users only: a visitor has no enterprise to subscribe and is offered the login instead. */
export function useMySubscription(uuid: string, enabled: boolean) {
  return useQuery({ ...getMySubscriptionQueryOptions(uuid), enabled: enabled && uuid !== '' });
}

/**
 * `POST …/applications/{uuid}/subscription` (申请使用). Silent: the dialog shows the server's refusal
 * (未认证, 已有待审核的申请…) itself and stays open.
 */
export const applyForSubscription = async ({ uuid, body }: { uuid: string; body: AppSubscriptionBody }) =>
  (await api().post<unknown>(subscriptionUrl(uuid), body, { silent: true })).msg;

/** Applied or refused: the detail shows the subscription as it is now (a duplicate's 409 means one exists). */
export function useApplyForSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: applyForSubscription,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.subscriptions.all }),
  });
}
