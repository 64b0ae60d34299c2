import { getPasswordKey } from '@/api/change-password';
import { ApiError } from '@/lib/api-client';
import { encryptPassword, importPasswordKey } from '@/lib/encrypt-password';
import { notify } from '@/lib/notify';

/**
 * Spec section 5: a password leaves the browser encoded under the server's key, like the
 * change-password dialog's. Null when it cannot be (the reason has been shown: the API client
 * toasts a failed key call).
 */
export async function encodePassword(password: string): Promise<string | null> {
  try {
    const key = await importPasswordKey((await getPasswordKey()).publicKey);
    return await encryptPassword(key, password);
  } catch (err) {
    if (!(err instanceof ApiError)) notify.error('密码加密失败，请刷新页面后重试');
    return null;
  }
}
