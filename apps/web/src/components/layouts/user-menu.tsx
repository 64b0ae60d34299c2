import { AppstoreOutlined, BlockOutlined, KeyOutlined, LogoutOutlined } from '@ant-design/icons';
import Dropdown from 'antd/es/dropdown';
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { getRuntimeConfig } from '@/config/runtime-config';
import { logout } from '@/lib/auth';

/**
 * The user menu of the header (spec section 2), around the trigger the header renders. Loaded only
 * once a session exists: a visitor's page does not download the dropdown.
 */
export default function UserMenu({
  children,
  open,
  onOpenChange,
  showConsole,
  onChangePassword,
}: {
  children: ReactElement;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  showConsole: boolean;
  onChangePassword: () => void;
}) {
  return (
    <Dropdown
      open={open}
      onOpenChange={onOpenChange}
      menu={{
        items: [
          ...(showConsole ? [{ key: 'console', icon: <AppstoreOutlined />, label: '进入控制台' }] : []),
          // 我的应用: the applications this user may open through single sign-on.
          { key: 'my-apps', icon: <BlockOutlined />, label: <Link to={paths.myApps.getHref()}>我的应用</Link> },
          { key: 'password', icon: <KeyOutlined />, label: '修改密码' },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined />, label: '退出登录', danger: true },
        ],
        onClick: ({ key }) => {
          onOpenChange(false);
          if (key === 'logout') logout();
          if (key === 'console') window.location.assign(getRuntimeConfig().tenantManageUrl);
          if (key === 'password') onChangePassword();
        },
      }}
      placement="bottomRight"
      // Click, not hover: works the same with a mouse and on a phone.
      trigger={['click']}
    >
      {children}
    </Dropdown>
  );
}
