import { Suspense, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useRuntimeConfig } from '@/config/runtime-config';
import { useSiteInfo } from '@/api/get-site-info';
import { useIsLoggedIn, useSession } from '@/hooks/use-session';
import { centralLoginUrl } from '@/lib/auth';
import { usePageUrl } from '@/lib/page-url';
import { useRegisterDialog } from '@/stores/register-dialog-store';
import { lazyWithAntd } from '@/components/lazy-with-antd';
import { LayoutIcon } from './layout-icon';
import { HeaderNavLinks } from './header-nav-links';
import { showsConsoleEntry } from './nav-link';
import { ScrollMenu } from './scroll-menu';
import './portal-button.css';
import './public-header-user.css';

// Loaded when first opened: a visitor's first page does not download it.
const ChangePasswordDialog = lazyWithAntd(() => import('@/components/change-password-dialog').then((m) => m.ChangePasswordDialog));
// The dropdown loads once a session exists (the header shows the user's corner).
const UserMenu = lazyWithAntd(() => import('./user-menu').then((m) => m.default));

/** The logged-in user's corner: console entry, name and enterprise, user menu (spec section 2). */
function UserCorner() {
  const session = useSession();
  const name = session?.name ?? '';
  const enterpriseName = session?.enterpriseName ?? '';
  // 企业认证: a certified enterprise's name carries 已认证.
  const certified = enterpriseName !== '' && session?.certificationStatus === 'certified';
  const authorities = session?.authorities ?? [];
  const [menuOpen, setMenuOpen] = useState(false);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [passwordLoaded, setPasswordLoaded] = useState(false);
  // Spec section 6: service-customer employees get no console button.
  const showConsole = showsConsoleEntry(authorities);
  const config = useRuntimeConfig();

  // Until the menu's code has loaded, a click on the trigger opens it as soon as it has.
  const trigger = (onClick?: () => void) => (
    <button
      type="button"
      className="public-header__user"
      aria-label={`${name}，${enterpriseName}${certified ? '（已认证）' : ''}`}
      onClick={onClick}
    >
      <span className="public-header__avatar" aria-hidden="true">
        <LayoutIcon name="user" />
      </span>
      <span className="public-header__user-text">
        <strong>{name}</strong>
        {enterpriseName && (
          <small className="public-header__enterprise">
            <span className="public-header__enterprise-name" title={enterpriseName}>
              {enterpriseName}
            </span>
            {certified && (
              <span className="public-header__certified" title="企业已认证">
                <LayoutIcon name="safety-certificate" />
                已认证
              </span>
            )}
          </small>
        )}
      </span>
      <LayoutIcon name="down" className="public-header__user-caret" />
    </button>
  );

  // Only the browser shows a user's corner: its antd parts (menu, password dialog) generate their styles.
  return (
    <>
      {showConsole && (
        <a href={config.tenantManageUrl} className="portal-btn portal-btn--primary public-header__console">
          控制台
        </a>
      )}
      <Suspense fallback={trigger(() => setMenuOpen(true))}>
        <UserMenu
          open={menuOpen}
          onOpenChange={setMenuOpen}
          showConsole={showConsole}
          onChangePassword={() => {
            setPasswordLoaded(true);
            setPasswordOpen(true);
          }}
        >
          {trigger()}
        </UserMenu>
      </Suspense>
      {passwordLoaded && (
        <Suspense fallback={null}>
          <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

// The phone drawer's code loads when its button is first used (or touched, so it is usually there by the tap).
const PublicNavDrawer = lazyWithAntd(() => import('./public-nav-drawer').then((m) => m.default));

/**
 * Public header (spec section 2): logo back to home, scrolling menu, login entry or the user's corner.
 * Below 768 px the menu gives way to a button opening a drawer with every item and the
 * account's entries; both are in the markup and CSS shows one, so the server renders the same header.
 */
export function PublicHeader() {
  const { pathname } = useLocation();
  // The login comes back to this page: the same link on the server and in the browser.
  const page = usePageUrl();
  const { data: site } = useSiteInfo();
  const loggedIn = useIsLoggedIn();
  const showRegister = useRegisterDialog((s) => s.show);
  const config = useRuntimeConfig();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [drawerLoaded, setDrawerLoaded] = useState(false);

  // A page change closes the drawer (its links also close it; this covers back and forward).
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setDrawerOpen(false);
  }

  return (
    <header className="public-header">
      <div className="public-header__inner">
        {/* Named by its visible text (WCAG 2.5.3): what a voice user reads out is what selects it. */}
        <Link to="/" className="public-header__logo">
          <img src="/favicon.svg" alt="" width={36} height={36} />
          <span className="public-header__brand">
            <strong>Engineering e+</strong>
            <small>工业互联网平台</small>
          </span>
        </Link>
        <ScrollMenu label="主导航" activeKey={site ? pathname : undefined}>
          <HeaderNavLinks nav={site?.nav ?? []} className="public-header__item" />
        </ScrollMenu>
        <div className="public-header__actions">
          {loggedIn ? (
            <UserCorner />
          ) : (
            <>
              <button type="button" onClick={showRegister} className="portal-btn portal-btn--two-chars public-header__register">
                注册
              </button>
              <a href={centralLoginUrl(page, config)} className="portal-btn portal-btn--primary portal-btn--two-chars">
                登录
              </a>
            </>
          )}
          <button
            type="button"
            className="public-header__menu-button"
            aria-label="打开菜单"
            aria-haspopup="dialog"
            aria-expanded={drawerOpen}
            onPointerEnter={() => void PublicNavDrawer.preload()}
            onTouchStart={() => void PublicNavDrawer.preload()}
            onClick={() => {
              setDrawerLoaded(true);
              setDrawerOpen(true);
            }}
          >
            <LayoutIcon name="menu" />
          </button>
        </div>
      </div>
      {drawerLoaded && (
        <Suspense fallback={null}>
          <PublicNavDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} nav={site?.nav ?? []} />
        </Suspense>
      )}
    </header>
  );
}
