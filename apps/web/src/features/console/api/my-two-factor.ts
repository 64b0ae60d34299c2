import { ApiPrefix, type MyTwoFactor, type RecoveryCodes } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

const MY_TWO_FACTOR = `${ApiPrefix.portalAuth}/account/two-factor`;

/** `GET /web/portal/account/two-factor`: whether an authenticator is bound, and the recovery codes left. */
export async function getMyTwoFactor(): Promise<MyTwoFactor | undefined> {
  return (await api().get<MyTwoFactor>(MY_TWO_FACTOR)).data[0];
}

export function useMyTwoFactor(enabled: boolean) {
  return useQuery({ queryKey: queryKeys.sessions.myTwoFactor, queryFn: getMyTwoFactor, enabled, staleTime: 0 });
}

/** `POST …/two-factor/recovery-codes`: new codes, shown once (needs a recent 验证身份: run it through useReauth). */
export async function regenerateRecoveryCodes(): Promise<string[]> {
  return (await api().post<RecoveryCodes>(`${MY_TWO_FACTOR}/recovery-codes`)).data[0]?.codes ?? [];
}
