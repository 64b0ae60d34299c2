import type { TrustedDeviceRow } from '@portal/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';
import { ORG_API } from './org-client';

/** `GET /account/{id}/trusted-devices`: the browsers that skip the account's second factor (信任此设备), unexpired. */
export async function getTrustedDevices(accountId: number): Promise<TrustedDeviceRow[]> {
  return (await api().get<TrustedDeviceRow>(`${ORG_API}/account/${accountId}/trusted-devices`)).data;
}

export function useTrustedDevices(accountId: number | undefined) {
  return useQuery({
    queryKey: queryKeys.org.trustedDevices(accountId ?? 0),
    queryFn: () => getTrustedDevices(accountId ?? 0),
    enabled: accountId !== undefined,
    staleTime: 0,
  });
}

/** `DELETE /account/{id}/trusted-devices/{deviceId}`: that browser asks for the second factor again. */
export const removeTrustedDevice = async ({ accountId, deviceId }: { accountId: number; deviceId: number }) =>
  (await api().delete<unknown>(`${ORG_API}/account/${accountId}/trusted-devices/${deviceId}`)).msg;

export function useRemoveTrustedDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeTrustedDevice,
    onSettled: (_answer, _error, { accountId }) => queryClient.invalidateQueries({ queryKey: queryKeys.org.trustedDevices(accountId) }),
  });
}
