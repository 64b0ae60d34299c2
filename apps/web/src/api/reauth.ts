import { ApiPrefix, type ReauthBody } from '@portal/shared';
import { api } from '@/lib/api';

/**
 * `POST /web/portal/account/reauth` (验证身份): the encrypted current password or an authenticator
 * code. Silent: the dialog shows the server's reason under its field.
 */
export async function reauthenticate(body: ReauthBody): Promise<string> {
  return (await api().post<unknown>(`${ApiPrefix.portalAuth}/account/reauth`, body, { silent: true })).msg;
}
