import type { PageResult, SyncAction, SyncItemStatus, SyncRunItem, SyncRunStatus, SyncRunSummary } from '@portal/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';
import { SYNC_API } from './sync-jobs';
import { syncKeys } from './sync-keys';

export interface SyncRunListQuery {
  offset: number;
  limit: number;
  jobId?: number;
  status?: SyncRunStatus;
}

export interface SyncItemListQuery {
  offset: number;
  limit: number;
  action?: SyncAction;
  status?: SyncItemStatus;
}

const single = <T>(data: T[], what: string): T => {
  const value = data[0];
  if (!value) throw new Error(`服务器未返回${what}`);
  return value;
};

/**
 * `POST /auth/sync/jobs/:id/preview`: reads the source and lists what a run would change, writing
 * nothing but the preview itself. Silent: the preview drawer shows a refusal (an unreachable source…).
 */
export async function previewSyncJob(jobId: number): Promise<SyncRunSummary> {
  return single((await api().post<SyncRunSummary>(`${SYNC_API}/jobs/${jobId}/preview`, undefined, { silent: true })).data, '预览');
}

/** `POST /auth/sync/runs/:id/execute`: applies a preview; 409 previewExpired when the source changed since. */
export async function executeSyncRun(runId: number): Promise<SyncRunSummary> {
  return single((await api().post<SyncRunSummary>(`${SYNC_API}/runs/${runId}/execute`, undefined, { silent: true })).data, '同步结果');
}

/** `GET /auth/sync/runs`: one page of the 同步日志, newest first. */
export async function getSyncRuns(query: SyncRunListQuery): Promise<PageResult<SyncRunSummary>> {
  return (await api().get<PageResult<SyncRunSummary>>(`${SYNC_API}/runs`, { params: query })).data[0] ?? { rows: [], total: 0 };
}

export async function getSyncRun(id: number): Promise<SyncRunSummary> {
  return single((await api().get<SyncRunSummary>(`${SYNC_API}/runs/${id}`)).data, '同步记录');
}

/** `GET /auth/sync/runs/:id/items`: one page of a run's (or a preview's) objects. */
export async function getSyncRunItems(runId: number, query: SyncItemListQuery): Promise<PageResult<SyncRunItem>> {
  return (await api().get<PageResult<SyncRunItem>>(`${SYNC_API}/runs/${runId}/items`, { params: query })).data[0] ?? { rows: [], total: 0 };
}

export function useSyncRuns(query: SyncRunListQuery) {
  return useQuery({
    queryKey: syncKeys.runs.page(query),
    queryFn: () => getSyncRuns(query),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** A run as it is now, starting from the summary the caller has; re-read every few seconds while it runs. */
export function useSyncRun(run: SyncRunSummary | null) {
  return useQuery({
    queryKey: syncKeys.runs.detail(run?.id ?? 0),
    queryFn: () => getSyncRun(run!.id),
    placeholderData: run ?? undefined,
    enabled: run !== null,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 3000 : false),
  });
}

export function useSyncRunItems(runId: number, query: SyncItemListQuery) {
  return useQuery({
    queryKey: syncKeys.runs.items(runId, query),
    queryFn: () => getSyncRunItems(runId, query),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** A preview is a run of the 同步日志 too. */
export function usePreviewSyncJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: previewSyncJob,
    onSettled: () => queryClient.invalidateQueries({ queryKey: syncKeys.all }),
  });
}

/** A run changes accounts and 账号组, the job's 最近结果, the log, and the source's 最近同步. */
export function useExecuteSyncRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: executeSyncRun,
    onSettled: () =>
      Promise.all([syncKeys.all, syncKeys.authSources, queryKeys.org.all].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
