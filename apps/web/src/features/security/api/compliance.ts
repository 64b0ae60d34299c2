import { ApiPrefix, type ComplianceReport } from '@portal/shared';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { saveBlob } from '@/lib/download';
import { queryKeys } from '@/lib/query-keys';

const COMPLIANCE = `${ApiPrefix.console}/security/compliance`;

/** `GET /security/compliance`: every control evaluated on the enterprise's saved 安全设置, and the scores. */
export async function getComplianceReport(): Promise<ComplianceReport> {
  const report = (await api().get<ComplianceReport>(COMPLIANCE)).data[0];
  if (!report) throw new Error('安全合规为空');
  return report;
}

export const getComplianceReportQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.security.compliance, queryFn: getComplianceReport, staleTime: 0 });

export function useComplianceReport() {
  return useQuery(getComplianceReportQueryOptions());
}

/** The control table as CSV, downloaded with the user's token. */
export async function exportComplianceCsv(filename: string): Promise<void> {
  saveBlob(await api().blob(`${COMPLIANCE}/export`), filename);
}

/** The PDF evidence pack of a period (China dates, both included). */
export async function exportEvidencePack(period: { start: string; end: string }, filename: string): Promise<void> {
  saveBlob(await api().blob(`${COMPLIANCE}/evidence`, { params: period }), filename);
}

export function useExportComplianceCsv() {
  return useMutation({ mutationFn: exportComplianceCsv });
}

export function useExportEvidencePack() {
  return useMutation({
    mutationFn: ({ period, filename }: { period: { start: string; end: string }; filename: string }) =>
      exportEvidencePack(period, filename),
  });
}
