import { ApiPrefix, type PasswordRulesAnswer } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

/** `GET /web/portal/account/password-rules`: 安全设置's password rules of the caller's enterprise (the platform's without one). */
export async function getPasswordRules(): Promise<PasswordRulesAnswer> {
  const rules = (await api().get<PasswordRulesAnswer>(`${ApiPrefix.portalAuth}/account/password-rules`)).data[0];
  if (!rules) throw new Error('密码规则为空');
  return rules;
}

export const getPasswordRulesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.security.passwordRules, queryFn: getPasswordRules, staleTime: 30_000 });

/** The password rules the forms that set a password hint at and check before sending (the server checks again). */
export function usePasswordRules() {
  return useQuery(getPasswordRulesQueryOptions());
}
