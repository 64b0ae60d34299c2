import { ApiPrefix, type SyncJob, type SyncJobInput } from '@portal/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { syncKeys } from './sync-keys';

/** The console API of 同步. */
export const SYNC_API = `${ApiPrefix.console}/auth/sync`;

/** `GET /auth/sync/jobs`: the enterprise's sync jobs, each with its source and its latest run. */
export async function getSyncJobs(): Promise<SyncJob[]> {
  return (await api().get<SyncJob>(`${SYNC_API}/jobs`)).data;
}

export const getSyncJobsQueryOptions = () => queryOptions({ queryKey: syncKeys.jobs, queryFn: getSyncJobs, staleTime: 0 });

export function useSyncJobs() {
  return useQuery(getSyncJobsQueryOptions());
}

// 新增 and 编辑 are silent: the drawer shows a refusal under the field it names, or toasts it.
export const createSyncJob = async (body: SyncJobInput) =>
  (await api().post<{ id: number }>(`${SYNC_API}/jobs`, body, { silent: true })).msg;
export const updateSyncJob = async ({ id, body }: { id: number; body: SyncJobInput }) =>
  (await api().put<unknown>(`${SYNC_API}/jobs/${id}`, body, { silent: true })).msg;
/** 停用 / 启用: the whole job again with `enabled` changed; a refusal is toasted by the client. */
export const setSyncJobEnabled = async ({ id, body }: { id: number; body: SyncJobInput }) =>
  (await api().put<unknown>(`${SYNC_API}/jobs/${id}`, body)).msg;
/** Accounts and 账号组 it synced stay as they are. */
export const deleteSyncJob = async (id: number) => (await api().delete<unknown>(`${SYNC_API}/jobs/${id}`)).msg;

/** A job write changes the job list and the 同步日志's job filter. */
function useSyncJobMutation<T>(write: (input: T) => Promise<string>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: write, onSettled: () => queryClient.invalidateQueries({ queryKey: syncKeys.all }) });
}

export const useCreateSyncJob = () => useSyncJobMutation(createSyncJob);
export const useUpdateSyncJob = () => useSyncJobMutation(updateSyncJob);
export const useSetSyncJobEnabled = () => useSyncJobMutation(setSyncJobEnabled);
export const useDeleteSyncJob = () => useSyncJobMutation(deleteSyncJob);
