import { ApiPrefix, type AuditAction, type AuditChainVerification, type AuditLogRow, type PageResult } from '@portal/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';
import { saveBlob } from '@/lib/download';
import type { AuditFilterParams, AuditListQuery } from '../lib/audit-filters';

/** `GET /web-api/console/v1/audit/actions`: the action codes the log filter accepts, with Chinese names. */
export async function getAuditActions(): Promise<AuditAction[]> {
  return (await api().get<AuditAction>(`${ApiPrefix.console}/audit/actions`)).data;
}

export const getAuditActionsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.auditLog.actions, queryFn: getAuditActions, staleTime: Infinity });

export function useAuditActions() {
  return useQuery(getAuditActionsQueryOptions());
}

export async function getAuditLog(query: AuditListQuery): Promise<PageResult<AuditLogRow>> {
  const res = await api().get<PageResult<AuditLogRow>>(`${ApiPrefix.console}/audit/page/list`, { params: query });
  return res.data[0] ?? { rows: [], total: 0 };
}

export const getAuditLogQueryOptions = (query: AuditListQuery) =>
  queryOptions({
    queryKey: queryKeys.auditLog.page(query),
    queryFn: () => getAuditLog(query),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useAuditLog(query: AuditListQuery) {
  return useQuery(getAuditLogQueryOptions(query));
}

/** Downloads the CSV of the filtered log with the user's token and hands it to the browser. */
export async function exportAuditLog(params: AuditFilterParams, filename: string): Promise<void> {
  const file = await api().blob(`${ApiPrefix.console}/audit/export`, { params });
  saveBlob(file, filename);
}

export function useExportAuditLog() {
  return useMutation({
    mutationFn: ({ params, filename }: { params: AuditFilterParams; filename: string }) => exportAuditLog(params, filename),
  });
}

/** `GET /web-api/console/v1/audit/verify`: 校验完整性 of the enterprise's 操作日志 over the period (none: the whole chain). */
export async function verifyAuditLog(
  period: Pick<AuditFilterParams, 'filterStartTime' | 'filterEndTime'>,
): Promise<AuditChainVerification> {
  const answer = (await api().get<AuditChainVerification>(`${ApiPrefix.console}/audit/verify`, { params: period })).data[0];
  if (!answer) throw new Error('empty verification');
  return answer;
}
