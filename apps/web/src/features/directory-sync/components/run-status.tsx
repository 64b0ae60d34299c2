import type { SyncRunStatus, SyncRunSummary } from '@portal/shared';
import { Alert, type AlertProps } from 'antd';
import { countsText, hasChanges } from '../lib/sync-format';

export { SyncRunStatusTag as RunStatusTag } from '@/components/sync-run-status-tag';

const OUTCOME_TYPES: Record<SyncRunStatus, NonNullable<AlertProps['type']>> = {
  preview: 'info',
  running: 'info',
  succeeded: 'success',
  partial: 'warning',
  failed: 'error',
  expired: 'warning',
};

const OUTCOME_TITLES: Record<SyncRunStatus, string> = {
  preview: '待执行：预览尚未执行，未写入任何数据',
  running: '执行中',
  succeeded: '同步成功',
  partial: '部分失败',
  failed: '同步失败',
  expired: '预览已过期：未执行',
};

/** How a run ended, with its counts and, for a run that failed as a whole, the source's error text. */
export function RunOutcome({ run }: { run: SyncRunSummary }) {
  return (
    <Alert
      showIcon
      type={OUTCOME_TYPES[run.status]}
      // A run refused as a whole (unreachable source…) changed nothing: its counts say nothing.
      title={
        run.status === 'failed' && !hasChanges(run.counts)
          ? OUTCOME_TITLES.failed
          : `${OUTCOME_TITLES[run.status]}（${countsText(run.counts)}）`
      }
      description={run.error ? <span className="directory-sync__error-text">{run.error}</span> : undefined}
    />
  );
}
