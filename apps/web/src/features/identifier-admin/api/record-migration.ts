import { ApiPrefix, type RecordMigrationPreview, type RecordMigrationRequest, type RecordMigrationResult } from '@portal/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { CSV_TRANSFER_TIMEOUT_MS } from './record-csv';
import { useInvalidateRecords } from './records';

const BASE = `${ApiPrefix.identity}/record/migrate`;

/** `POST /web-api/identity/v1/record/migrate/preview`: what a 批量迁移 would move and lose (reads every record concerned). */
export async function previewMigration(request: RecordMigrationRequest): Promise<RecordMigrationPreview> {
  const res = await api().post<RecordMigrationPreview>(`${BASE}/preview`, request, { timeout: CSV_TRANSFER_TIMEOUT_MS });
  const preview = res.data[0];
  if (!preview) throw new Error('服务器未返回迁移预览');
  return preview;
}

export interface MigrationWriteResult {
  result: RecordMigrationResult;
  msg: string;
}

/** `POST /web-api/identity/v1/record/migrate`: moves the records in one transaction. */
export async function migrateRecords(request: RecordMigrationRequest): Promise<MigrationWriteResult> {
  const res = await api().post<RecordMigrationResult>(BASE, request, { timeout: CSV_TRANSFER_TIMEOUT_MS });
  const result = res.data[0];
  if (!result) throw new Error('服务器未返回迁移结果');
  return { result, msg: res.msg };
}

export function usePreviewMigration() {
  return useMutation({ mutationFn: previewMigration });
}

/** A migration changes records: the lists, and the template's counts, reload. */
export function useMigrateRecords() {
  const invalidate = useInvalidateRecords();
  return useMutation({ mutationFn: migrateRecords, onSettled: invalidate });
}
