import type { ApplicationDetail, RecommendItem } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiOf } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';

export function useApplications() {
  return useQuery({
    queryKey: queryKeys.applications.published,
    queryFn: async ({ client }): Promise<RecommendItem[]> => (await apiOf(client).get<RecommendItem>('/open-api/app/v1/list')).data,
  });
}

/** Spec section 7: App detail, `GET /open-api/app/v1/dtl?appId=`. */
export function useApplicationDetail(appId: string) {
  return useQuery({
    queryKey: queryKeys.applications.detail(appId),
    enabled: appId !== '',
    queryFn: async ({ client }): Promise<ApplicationDetail> => {
      const app = (await apiOf(client).get<ApplicationDetail>('/open-api/app/v1/dtl', { params: { appId } })).data[0];
      if (!app) throw new Error('应用不存在');
      return app;
    },
  });
}
