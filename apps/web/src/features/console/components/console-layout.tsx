import { ConfigProvider, Spin } from 'antd';
import { useEffect, useMemo } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { pageTitle } from '@/config/paths';
import { tokenStore } from '@/lib/token';
import type { ConsoleRoute } from '../console-route';
import { useConsoleGuard } from '../hooks/use-console-guard';
import { useResponsiveSidebar } from '../hooks/use-responsive-sidebar';
import { findPage, flattenRoutes, matchRouteChain, rootTarget } from '../lib/route-tree';
import { CONSOLE_ROOT, REDIRECT_PREFIX, consoleSettings } from '../settings';
import { useAppStore } from '../stores/app-store';
import { useTagsViewStore } from '../stores/tags-view-store';
import { AppMain } from './app-main';
import { CertificationBanner } from './certification-banner';
import { Navbar } from './navbar';
import { Sidebar } from './sidebar';
import { TagsView } from './tags-view';
import './console-layout.css';

// The collapsed sidebar is 54 px (vue-element-admin's), not antd's 80 px.
const menuTheme = { components: { Menu: { collapsedWidth: 54, darkItemBg: 'transparent', darkSubMenuItemBg: 'rgba(0, 0, 0, 0.18)' } } };

/** The tenant console: the route guard first, then the shell around the permitted pages. */
export function ConsoleLayout({ routes }: { routes: readonly ConsoleRoute[] }) {
  const guard = useConsoleGuard(routes);
  if (guard.status !== 'ready') {
    return (
      <div className="console-loading" aria-busy="true">
        <Spin size="large" tip={guard.status === 'login' ? '正在前往登录…' : '加载中…'}>
          <div className="console-loading__box" />
        </Spin>
      </div>
    );
  }
  return <ConsoleShell all={routes} permitted={guard.routes} />;
}

function ConsoleShell({ all, permitted }: { all: readonly ConsoleRoute[]; permitted: ConsoleRoute[] }) {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const { sidebar, device, closeSidebar } = useAppStore();
  const { visitedViews, cachedViews, addView } = useTagsViewStore();
  useResponsiveSidebar();

  const redirecting = pathname.startsWith(`${REDIRECT_PREFIX}/`);
  const pages = useMemo(() => flattenRoutes(permitted).filter((r) => r.component), [permitted]);
  const current = redirecting ? undefined : findPage(permitted, pathname);
  const chain = useMemo(() => (current ? matchRouteChain(permitted, current.path) : []), [permitted, current]);

  // Spec section 2: /redirect{fullPath} replaces the route with the path, keeping the query.
  useEffect(() => {
    if (redirecting) void navigate(pathname.slice(REDIRECT_PREFIX.length) + search, { replace: true });
  }, [redirecting, pathname, search, navigate]);

  // Affix tabs first, then every visited page once (spec section 4).
  useEffect(() => {
    for (const page of pages)
      if (page.affix) addView({ path: page.path, fullPath: page.path, title: page.title, name: page.name, affix: true });
  }, [pages, addView]);
  useEffect(() => {
    if (!current) return;
    addView({
      path: current.path,
      fullPath: current.path + search,
      title: current.title,
      name: current.name,
      affix: current.affix,
      noCache: current.noCache,
    });
  }, [current, search, addView]);

  // Spec section 4: on a phone the open sidebar closes at every route change.
  useEffect(() => {
    if (useAppStore.getState().device === 'mobile' && useAppStore.getState().sidebar.opened) closeSidebar(false);
  }, [pathname, closeSidebar]);

  // Spec section 1: the page title is the product title plus the route title.
  useEffect(() => {
    if (current) document.title = pageTitle(current.title);
  }, [current]);

  if (!redirecting && !current) {
    if (pathname.replace(/\/+$/, '') === CONSOLE_ROOT) return <Navigate to={rootTarget(permitted, tokenStore.get() !== null)} replace />;
    // Typing the address of a page the account may not open never shows it.
    return <Navigate to={findPage(all, pathname) ? '/403' : '/404'} replace />;
  }

  // Tabs of pages this account can open (a previous account's tabs in this browser tab are ignored).
  const pagePaths = new Set(pages.map((p) => p.path));
  const views = visitedViews.filter((v) => pagePaths.has(v.path));
  const mobile = device === 'mobile';
  const classes = [
    'console',
    sidebar.opened ? 'is-open' : 'is-collapsed',
    mobile ? 'is-mobile' : 'is-desktop',
    sidebar.withoutAnimation ? 'without-animation' : '',
  ].join(' ');

  return (
    <ConfigProvider theme={menuTheme}>
      <div className={classes}>
        {mobile && sidebar.opened && <div className="console__overlay" aria-hidden="true" onClick={() => closeSidebar(false)} />}
        <aside className="console__sidebar" aria-label="侧边栏">
          <Sidebar routes={permitted} activeChain={chain.map((r) => r.path)} collapsed={!sidebar.opened && !mobile} />
        </aside>
        <div className="console__main">
          <header className={`console__header${consoleSettings.fixedHeader ? ' is-fixed' : ''}`}>
            <Navbar chain={chain} />
            {consoleSettings.tagsView && <TagsView views={views} activePath={current?.path} />}
          </header>
          <CertificationBanner pathname={pathname} />
          <AppMain pages={pages} current={current} cachedNames={cachedViews} />
        </div>
      </div>
    </ConfigProvider>
  );
}
