import { ApiPrefix, type TrustedDeviceRow } from '@portal/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

const MY_DEVICES = `${ApiPrefix.portalAuth}/account/trusted-devices`;

/** `GET /web/portal/account/trusted-devices`: the browsers that skip the account's second factor (信任此设备), unexpired. */
export async function getMyTrustedDevices(): Promise<TrustedDeviceRow[]> {
  return (await api().get<TrustedDeviceRow>(MY_DEVICES)).data;
}

export function useMyTrustedDevices(enabled: boolean) {
  return useQuery({ queryKey: queryKeys.sessions.myTrustedDevices, queryFn: getMyTrustedDevices, enabled, staleTime: 0 });
}

/** `DELETE …/trusted-devices/{id}`: that browser asks for the second factor again at its next sign-in. */
export const removeMyTrustedDevice = async (id: number) => (await api().delete<unknown>(`${MY_DEVICES}/${id}`)).msg;

export function useRemoveMyTrustedDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMyTrustedDevice,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions.myTrustedDevices }),
  });
}
