import { SyncRunStatusTag } from '@/components/sync-run-status-tag';
import type { SyncRunSummary } from '@portal/shared';
import { Typography } from 'antd';

/** 最近同步: the latest finished run's result and time, its error text on hover (the source's own words). */
export function LastSync({ run }: { run: SyncRunSummary | null }) {
  if (!run) return <Typography.Text type="secondary">从未同步</Typography.Text>;
  return (
    <span className="auth-sources__last-sync" title={run.error || undefined}>
      <SyncRunStatusTag status={run.status} />
      <Typography.Text type="secondary" className="auth-sources__meta">
        {run.finishedAt ?? run.createdAt}
      </Typography.Text>
    </span>
  );
}
