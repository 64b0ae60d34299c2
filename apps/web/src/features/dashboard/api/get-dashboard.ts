import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

export interface DayCount {
  /** China date `yyyy-MM-dd`. */
  date: string;
  count: number;
}

/** `GET /web-api/console/v1/dashboard`: live platform figures for 工作台. */
export interface Dashboard {
  kpis: {
    publishedArticles: number;
    totalViews: number;
    accounts: number;
    enterprises: number;
    loginsLast7Days: number;
  };
  /** The last 14 China dates, oldest first. */
  publishedPerDay: DayCount[];
  registrationsPerDay: DayCount[];
  mostViewed: { uuid: string; title: string; viewCount: number }[];
}

export async function getDashboard(): Promise<Dashboard> {
  const dashboard = (await api().get<Dashboard>('/web-api/console/v1/dashboard')).data[0];
  if (!dashboard) throw new Error('工作台数据为空');
  return dashboard;
}

export const getDashboardQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.dashboard, queryFn: getDashboard, staleTime: 30_000, refetchInterval: 5 * 60_000 });

export function useDashboard() {
  return useQuery(getDashboardQueryOptions());
}
