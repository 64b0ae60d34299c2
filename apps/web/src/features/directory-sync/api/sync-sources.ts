import { ApiPrefix, type AuthSourceSummary } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { syncKeys } from './sync-keys';

/** `GET /auth/sources`: the enterprise's authentication sources, which a job reads from. */
export async function getSyncSources(): Promise<AuthSourceSummary[]> {
  return (await api().get<AuthSourceSummary>(`${ApiPrefix.console}/auth/sources`)).data;
}

/** Loaded when the job form opens. */
export function useSyncSources(enabled: boolean) {
  return useQuery({ queryKey: syncKeys.sourceOptions, queryFn: getSyncSources, staleTime: 0, enabled });
}
