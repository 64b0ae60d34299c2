import { ApiPrefix, type MyApplication } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

/** `GET /web-api/portal/v1/my-apps`: the enterprise applications the logged-in user may open. */
export async function getMyApps(): Promise<MyApplication[]> {
  return (await api().get<MyApplication>(`${ApiPrefix.portal}/my-apps`)).data;
}

export const getMyAppsQueryOptions = () => queryOptions({ queryKey: queryKeys.ssoApps.mine, queryFn: getMyApps, staleTime: 60_000 });

/** Only for a logged-in user: a visitor has none and is asked to log in. */
export function useMyApps(enabled: boolean) {
  return useQuery({ ...getMyAppsQueryOptions(), enabled });
}
