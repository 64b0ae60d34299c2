import { ApiPrefix, type AuditChainVerification, type LoginLogRow, type LogoutDeliveryRow, type PageResult } from '@portal/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { saveBlob } from '@/lib/download';
import { queryKeys } from '@/lib/query-keys';
import type { LoginLogFilterParams, LoginLogListQuery } from '../lib/login-log-filters';

const CONSOLE = ApiPrefix.console;

/**
 * A row as the server answers it: platform operators (audit:all-enterprises) read every enterprise's
 * attempts, each with its enterprise's name ('' for an attempt that named no account).
 */

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

/** `GET /login-log/{id}/logout-deliveries`: the single-logout messages the session a 登出 row records sent. */
export async function getLogoutDeliveriesOf(id: number): Promise<LogoutDeliveryRow[]> {
  return (await api().get<LogoutDeliveryRow>(`${CONSOLE}/login-log/${id}/logout-deliveries`)).data;
}

export function useLogoutDeliveriesOf(id: number | undefined) {
  return useQuery({
    queryKey: queryKeys.security.logoutDeliveries(id ?? 0),
    queryFn: () => getLogoutDeliveriesOf(id ?? 0),
    enabled: id !== undefined,
    staleTime: 0,
  });
}

/** The 应用 filter's value for sign-ins to the portal itself, which name no application. */
export const PORTAL_APPLICATION_ID = 0;

/** `GET /login-log/applications`: the enterprise's applications the 应用 filter offers, after 门户 (the portal itself). */
export async function getApplicationOptions(): Promise<{ value: number; label: string }[]> {
  const apps = (await api().get<{ id: number; name: string }>(`${CONSOLE}/login-log/applications`)).data;
  return [{ value: PORTAL_APPLICATION_ID, label: '门户' }, ...apps.map((app) => ({ value: app.id, label: app.name }))];
}

export function useApplicationOptions() {
  return useQuery({ queryKey: queryKeys.security.applications, queryFn: getApplicationOptions, staleTime: 60_000 });
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

/** `GET /login-log/verify`: 校验完整性 of the enterprise's 登录日志 over the period (none: the whole chain). */
export async function verifyLoginLog(
  period: Pick<LoginLogFilterParams, 'filterStartTime' | 'filterEndTime'>,
): Promise<AuditChainVerification> {
  const answer = (await api().get<AuditChainVerification>(`${CONSOLE}/login-log/verify`, { params: period })).data[0];
  if (!answer) throw new Error('empty verification');
  return answer;
}
