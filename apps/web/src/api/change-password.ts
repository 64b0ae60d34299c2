import { api } from '@/lib/api';

export interface PasswordTransportKey {
  algorithm: string;
  /** SPKI DER, base64. */
  publicKey: string;
}

/** `GET /web/portal/account/public-key`: the server's RSA-OAEP key for passwords in transit. */
export async function getPasswordKey(): Promise<PasswordTransportKey> {
  const res = await api().get<PasswordTransportKey>('/web/portal/account/public-key');
  const key = res.data[0];
  if (!key) throw new Error('公钥为空');
  return key;
}

/** `PUT /web/portal/account/password` (spec section 7) with the three fields already encrypted. Silent: the dialog shows 密码修改失败. */
export async function changePassword(encrypted: { oldPassword: string; newPassword: string; confirmPassword: string }): Promise<void> {
  await api().put<unknown>('/web/portal/account/password', encrypted, { silent: true });
}
