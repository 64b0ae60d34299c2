import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { saveBlob } from '@/lib/download';
import type { AccountFilterParams } from '../lib/account-query';
import { type AccountImportResult, type ImportFormat, importTemplateFilename } from '../lib/account-import';
import { ORG_API, useInvalidateOrg } from './org-client';

/** Downloads the accounts matching the list's filters as CSV, with the user's token. */
export async function exportAccounts({ params, filename }: { params: AccountFilterParams; filename: string }): Promise<void> {
  saveBlob(await api().blob(`${ORG_API}/account/export`, { params }), filename);
}

export function useExportAccounts() {
  return useMutation({ mutationFn: exportAccounts });
}

/** The import file's template (header row and an example) as CSV or Excel. */
export async function downloadImportTemplate(format: ImportFormat): Promise<void> {
  saveBlob(await api().blob(`${ORG_API}/account/import/template`, { params: { format } }), importTemplateFilename(format));
}

export function useDownloadImportTemplate() {
  return useMutation({ mutationFn: downloadImportTemplate });
}

export interface AccountImportRequest {
  file: Blob;
  filename: string;
  /** Share of the file sent so far, 0–100. */
  onProgress?(percent: number): void;
}

/** `POST /account/import` (multipart, field `file`, CSV or XLSX): all rows or none. */
export async function importAccounts({ file, filename, onProgress }: AccountImportRequest): Promise<AccountImportResult> {
  const form = new FormData();
  form.append('file', file, filename);
  const res = await api().post<AccountImportResult>(`${ORG_API}/account/import`, form, {
    onUploadProgress: (e) => {
      if (e.total) onProgress?.(Math.round((e.loaded / e.total) * 100));
    },
  });
  const result = res.data[0];
  if (!result) throw new Error('服务器未返回导入结果');
  return result;
}

export function useImportAccounts() {
  const invalidate = useInvalidateOrg();
  return useMutation({ mutationFn: importAccounts, onSettled: invalidate });
}
