import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { ORG_API } from './org-client';

/**
 * `POST /invitation`: texts `phone` a one-time code, valid 7 days, that registers its holder into
 * this enterprise. Silent: the dialog shows a refusal under the phone field.
 */
export const sendInvitation = async (phone: string) =>
  (await api().post<unknown>(`${ORG_API}/invitation`, { phone }, { silent: true })).msg;

export function useSendInvitation() {
  return useMutation({ mutationFn: sendInvitation });
}
