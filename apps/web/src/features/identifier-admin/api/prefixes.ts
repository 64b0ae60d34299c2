import {
  ApiPrefix,
  type EnterpriseOption,
  type IdentifierPrefix,
  type IdentifierPrefixInput,
  type IdentifierPrefixUpdate,
} from '@portal/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

const BASE = `${ApiPrefix.identity}/prefix`;

/** `GET /web-api/identity/v1/prefix/list`: the prefixes the user may see (operators: every enterprise's). */
export async function getPrefixes(): Promise<IdentifierPrefix[]> {
  return (await api().get<IdentifierPrefix>(`${BASE}/list`)).data;
}

export const getPrefixesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.identifiers.prefixes, queryFn: getPrefixes, staleTime: 10_000 });

export function usePrefixes() {
  return useQuery(getPrefixesQueryOptions());
}

/** `GET /web-api/identity/v1/enterprise/list` (operators): whom a prefix can be assigned to. */
export async function getEnterprises(): Promise<EnterpriseOption[]> {
  return (await api().get<EnterpriseOption>(`${ApiPrefix.identity}/enterprise/list`)).data;
}

export const getEnterprisesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.identifiers.enterprises, queryFn: getEnterprises, staleTime: 60_000 });

export function useEnterprises(enabled: boolean) {
  return useQuery({ ...getEnterprisesQueryOptions(), enabled });
}

export const createPrefix = async (input: IdentifierPrefixInput) => (await api().post<IdentifierPrefix>(BASE, input)).msg;
export const updatePrefix = async ({ prefix, input }: { prefix: string; input: IdentifierPrefixUpdate }) =>
  (await api().put<IdentifierPrefix>(`${BASE}/${encodeURIComponent(prefix)}`, input)).msg;
export const deletePrefix = async (prefix: string) => (await api().delete<unknown>(`${BASE}/${encodeURIComponent(prefix)}`)).msg;

/** A prefix write: prefixes reload, and templates and records (they show the prefix) with them. */
function usePrefixMutation<T>(write: (input: T) => Promise<string>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.identifiers.all });
    },
  });
}

export const useCreatePrefix = () => usePrefixMutation(createPrefix);
export const useUpdatePrefix = () => usePrefixMutation(updatePrefix);
export const useDeletePrefix = () => usePrefixMutation(deletePrefix);
