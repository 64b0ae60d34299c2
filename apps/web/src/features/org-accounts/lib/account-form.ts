import {
  type AccountCreateBody,
  type AccountRow,
  type AccountUpdateBody,
  refusesPassword,
  type PasswordMode,
  type PasswordRules,
  RegisterMessage,
  TenantMessage,
  TenantRules,
  passwordProblem,
} from '@portal/shared';
import type { FormRule } from 'antd';
import { trimmed } from '@/lib/form-rules';

/** The 新增 / 编辑 form; the password fields only on 新增 (and in 重置密码). */
export interface AccountFormValues {
  username: string;
  name: string;
  phone: string;
  email?: string;
  groupIds: number[];
  roleIds: number[];
  passwordMode: PasswordMode;
  password?: string;
  confirm?: string;
}

export type AccountFormField = keyof AccountFormValues;

/** 确认密码: required and equal to 密码 (the registration's messages). */
export const confirmRules: FormRule[] = [
  { required: true, message: RegisterMessage.confirmRequired },
  ({ getFieldValue }) => ({
    validator: (_rule, value: unknown) =>
      !value || getFieldValue('password') === value ? Promise.resolve() : Promise.reject(new Error(RegisterMessage.confirmMismatch)),
  }),
];

/**
 * 密码 of 新增 and 重置密码: the spec's 6–18, then the enterprise's 安全设置 once they are read (the
 * account's username from the form or as given). A common password is the server's to refuse.
 */
export const initialPasswordRule =
  (rules: PasswordRules | undefined, username?: string): FormRule =>
  ({ getFieldValue }) => ({
    validator: (_rule, value: unknown) => {
      const password = typeof value === 'string' ? value : '';
      const account = username ?? trimmed(getFieldValue('username'));
      const message = TenantRules.password(password) ?? (rules && passwordProblem(password, rules, account));
      return message ? Promise.reject(new Error(message)) : Promise.resolve();
    },
  });

/** The hint under 密码: the enterprise's rules in one line (as the server describes them) and what follows. */
export const initialPasswordHint = (description: string | undefined) =>
  `${description ? `${description}，` : ''}区分大小写，不能使用常见密码；首次登录时须修改密码`;

export function newAccountForm(): AccountFormValues {
  return { username: '', name: '', phone: '', email: '', groupIds: [], roleIds: [], passwordMode: 'manual' };
}

export function editAccountForm(row: AccountRow): AccountFormValues {
  return {
    username: row.username,
    name: row.name,
    phone: row.phone,
    email: row.email,
    groupIds: row.groups.map((g) => g.id),
    roleIds: row.roles.map((r) => r.id),
    passwordMode: 'manual',
  };
}

/** The 新增 body; `password` is the encoded one (or absent for an SMS password). */
export function createBody(values: AccountFormValues, encodedPassword: string | undefined): AccountCreateBody {
  const email = trimmed(values.email);
  return {
    username: trimmed(values.username),
    name: trimmed(values.name),
    phone: trimmed(values.phone),
    ...(email ? { email } : {}),
    groupIds: values.groupIds,
    roleIds: values.roleIds,
    passwordMode: values.passwordMode,
    ...(values.passwordMode === 'manual' && encodedPassword ? { password: encodedPassword } : {}),
  };
}

/** The 编辑 body: an emptied 邮箱 is sent empty, so the server clears it. */
export function updateBody(values: AccountFormValues): AccountUpdateBody {
  return {
    name: trimmed(values.name),
    phone: trimmed(values.phone),
    email: trimmed(values.email),
    groupIds: values.groupIds,
    roleIds: values.roleIds,
  };
}

/** The shared messages that name one field: a refusal with one of them is shown under that field. */
const FIELD_OF_MESSAGE = new Map<string, AccountFormField>([
  [TenantMessage.usernameRequired, 'username'],
  [TenantMessage.usernameInvalid, 'username'],
  [TenantMessage.usernameTaken, 'username'],
  [TenantMessage.nameRequired, 'name'],
  [TenantMessage.nameTooLong, 'name'],
  [TenantMessage.phoneRequired, 'phone'],
  [TenantMessage.phoneInvalid, 'phone'],
  [TenantMessage.phoneTaken, 'phone'],
  [TenantMessage.emailInvalid, 'email'],
  [TenantMessage.emailTooLong, 'email'],
  [TenantMessage.passwordRequired, 'password'],
  [TenantMessage.passwordTooShort, 'password'],
  [TenantMessage.passwordTooLong, 'password'],
]);

/** The field a server refusal names (409 账号已存在, 400 请输入正确的手机号…), if any. */
export const fieldOfMessage = (message: string): AccountFormField | undefined =>
  FIELD_OF_MESSAGE.get(message) ?? (refusesPassword(message) ? 'password' : undefined);
