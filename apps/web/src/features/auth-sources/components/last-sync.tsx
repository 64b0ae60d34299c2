import { SYNC_RUN_STATUS_LABELS, type SyncRunStatus, type SyncRunSummary } from '@portal/shared';
import { Tag, Typography } from 'antd';

const RUN_STATUS_COLORS: Record<SyncRunStatus, string> = {
  preview: 'default',
  running: 'processing',
  succeeded: 'success',
  partial: 'warning',
  failed: 'error',
  expired: 'default',
};

/** 最近同步: the latest finished run's result and time, its error text on hover (the source's own words). */
export function LastSync({ run }: { run: SyncRunSummary | null }) {
  if (!run) return <Typography.Text type="secondary">从未同步</Typography.Text>;
  return (
    <span className="auth-sources__last-sync" title={run.error || undefined}>
      <Tag color={RUN_STATUS_COLORS[run.status]}>{SYNC_RUN_STATUS_LABELS[run.status]}</Tag>
      <Typography.Text type="secondary" className="auth-sources__meta">
        {run.finishedAt ?? run.createdAt}
      </Typography.Text>
    </span>
  );
}
