import { AppstoreOutlined, DownOutlined, KeyOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Role } from '@portal/shared';
import { Avatar, Button, Dropdown } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { getRuntimeConfig } from '@/config/runtime-config';
import { useSiteInfo } from '@/api/get-site-info';
import { centralLoginUrl, logout } from '@/lib/auth';
import { useHeaderStore, useIsLoggedIn } from '@/stores/header-store';
import { useRegisterDialog } from '@/stores/register-dialog-store';
import { useSessionStore } from '@/stores/session-store';
import { isActive, navTarget } from './nav-link';
import { ScrollMenu } from './scroll-menu';

// Loaded when first opened: a visitor's first page does not download it.
const ChangePasswordDialog = lazy(() => import('@/components/change-password-dialog').then((m) => ({ default: m.ChangePasswordDialog })));

/** The logged-in user's corner: console entry, name and enterprise, user menu (spec section 2). */
function UserCorner() {
  const { name, enterpriseName } = useHeaderStore();
  const authorities = useSessionStore((s) => s.authorities);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [passwordLoaded, setPasswordLoaded] = useState(false);
  // Spec section 6: service-customer employees get no console button.
  const showConsole = !authorities.includes(Role.ServiceCustomerEmployee);

  return (
    <>
      {showConsole && (
        <Button type="primary" href={getRuntimeConfig().tenantManageUrl} className="public-header__console">
          控制台
        </Button>
      )}
      <Dropdown
        menu={{
          items: [
            ...(showConsole ? [{ key: 'console', icon: <AppstoreOutlined />, label: '进入控制台' }] : []),
            { key: 'password', icon: <KeyOutlined />, label: '修改密码' },
            { type: 'divider' },
            { key: 'logout', icon: <LogoutOutlined />, label: '退出登录', danger: true },
          ],
          onClick: ({ key }) => {
            if (key === 'logout') logout();
            if (key === 'console') window.location.assign(getRuntimeConfig().tenantManageUrl);
            if (key === 'password') {
              setPasswordLoaded(true);
              setPasswordOpen(true);
            }
          },
        }}
        placement="bottomRight"
        // Click, not hover: works the same with a mouse and on a phone.
        trigger={['click']}
      >
        <button type="button" className="public-header__user" aria-label={`${name}，${enterpriseName}`}>
          <Avatar size={32} icon={<UserOutlined />} className="public-header__avatar" />
          <span className="public-header__user-text">
            <strong>{name}</strong>
            {enterpriseName && <small>{enterpriseName}</small>}
          </span>
          <DownOutlined className="public-header__user-caret" />
        </button>
      </Dropdown>
      {passwordLoaded && (
        <Suspense fallback={null}>
          <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

/** Public header (spec section 2): logo back to home, scrolling menu, login entry or the user's corner. */
export function PublicHeader() {
  const { pathname, search } = useLocation();
  const { data: site } = useSiteInfo();
  const loggedIn = useIsLoggedIn();
  const showRegister = useRegisterDialog((s) => s.show);
  const config = getRuntimeConfig();
  // The portal's own origin (from the runtime configuration, so the server renders the same links).
  const origin = new URL(config.homeUrl).origin;

  return (
    <header className="public-header">
      <div className="public-header__inner">
        <Link to="/" className="public-header__logo" aria-label="返回首页">
          <img src="/favicon.svg" alt="" width={36} height={36} />
          <span className="public-header__brand">
            <strong>Engineering e+</strong>
            <small>工业互联网平台</small>
          </span>
        </Link>
        <ScrollMenu label="主导航" activeKey={site ? pathname : undefined}>
          {(site?.nav ?? []).map((item) => {
            const target = navTarget(item, config, origin);
            const active = isActive(target, pathname);
            const className = `public-header__item${active ? ' is-active' : ''}`;
            return target.kind === 'route' ? (
              <Link key={item.key} to={target.to} className={className} aria-current={active ? 'page' : undefined}>
                {item.title}
              </Link>
            ) : (
              <a key={item.key} href={target.href} className={className}>
                {item.title}
              </a>
            );
          })}
        </ScrollMenu>
        <div className="public-header__actions">
          {loggedIn ? (
            <UserCorner />
          ) : (
            <>
              <Button onClick={showRegister} className="public-header__register">
                注册
              </Button>
              <Button type="primary" href={centralLoginUrl(pathname + search)}>
                登录
              </Button>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
