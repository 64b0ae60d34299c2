import { ConfigProvider } from 'antd';
import { type ReactNode, useEffect, useEffectEvent } from 'react';
import { Outlet, useLocation, useNavigationType, useSearchParams } from 'react-router';
import { useMenus } from '@/api/get-menus';
import { publicTheme } from '@/config/theme';
import { silentSingleSignOn } from '@/lib/silent-sso';
import { useRegisterDialog } from '@/stores/register-dialog-store';
import { PublicFooter } from './public-footer';
import { PublicHeader } from './public-header';
import './public-layout.css';

/**
 * A page reached by a link (the header's drawer, the footer) starts at its top; a change of the query
 * on the same page (a list's filters) keeps the position, and back and forward leave it to the browser.
 */
function useNewPageAtTop() {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();
  const onNewPage = useEffectEvent(() => {
    if (navigationType !== 'POP' && !hash) window.scrollTo(0, 0);
  });
  useEffect(() => {
    onNewPage();
  }, [pathname]);
}

/**
 * Layout of the public site: header, page, footer. It asks once who the visitor is (the menus call);
 * a visitor gets one silent single sign-on check, and `?register=1` opens the registration dialog.
 * `dialogs` are rendered by the app (features the shared layout must not import). The header, page
 * and footer take antd's styles from the build-time stylesheet (`publicTheme`); the dialogs, which
 * only the browser shows, generate theirs.
 */
export function PublicLayout({ dialogs }: { dialogs?: ReactNode }) {
  const { data: entry, isSuccess, refetch } = useMenus();
  const [params] = useSearchParams();
  const showRegister = useRegisterDialog((s) => s.show);
  const wantsRegister = params.get('register') === '1';
  useNewPageAtTop();

  useEffect(() => {
    if (!isSuccess || entry) return;
    let cancelled = false;
    void silentSingleSignOn().then((loggedIn) => {
      if (loggedIn && !cancelled) void refetch();
    });
    return () => {
      cancelled = true;
    };
  }, [isSuccess, entry, refetch]);

  useEffect(() => {
    if (wantsRegister) showRegister();
  }, [wantsRegister, showRegister]);

  return (
    <div className="public-layout">
      <ConfigProvider theme={publicTheme}>
        <PublicHeader />
        <main className="public-layout__main">
          <Outlet />
        </main>
        <PublicFooter />
      </ConfigProvider>
      {dialogs}
    </div>
  );
}
