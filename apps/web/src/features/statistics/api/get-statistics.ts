import { ApiPrefix, type Statistics } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

/** `GET /web-api/console/v1/statistics`: the figures of the caller's enterprise. */
export async function getStatistics(): Promise<Statistics> {
  const statistics = (await api().get<Statistics>(`${ApiPrefix.console}/statistics`)).data[0];
  if (!statistics) throw new Error('统计数据为空');
  return statistics;
}

export const getStatisticsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.statistics, queryFn: getStatistics, staleTime: 30_000, refetchInterval: 5 * 60_000 });

export function useStatistics() {
  return useQuery(getStatisticsQueryOptions());
}
