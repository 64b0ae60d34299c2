import { ApiPrefix, type SecurityPolicy } from '@portal/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

const POLICY = `${ApiPrefix.console}/security/policy`;

/** `GET /security/policy`: the enterprise's 安全设置, or the platform defaults while it has none. */
export async function getSecurityPolicy(): Promise<SecurityPolicy> {
  const policy = (await api().get<SecurityPolicy>(POLICY)).data[0];
  if (!policy) throw new Error('安全设置为空');
  return policy;
}

export const getSecurityPolicyQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.security.policy, queryFn: getSecurityPolicy, staleTime: 0 });

export function useSecurityPolicy() {
  return useQuery(getSecurityPolicyQueryOptions());
}

/** `PUT /security/policy`: applies from each account's next login. */
export const saveSecurityPolicy = async (policy: SecurityPolicy) => (await api().put<unknown>(POLICY, policy)).msg;

export function useSaveSecurityPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSecurityPolicy,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.security.policy }),
        queryClient.invalidateQueries({ queryKey: queryKeys.security.compliance }),
      ]),
  });
}
