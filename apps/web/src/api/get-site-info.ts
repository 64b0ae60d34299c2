import { ApiPrefix, type SiteInfo } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiClient } from '@/lib/api-client';
import { apiOf } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';

export async function getSiteInfo(api: ApiClient): Promise<SiteInfo> {
  const res = await api.get<SiteInfo>(`${ApiPrefix.portal}/site`);
  const site = res.data[0];
  if (!site) throw new Error('站点信息为空');
  return site;
}

export const getSiteInfoQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.siteInfo, queryFn: ({ client }) => getSiteInfo(apiOf(client)), staleTime: 10 * 60_000 });

export function useSiteInfo() {
  return useQuery(getSiteInfoQueryOptions());
}
