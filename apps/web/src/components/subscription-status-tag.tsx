import { APP_SUBSCRIPTION_STATUS_LABELS, type AppSubscriptionStatus } from '@portal/shared';
import { Tag } from 'antd';

const SUBSCRIPTION_STATUS_COLORS: Record<AppSubscriptionStatus, string> = {
  pending: 'processing',
  approved: 'success',
  rejected: 'error',
  revoked: 'default',
};

/** A subscription's state (the application detail, 应用订阅), coloured alike everywhere. */
export const SubscriptionStatusTag = ({ status }: { status: AppSubscriptionStatus }) => (
  <Tag color={SUBSCRIPTION_STATUS_COLORS[status]}>{APP_SUBSCRIPTION_STATUS_LABELS[status]}</Tag>
);
