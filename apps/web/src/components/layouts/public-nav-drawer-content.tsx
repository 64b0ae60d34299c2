import type { NavItem } from '@portal/shared';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useRuntimeConfig } from '@/config/runtime-config';
import { useSession } from '@/hooks/use-session';
import { centralLoginUrl, logout } from '@/lib/auth';
import { usePageUrl } from '@/lib/page-url';
import { useRegisterDialog } from '@/stores/register-dialog-store';
import { HeaderNavLinks } from './header-nav-links';
import { LayoutIcon } from './layout-icon';
import { showsConsoleEntry } from './nav-link';

/**
 * What the phone drawer lists: 登录 and 注册 for a visitor, or the user's name and
 * enterprise, 控制台 (spec section 6 role rule), 我的应用 and 退出登录; then every menu item.
 */
export function PublicNavDrawerContent({ nav, onClose }: { nav: readonly NavItem[]; onClose: () => void }) {
  const session = useSession();
  const page = usePageUrl();
  const config = useRuntimeConfig();
  const showRegister = useRegisterDialog((s) => s.show);
  const enterpriseName = session?.enterpriseName ?? '';
  const certified = enterpriseName !== '' && session?.certificationStatus === 'certified';
  return (
    <>
      {session ? (
        <section className="public-drawer__account" aria-label="当前用户">
          <div className="public-drawer__user">
            <span className="public-header__avatar" aria-hidden="true">
              <LayoutIcon name="user" />
            </span>
            <div className="public-drawer__user-text">
              <strong>{session.name}</strong>
              {enterpriseName && (
                <span className="public-drawer__enterprise">
                  {enterpriseName}
                  {certified && (
                    <span className="public-header__certified" title="企业已认证">
                      <LayoutIcon name="safety-certificate" />
                      已认证
                    </span>
                  )}
                </span>
              )}
            </div>
          </div>
          <div className="public-drawer__actions">
            {showsConsoleEntry(session.authorities) && (
              <a href={config.tenantManageUrl} className="portal-btn portal-btn--primary">
                控制台
              </a>
            )}
            <Link to={paths.myApps.getHref()} className="portal-btn" onClick={onClose}>
              我的应用
            </Link>
            <button type="button" className="portal-btn public-drawer__logout" onClick={logout}>
              退出登录
            </button>
          </div>
        </section>
      ) : (
        <section className="public-drawer__account public-drawer__actions" aria-label="登录与注册">
          <a href={centralLoginUrl(page, config)} className="portal-btn portal-btn--primary portal-btn--two-chars">
            登录
          </a>
          <button
            type="button"
            className="portal-btn portal-btn--two-chars"
            onClick={() => {
              onClose();
              showRegister();
            }}
          >
            注册
          </button>
        </section>
      )}
      <nav className="public-drawer__nav" aria-label="主导航">
        <HeaderNavLinks nav={nav} className="public-drawer__item" onNavigate={onClose} />
      </nav>
    </>
  );
}
