import { ApiPrefix, type IdentifierStats, type IdentifierStatsQuery, type StatsExportTable } from '@portal/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { saveBlob } from '@/lib/download';
import { queryKeys } from '@/lib/query-keys';

const STATS_API = `${ApiPrefix.identity}/stats`;

/** `GET /web-api/identity/v1/stats?days=&prefix=`: the lookups of the prefixes the user may see. */
export async function getIdentifierStats(query: IdentifierStatsQuery): Promise<IdentifierStats> {
  const stats = (await api().get<IdentifierStats>(STATS_API, { params: query })).data[0];
  if (!stats) throw new Error('统计数据为空');
  return stats;
}

export const getIdentifierStatsQueryOptions = (query: IdentifierStatsQuery) =>
  queryOptions({
    queryKey: queryKeys.identifiers.stats(query),
    queryFn: () => getIdentifierStats(query),
    // Another range or prefix keeps the figures on screen until its own arrive.
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    refetchInterval: 5 * 60_000,
  });

export function useIdentifierStats(query: IdentifierStatsQuery) {
  return useQuery(getIdentifierStatsQueryOptions(query));
}

export interface StatsExport extends IdentifierStatsQuery {
  table: StatsExportTable;
  filename: string;
}

/** `GET /web-api/identity/v1/stats/export?table=&days=&prefix=`: one table as CSV, downloaded with the user's token. */
export async function exportIdentifierStats({ table, filename, ...query }: StatsExport): Promise<void> {
  saveBlob(await api().blob(`${STATS_API}/export`, { params: { table, ...query } }), filename);
}

export function useExportIdentifierStats() {
  return useMutation({ mutationFn: exportIdentifierStats });
}
