import {
  ApiOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BarChartOutlined,
  ControlOutlined,
  DashboardOutlined,
  FileSearchOutlined,
  FileOutlined,
  ProjectOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  SyncOutlined,
  TeamOutlined,
  UserOutlined,
  UserSwitchOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

/** Spec section 2, "Admin shell": the console's menu icon set, by the names the server's menus use. */
const ICONS: Record<string, ReactNode> = {
  'security-setting': <SafetyCertificateOutlined />,
  sync: <SyncOutlined />,
  statistics: <BarChartOutlined />,
  setup: <SettingOutlined />,
  role: <UserSwitchOutlined />,
  'account-manage': <UserOutlined />,
  'account-group': <TeamOutlined />,
  'application-list': <AppstoreOutlined />,
  dashboard: <DashboardOutlined />,
  kanban: <ProjectOutlined />,
  manage: <ControlOutlined />,
  'authentication-source': <ApiOutlined />,
  'audit-operation-log': <FileSearchOutlined />,
  'app-authorization': <AuditOutlined />,
};

/** The icon of a menu item; an unknown name gets a neutral page icon rather than nothing. */
export function menuIcon(name: string | undefined): ReactNode {
  return (name && ICONS[name]) ?? <FileOutlined />;
}

export const MENU_ICON_NAMES = Object.keys(ICONS);
