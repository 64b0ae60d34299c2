import { ENTERPRISE_IDENTITY_FIELD_OF_MESSAGE, type TenantCreateBody, TenantMessage } from '@portal/shared';
import { trimmed } from '@/lib/form-rules';

export type TenantFormField = keyof TenantCreateBody;

export const newTenantForm = (): TenantCreateBody => ({ name: '', creditCode: '', adminName: '', adminUsername: '', adminPhone: '' });

/** The body as sent: every value trimmed (the server trims and checks again). */
export const tenantBody = (values: TenantCreateBody): TenantCreateBody => ({
  name: trimmed(values.name),
  creditCode: trimmed(values.creditCode),
  adminName: trimmed(values.adminName),
  adminUsername: trimmed(values.adminUsername),
  adminPhone: trimmed(values.adminPhone),
});

/** The shared messages that name one field of 新建企业: a refusal with one of them shows under that field. */
const FIELD_OF_MESSAGE = new Map<string, TenantFormField>([
  ...ENTERPRISE_IDENTITY_FIELD_OF_MESSAGE,
  [TenantMessage.nameRequired, 'adminName'],
  [TenantMessage.nameTooLong, 'adminName'],
  [TenantMessage.usernameRequired, 'adminUsername'],
  [TenantMessage.usernameInvalid, 'adminUsername'],
  [TenantMessage.usernameTaken, 'adminUsername'],
  [TenantMessage.phoneRequired, 'adminPhone'],
  [TenantMessage.phoneInvalid, 'adminPhone'],
  [TenantMessage.phoneTaken, 'adminPhone'],
]);

/** The field a server refusal names (409 企业名称已被其他企业使用, 账号已存在…), if any. */
export const tenantFieldOf = (message: string): TenantFormField | undefined => FIELD_OF_MESSAGE.get(message);
