import type { LoginLogRow, PageResult, SsoApplicationRow } from '@portal/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { saveBlob } from '@/lib/download';
import { queryKeys } from '@/lib/query-keys';
import type { LoginLogFilterParams, LoginLogListQuery } from '../lib/login-log-filters';

const CONSOLE = '/web-api/console/v1';

/** `GET /login-log/page/list`: one page of the enterprise's sign-in attempts, newest first. */
export async function getLoginLog(query: LoginLogListQuery): Promise<PageResult<LoginLogRow>> {
  const res = await api().get<PageResult<LoginLogRow>>(`${CONSOLE}/login-log/page/list`, { params: query });
  return res.data[0] ?? { rows: [], total: 0 };
}

export const getLoginLogQueryOptions = (query: LoginLogListQuery) =>
  queryOptions({
    queryKey: queryKeys.security.loginLog(query),
    queryFn: () => getLoginLog(query),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useLoginLog(query: LoginLogListQuery) {
  return useQuery(getLoginLogQueryOptions(query));
}

/** Most applications the filter offers: an enterprise has a handful, and the select searches them. */
const APPLICATION_OPTIONS_LIMIT = 100;

/**
 * The enterprise's applications for the 应用 filter, from 应用列表 (`GET /sso-app/page/list`). Silent:
 * without them the log still reads, only without this filter's names.
 */
export async function getApplicationOptions(): Promise<{ value: number; label: string }[]> {
  const res = await api().get<PageResult<SsoApplicationRow>>(`${CONSOLE}/sso-app/page/list`, {
    params: { offset: 0, limit: APPLICATION_OPTIONS_LIMIT },
    silent: true,
  });
  return (res.data[0]?.rows ?? []).map((app) => ({ value: app.id, label: app.name }));
}

export function useApplicationOptions(enabled: boolean) {
  return useQuery({ queryKey: queryKeys.security.applications, queryFn: getApplicationOptions, staleTime: 60_000, enabled });
}

/** Downloads the CSV of the filtered log with the user's token and hands it to the browser. */
export async function exportLoginLog(params: LoginLogFilterParams, filename: string): Promise<void> {
  saveBlob(await api().blob(`${CONSOLE}/login-log/export`, { params }), filename);
}

export function useExportLoginLog() {
  return useMutation({
    mutationFn: ({ params, filename }: { params: LoginLogFilterParams; filename: string }) => exportLoginLog(params, filename),
  });
}
