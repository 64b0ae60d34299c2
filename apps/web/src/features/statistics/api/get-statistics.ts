import type { AccountState } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

/**
 * `GET /web-api/console/v1/statistics`: the enterprise's sign-in figures for 统计分析.
 * DRAFT until the server's shape lands in packages/shared (sso.ts `Statistics`).
 */
export interface Statistics {
  /** The last 30 China dates, oldest first. */
  signInsPerDay: { date: string; success: number; failure: number }[];
  /** Accounts that signed in successfully within the last 7 and 30 days, of all the enterprise's accounts. */
  activeAccounts: { last7Days: number; last30Days: number; total: number };
  /** Successful sign-ins to each application over the last 30 days. */
  signInsPerApplication: { name: string; count: number }[];
  accountsByStatus: { status: AccountState; count: number }[];
  /** Accounts with an enrolled authenticator, of all the enterprise's accounts. */
  twoFactor: { enrolled: number; total: number };
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
