import { ApiPrefix, type ConsoleIpRules } from '@portal/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

const IP_RULES = `${ApiPrefix.console}/security/ip-rules`;

/** `GET /security/ip-rules`: the enterprise's console IP allow-list (empty: no restriction) and the caller's address. */
export async function getConsoleIpRules(): Promise<ConsoleIpRules> {
  const rules = (await api().get<ConsoleIpRules>(IP_RULES)).data[0];
  if (!rules) throw new Error('控制台访问规则为空');
  return rules;
}

export const getConsoleIpRulesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.security.ipRules, queryFn: getConsoleIpRules, staleTime: 0 });

export function useConsoleIpRules() {
  return useQuery(getConsoleIpRulesQueryOptions());
}

/** `PUT /security/ip-rules` with the form's lines (silent: the card shows a refusal under the field). Applies at once. */
export const saveConsoleIpRules = async (lines: string[]) => (await api().put<unknown>(IP_RULES, { rules: lines }, { silent: true })).msg;

export function useSaveConsoleIpRules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveConsoleIpRules,
    // Only a saved list reloads (the form starts again from it); a refused one stays as typed, its reason under the field.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.security.ipRules }),
  });
}
