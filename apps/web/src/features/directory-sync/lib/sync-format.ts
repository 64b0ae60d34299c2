import { SYNC_ACTION_LABELS, type SyncAction, type SyncChange, type SyncCounts, type SyncRunSummary } from '@portal/shared';
import { chinaTimeText } from '@/lib/time';

/**
 * A time of the sync API as China time `yyyy-MM-dd HH:mm:ss`: the server's China-time text as it
 * is, an ISO instant converted; '' for none.
 */
export function syncTimeText(value: string | null | undefined): string {
  if (!value) return '';
  if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(value)) return value;
  return chinaTimeText(value);
}

/** One change as 字段：旧 → 新; a new object's fields only have a new value. */
export function changeText(change: SyncChange, action: SyncAction): string {
  if (action === 'create' && !change.from) return `${change.field}：${change.to}`;
  return `${change.field}：${change.from || '（空）'} → ${change.to || '（空）'}`;
}

const COUNTED: readonly (keyof SyncCounts)[] = ['create', 'update', 'disable', 'move', 'failed'];
const countLabel = (key: keyof SyncCounts) => (key === 'failed' ? '失败' : SYNC_ACTION_LABELS[key]);

/** `新增 3 · 更新 1`: the counts that are not zero, or 无变更. */
export function countsText(counts: SyncCounts): string {
  const parts = COUNTED.filter((key) => counts[key] > 0).map((key) => `${countLabel(key)} ${counts[key]}`);
  return parts.length > 0 ? parts.join(' · ') : '无变更';
}

/** Whether a preview would write anything (a failing item is recorded too). */
export const hasChanges = (counts: SyncCounts) => COUNTED.some((key) => counts[key] > 0);

/** Who started a run: its operator, or the schedule. */
export const operatorText = (run: SyncRunSummary) => run.operator || (run.trigger === 'schedule' ? '系统（定时）' : '—');
