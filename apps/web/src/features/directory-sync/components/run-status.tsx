import { SYNC_RUN_STATUS_LABELS, type SyncRunStatus, type SyncRunSummary } from '@portal/shared';
import { Alert, type AlertProps, Tag } from 'antd';
import { countsText, hasChanges } from '../lib/sync-format';

const RUN_STATUS_COLORS: Record<SyncRunStatus, string> = {
  preview: 'blue',
  running: 'processing',
  succeeded: 'success',
  partial: 'warning',
  failed: 'error',
  expired: 'default',
};

export const RunStatusTag = ({ status }: { status: SyncRunStatus }) => (
  <Tag color={RUN_STATUS_COLORS[status]}>{SYNC_RUN_STATUS_LABELS[status]}</Tag>
);

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
