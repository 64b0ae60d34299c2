import { BlockOutlined, DownOutlined, HomeOutlined, IdcardOutlined, KeyOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Dropdown } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { paths } from '@/config/paths';
import { portalUrl, useRuntimeConfig } from '@/config/runtime-config';
import { logout } from '@/lib/auth';
import { useSession } from '@/hooks/use-session';
import type { ConsoleRoute } from '../console-route';
import { useAppStore } from '../stores/app-store';
import { ConsoleBreadcrumb } from './console-breadcrumb';
import { FullscreenButton } from './fullscreen-button';
import { Hamburger } from './hamburger';
import { NotificationBell } from './notification-bell';
import { PersonalInfoDialog } from './personal-info-dialog';

const ChangePasswordDialog = lazy(() => import('@/components/change-password-dialog').then((m) => ({ default: m.ChangePasswordDialog })));

/**
 * Spec section 2, navbar: hamburger, breadcrumb, enterprise name, fullscreen (not on a phone), the
 * message bell, home, logout, and the user menu with 个人信息, 修改密码 and 退出登录.
 */
export function Navbar({ chain }: { chain: readonly ConsoleRoute[] }) {
  const { sidebar, device, toggleSidebar } = useAppStore();
  const config = useRuntimeConfig();
  const session = useSession();
  const name = session?.name ?? '';
  const enterpriseName = session?.enterpriseName ?? '';
  const [dialog, setDialog] = useState<'info' | 'password' | null>(null);
  const [passwordLoaded, setPasswordLoaded] = useState(false);

  return (
    <div className="console-navbar">
      <Hamburger opened={sidebar.opened} onToggle={toggleSidebar} />
      <ConsoleBreadcrumb chain={chain} />
      <div className="console-navbar__right">
        {enterpriseName && (
          <span className="console-navbar__enterprise" title={enterpriseName}>
            {enterpriseName}
          </span>
        )}
        {device !== 'mobile' && <FullscreenButton />}
        <NotificationBell />
        <a className="console-navbar__icon" href={config.homeUrl} aria-label="门户首页" title="门户首页">
          <HomeOutlined />
        </a>
        <button type="button" className="console-navbar__icon" aria-label="退出登录" title="退出登录" onClick={logout}>
          <LogoutOutlined />
        </button>
        <Dropdown
          trigger={['click']}
          placement="bottomRight"
          menu={{
            items: [
              ...(enterpriseName
                ? [
                    { key: 'enterprise', label: enterpriseName, disabled: true, className: 'console-navbar__menu-enterprise' },
                    { type: 'divider' as const },
                  ]
                : []),
              { key: 'info', icon: <IdcardOutlined />, label: '个人信息' },
              { key: 'password', icon: <KeyOutlined />, label: '修改密码' },
              // 我的应用 is a page of the public site.
              { key: 'my-apps', icon: <BlockOutlined />, label: <a href={portalUrl(config, paths.myApps.getHref())}>我的应用</a> },
              { type: 'divider' },
              { key: 'logout', icon: <LogoutOutlined />, label: '退出登录', danger: true },
            ],
            onClick: ({ key }) => {
              if (key === 'logout') logout();
              if (key === 'info') setDialog('info');
              if (key === 'password') {
                setPasswordLoaded(true);
                setDialog('password');
              }
            },
          }}
        >
          <button type="button" className="console-navbar__user" aria-label={`用户菜单：${name}`}>
            <Avatar size={30} icon={<UserOutlined />} className="console-navbar__avatar" />
            <span className="console-navbar__name">{name}</span>
            <DownOutlined className="console-navbar__caret" />
          </button>
        </Dropdown>
      </div>
      <PersonalInfoDialog open={dialog === 'info'} onClose={() => setDialog(null)} />
      {passwordLoaded && (
        <Suspense fallback={null}>
          <ChangePasswordDialog open={dialog === 'password'} onClose={() => setDialog(null)} />
        </Suspense>
      )}
    </div>
  );
}
