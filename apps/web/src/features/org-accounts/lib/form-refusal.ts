import type { FormInstance } from 'antd';
import { notify } from '@/lib/notify';
import { type AccountFormField, fieldOfMessage } from './account-form';

/**
 * Shows a refused write (the calls are silent): under the field its message names (409 账号已存在,
 * 手机号已被使用…) when that field is among the form's `fields`, else as the error toast.
 */
export function showRefusal(form: FormInstance, fields: readonly AccountFormField[], error: unknown): void {
  const message = error instanceof Error && error.message ? error.message : '操作失败';
  const field = fieldOfMessage(message);
  if (field && fields.includes(field)) form.setFields([{ name: field, errors: [message] }]);
  else notify.error(message);
}
