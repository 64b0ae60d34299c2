import { ApiPrefix, type EnterpriseProfile, type EnterpriseProfileBody, type RegionOption } from '@portal/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

/** The console API of 企业信息 and 企业认证. */
export const ENTERPRISE_API = `${ApiPrefix.console}/enterprise`;

/** `GET /enterprise/profile`: the caller's enterprise; `editable` when the caller holds enterprise:manage. */
export async function getEnterpriseProfile(): Promise<EnterpriseProfile> {
  const profile = (await api().get<EnterpriseProfile>(`${ENTERPRISE_API}/profile`)).data[0];
  if (!profile) throw new Error('企业信息为空');
  return profile;
}

export const getEnterpriseProfileQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.enterprise.profile, queryFn: getEnterpriseProfile, staleTime: 0 });

export function useEnterpriseProfile() {
  return useQuery(getEnterpriseProfileQueryOptions());
}

/** `PUT /enterprise/profile` (silent: the form shows a refusal under the field it names). */
export const saveEnterpriseProfile = async (body: EnterpriseProfileBody) =>
  (await api().put<EnterpriseProfile>(`${ENTERPRISE_API}/profile`, body, { silent: true })).msg;

/**
 * A write to the profile or the certification changes both views of the enterprise and the session's
 * certification status (the menus answer: the console's banner, the public header's 已认证).
 */
export function useEnterpriseMutation<T, R>(write: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.enterprise.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.menus }),
      ]),
  });
}

export const useSaveEnterpriseProfile = () => useEnterpriseMutation(saveEnterpriseProfile);

/** `GET /web-api/portal/v1/regions`: provinces with their cities (GB/T 2260 codes). */
export async function getRegions(): Promise<RegionOption[]> {
  return (await api().get<RegionOption>(`${ApiPrefix.portal}/regions`)).data;
}

export const getRegionsQueryOptions = () => queryOptions({ queryKey: queryKeys.regions, queryFn: getRegions, staleTime: Infinity });

export function useRegions(enabled = true) {
  return useQuery({ ...getRegionsQueryOptions(), enabled });
}
