import { ApiPrefix, type PasswordChangeBody, type PasswordTransportKey } from '@portal/shared';
import { api } from '@/lib/api';

/** `GET /web/portal/account/public-key`: the server's RSA-OAEP key for passwords in transit. */
export async function getPasswordKey(): Promise<PasswordTransportKey> {
  const res = await api().get<PasswordTransportKey>(`${ApiPrefix.portalAuth}/account/public-key`);
  const key = res.data[0];
  if (!key) throw new Error('公钥为空');
  return key;
}

/** `PUT /web/portal/account/password` (spec section 7) with the three fields already encrypted. Silent: the dialog shows 密码修改失败. */
export async function changePassword(encrypted: PasswordChangeBody): Promise<void> {
  await api().put<unknown>(`${ApiPrefix.portalAuth}/account/password`, encrypted, { silent: true });
}
