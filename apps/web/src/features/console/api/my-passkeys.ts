import { ApiPrefix, type Passkey } from '@portal/shared';
import { type PublicKeyCredentialCreationOptionsJSON, startRegistration } from '@simplewebauthn/browser';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

const MY_PASSKEYS = `${ApiPrefix.portalAuth}/account/passkeys`;

/** `GET /web/portal/account/passkeys`: the account's passkeys, oldest first. */
export async function getMyPasskeys(): Promise<Passkey[]> {
  return (await api().get<Passkey>(MY_PASSKEYS)).data;
}

export function useMyPasskeys(enabled: boolean) {
  return useQuery({ queryKey: queryKeys.sessions.myPasskeys, queryFn: getMyPasskeys, enabled, staleTime: 0 });
}

/** The browser's authenticator did not finish (cancelled, timed out, or it already holds a passkey of this account). */
export class PasskeyCeremonyError extends Error {}

/**
 * 添加通行密钥: the server's registration options, the browser's authenticator (WebAuthn), then the
 * answer with its name. Needs a recent 验证身份: run it through useReauth. Answers the server's message.
 */
export async function addPasskey(name: string): Promise<string> {
  const options = (await api().post<{ options: PublicKeyCredentialCreationOptionsJSON }>(`${MY_PASSKEYS}/options`)).data[0]?.options;
  if (!options) throw new PasskeyCeremonyError();
  const credential = await startRegistration({ optionsJSON: options }).catch(() => {
    throw new PasskeyCeremonyError();
  });
  return (await api().post<Passkey>(MY_PASSKEYS, { name, credential })).msg;
}

export const renamePasskey = async (id: number, name: string) => (await api().put<unknown>(`${MY_PASSKEYS}/${id}`, { name })).msg;

/** `DELETE …/passkeys/{id}` (needs a recent 验证身份: run it through useReauth). */
export const removePasskey = async (id: number) => (await api().delete<unknown>(`${MY_PASSKEYS}/${id}`)).msg;
