import {
  ClusterOutlined,
  DingtalkOutlined,
  SafetyCertificateOutlined,
  SendOutlined,
  WechatWorkOutlined,
  AuditOutlined,
} from '@ant-design/icons';
import { AUTH_SOURCE_TYPE_LABELS, type AuthSourceType } from '@portal/shared';
import { Tag } from 'antd';
import type { ReactNode } from 'react';

/** Each kind of source with its platform's mark (飞书 has none in the icon set: its paper plane stands in). */
export const SOURCE_TYPE_ICONS: Record<AuthSourceType, ReactNode> = {
  ldap: <ClusterOutlined />,
  wecom: <WechatWorkOutlined />,
  dingtalk: <DingtalkOutlined />,
  feishu: <SendOutlined />,
  oidc: <SafetyCertificateOutlined />,
  saml: <AuditOutlined />,
};

const SOURCE_TYPE_COLORS: Record<AuthSourceType, string> = {
  ldap: 'purple',
  wecom: 'green',
  dingtalk: 'blue',
  feishu: 'cyan',
  oidc: 'geekblue',
  saml: 'gold',
};

export function SourceTypeTag({ type }: { type: AuthSourceType }) {
  return (
    <Tag color={SOURCE_TYPE_COLORS[type]} icon={SOURCE_TYPE_ICONS[type]} className="auth-sources__type">
      {AUTH_SOURCE_TYPE_LABELS[type]}
    </Tag>
  );
}
