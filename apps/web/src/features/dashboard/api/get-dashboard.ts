import { ApiPrefix, type Dashboard } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

/**
 * `GET /web-api/console/v1/dashboard`: live figures for 工作台, of the caller's enterprise, or of the
 * whole platform for operators.
 */
export async function getDashboard(): Promise<Dashboard> {
  const dashboard = (await api().get<Dashboard>(`${ApiPrefix.console}/dashboard`)).data[0];
  if (!dashboard) throw new Error('工作台数据为空');
  return dashboard;
}

export const getDashboardQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.dashboard, queryFn: getDashboard, staleTime: 30_000, refetchInterval: 5 * 60_000 });

export function useDashboard() {
  return useQuery(getDashboardQueryOptions());
}
