import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

/**
 * `GET /web-api/console/v1/statistics`: the figures of the caller's enterprise. The same shape as the
 * server's `Statistics` answer; to be imported from @portal/shared once that lands there.
 */
export interface Statistics {
  /** Sign-in attempts per China date (`yyyy-MM-dd`), the last 30, oldest first. */
  signInsPerDay: { date: string; success: number; failure: number }[];
  /** Accounts that signed in within the last 7 and 30 days, of `total` accounts. */
  activeAccounts: { last7Days: number; last30Days: number; total: number };
  /** Successful sign-ins over 30 days per application, most first: the top ones, then 其他; the portal itself is 门户. */
  signInsPerApplication: { applicationId: number | null; name: string; count: number }[];
  /** Accounts by 状态: 正常, 停用, 锁定. */
  accountsByStatus: { active: number; disabled: number; locked: number };
  /** Accounts with two-factor login enrolled (TOTP) and without. */
  twoFactor: { enabled: number; notEnabled: number };
}

export async function getStatistics(): Promise<Statistics> {
  const statistics = (await api().get<Statistics>('/web-api/console/v1/statistics')).data[0];
  if (!statistics) throw new Error('统计数据为空');
  return statistics;
}

export const getStatisticsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.statistics, queryFn: getStatistics, staleTime: 30_000, refetchInterval: 5 * 60_000 });

export function useStatistics() {
  return useQuery(getStatisticsQueryOptions());
}
