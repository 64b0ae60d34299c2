import { SYNC_RUN_STATUS_LABELS, type SyncRunStatus } from '@portal/shared';
import { Tag } from 'antd';

const RUN_STATUS_COLORS: Record<SyncRunStatus, string> = {
  preview: 'blue',
  running: 'processing',
  succeeded: 'success',
  partial: 'warning',
  failed: 'error',
  expired: 'default',
};

/** A sync run's state (同步日志, 认证源's 最近同步, 租户管理's 详情), coloured alike everywhere. */
export const SyncRunStatusTag = ({ status }: { status: SyncRunStatus }) => (
  <Tag color={RUN_STATUS_COLORS[status]}>{SYNC_RUN_STATUS_LABELS[status]}</Tag>
);
