import type { ApplicationDetail, RecommendItem } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

export function useApplications() {
  return useQuery({
    queryKey: queryKeys.applications.published,
    queryFn: async (): Promise<RecommendItem[]> => (await api().get<RecommendItem>('/open-api/app/v1/list')).data,
  });
}

/** Spec section 7: App detail, `GET /open-api/app/v1/dtl?appId=`. */
export function useApplicationDetail(appId: string) {
  return useQuery({
    queryKey: queryKeys.applications.detail(appId),
    enabled: appId !== '',
    queryFn: async (): Promise<ApplicationDetail> => {
      const app = (await api().get<ApplicationDetail>('/open-api/app/v1/dtl', { params: { appId } })).data[0];
      if (!app) throw new Error('应用不存在');
      return app;
    },
  });
}
