import { ApiPrefix, type IdentifierImportMode, type IdentifierImportResult, type IdentifierRecordFilters } from '@portal/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { saveBlob } from '@/lib/download';
import { useInvalidateRecords } from './records';

/** A bulk import or export may take minutes (100 000 rows in well under one): longer than the spec's 50 s for ordinary calls. */
export const CSV_TRANSFER_TIMEOUT_MS = 15 * 60_000;

export interface ImportRequest {
  templateId: number;
  /** 新增 adds records; 更新 replaces values of existing ones. */
  mode: IdentifierImportMode;
  /** 更新: the records also move to the template's latest version. */
  toLatest: boolean;
  file: Blob;
  filename: string;
  /** Share of the file sent so far, 0–100. */
  onProgress?(percent: number): void;
}

/** `POST /web-api/identity/v1/record/import?templateId=&mode=` (multipart, field `file`): the server's summary. */
export async function importRecords({
  templateId,
  mode,
  toLatest,
  file,
  filename,
  onProgress,
}: ImportRequest): Promise<IdentifierImportResult> {
  const form = new FormData();
  form.append('file', file, filename);
  const res = await api().post<IdentifierImportResult>(`${ApiPrefix.identity}/record/import`, form, {
    params: { templateId, mode, ...(mode === 'update' && toLatest ? { toLatest: true } : {}) },
    timeout: CSV_TRANSFER_TIMEOUT_MS,
    onUploadProgress: (e) => {
      if (e.total) onProgress?.(Math.round((e.loaded / e.total) * 100));
    },
  });
  const result = res.data[0];
  if (!result) throw new Error('服务器未返回导入结果');
  return result;
}

export function useImportRecords() {
  const invalidate = useInvalidateRecords();
  return useMutation({ mutationFn: importRecords, onSettled: invalidate });
}

/**
 * Downloads the records of a template the list's filters show (prefix, the start of the handle or
 * suffix) as CSV with the user's token and hands it to the browser.
 */
export async function exportRecords({
  filters,
  filename,
}: {
  filters: IdentifierRecordFilters & { templateId: number };
  filename: string;
}): Promise<void> {
  const file = await api().blob(`${ApiPrefix.identity}/record/export`, { params: filters, timeout: CSV_TRANSFER_TIMEOUT_MS });
  saveBlob(file, filename);
}

export function useExportRecords() {
  return useMutation({ mutationFn: exportRecords });
}
