import { ClockCircleOutlined, CloseCircleOutlined, ExclamationCircleOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { CERTIFICATION_STATUS_LABELS, type CertificationStatus } from '@portal/shared';
import { Tag } from 'antd';
import type { ReactNode } from 'react';

export const CERTIFICATION_STATUS_COLORS: Record<CertificationStatus, string> = {
  none: 'default',
  pending: 'processing',
  certified: 'success',
  rejected: 'error',
};

export const CERTIFICATION_STATUS_ICONS: Record<CertificationStatus, ReactNode> = {
  none: <ExclamationCircleOutlined />,
  pending: <ClockCircleOutlined />,
  certified: <SafetyCertificateOutlined />,
  rejected: <CloseCircleOutlined />,
};

/** 未认证 (grey), 待审核 (blue), 已认证 (green), 已驳回 (red). */
export function CertificationStatusTag({ status }: { status: CertificationStatus }) {
  return (
    <Tag color={CERTIFICATION_STATUS_COLORS[status]} icon={CERTIFICATION_STATUS_ICONS[status]} className="enterprise-status-tag">
      {CERTIFICATION_STATUS_LABELS[status]}
    </Tag>
  );
}
