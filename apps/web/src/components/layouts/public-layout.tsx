import { type ReactNode, Suspense, useEffect, useEffectEvent } from 'react';
import { Outlet, useLocation, useNavigationType, useSearchParams } from 'react-router';
import { useMenus } from '@/api/get-menus';
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
 * Who the visitor is: the menus call once, then one silent single sign-on check for a visitor. It
 * renders nothing: the menus answer re-renders this, not the layout above the page, which would make
 * React finish hydrating the page at once, in one long task, instead of in slices.
 */
function SessionCheck() {
  const { data: entry, isSuccess, refetch } = useMenus();
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
  return null;
}

/**
 * Layout of the public site: header, page, footer. It asks once who the visitor is (`SessionCheck`),
 * and `?register=1` opens the registration dialog. `dialogs` are rendered by the app (features the
 * shared layout must not import). The header and footer render no antd component; the pages that do
 * bring antd's provider (`PublicAntdOutlet`).
 */
export function PublicLayout({ dialogs }: { dialogs?: ReactNode }) {
  const [params] = useSearchParams();
  const showRegister = useRegisterDialog((s) => s.show);
  const wantsRegister = params.get('register') === '1';
  useNewPageAtTop();

  useEffect(() => {
    if (wantsRegister) showRegister();
  }, [wantsRegister, showRegister]);

  return (
    <div className="public-layout">
      <SessionCheck />
      <PublicHeader />
      {/* Suspense boundaries split hydration: the header first, then the page and the footer, each
          committed in a task of its own (React's selective hydration) instead of one long task. */}
      <main className="public-layout__main">
        <Suspense>
          <Outlet />
        </Suspense>
      </main>
      <Suspense>
        <PublicFooter />
      </Suspense>
      {dialogs}
    </div>
  );
}
