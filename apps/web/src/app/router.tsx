import { type HydrationState, Navigate, type RouteObject, createBrowserRouter, matchRoutes } from 'react-router';
import { PublicLayout } from '@/components/layouts/public-layout';
import { paths } from '@/config/paths';
import { RedirectPage } from '@/features/errors/redirect-page';
import { PublicDialogs } from './public-dialogs';
import { RootLayout } from './root-layout';

const newsList = () =>
  import('@/features/articles/components/article-list-page').then((m) => ({ Component: () => <m.ArticleListPage channel="news" /> }));
const knowledgeList = () =>
  import('@/features/articles/components/article-list-page').then((m) => ({ Component: () => <m.ArticleListPage channel="knowledge" /> }));
const newsDetail = () =>
  import('@/features/articles/components/article-detail-page').then((m) => ({ Component: () => <m.ArticleDetailPage channel="news" /> }));
const knowledgeDetail = () =>
  import('@/features/articles/components/article-detail-page').then((m) => ({
    Component: () => <m.ArticleDetailPage channel="knowledge" />,
  }));
const agreement = () => import('@/features/agreements/agreement-page').then((m) => ({ Component: m.AgreementPage }));
const placeholder = () => import('@/features/placeholder/page-placeholder').then((m) => ({ Component: m.PagePlaceholder }));

/** Public pages; pages of later features load the placeholder until they land. */
const publicPages: RouteObject[] = [
  {
    index: true,
    handle: { title: '首页' },
    lazy: () => import('@/features/home/components/home-page').then((m) => ({ Component: m.HomePage })),
  },
  {
    path: paths.mark.path,
    handle: { title: '标识查询' },
    lazy: () => import('@/features/mark/components/mark-page').then((m) => ({ Component: m.MarkPage })),
  },
  {
    path: paths.settled.path,
    handle: { title: '入驻指南' },
    lazy: () => import('@/features/settled/settled-page').then((m) => ({ Component: m.SettledPage })),
  },
  { path: paths.news.path, handle: { title: '行业资讯' }, lazy: newsList },
  { path: paths.newsDetail.path, handle: { title: '资讯详情' }, lazy: newsDetail },
  { path: paths.knowledge.path, handle: { title: '行业知识' }, lazy: knowledgeList },
  { path: paths.knowledgeDetail.path, handle: { title: '知识详情' }, lazy: knowledgeDetail },
  {
    path: paths.remote.path,
    handle: { title: '远程运维' },
    lazy: () => import('@/components/static-page').then((m) => ({ Component: () => <m.StaticPage path="/remote" /> })),
  },
  { path: paths.privacy.path, handle: { title: '隐私协议' }, lazy: agreement },
  { path: paths.service.path, handle: { title: '服务协议' }, lazy: agreement },
  {
    path: paths.product.path,
    handle: { title: '应用推荐' },
    lazy: () => import('@/features/applications/components/application-pages').then((m) => ({ Component: m.ApplicationListPage })),
  },
  {
    path: paths.productDetail.path,
    handle: { title: '应用详情' },
    lazy: () => import('@/features/applications/components/application-pages').then((m) => ({ Component: m.ApplicationDetailPage })),
  },
  { path: paths.openService.path, handle: { title: '开放服务' }, lazy: placeholder },
];

/**
 * The tenant console (tenantManageUrl): one layout route that stays mounted for all its pages, so the
 * pages of open tabs stay alive; its refresh route `/redirect/console/…` sits inside it for the same
 * reason. The console titles its own pages.
 */
const consoleLayout: RouteObject = {
  lazy: () => import('./console-app').then((m) => ({ Component: m.ConsoleApp })),
  handle: { title: '控制台', titleFromPage: true },
  // The layout renders the pages itself (kept alive per tab): the child routes only match paths.
  children: [
    { path: paths.console.path, element: null },
    { path: paths.consoleRedirect.path, element: null },
  ],
};

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    hydrateFallbackElement: <div className="app-loading" aria-busy="true" />,
    children: [
      { element: <PublicLayout dialogs={<PublicDialogs />} />, children: publicPages },
      consoleLayout,
      {
        path: paths.notFound.path,
        handle: { title: '页面不存在' },
        lazy: () => import('@/features/errors/not-found-page').then((m) => ({ Component: m.NotFoundPage })),
      },
      {
        path: paths.forbidden.path,
        handle: { title: '无权限' },
        lazy: () => import('@/features/errors/forbidden-page').then((m) => ({ Component: m.ForbiddenPage })),
      },
      { path: paths.blank.path, handle: { title: '' }, element: <div className="blank-page" /> },
      // Spec section 2: replaces the route with the given path and keeps the query.
      { path: paths.redirect.path, element: <RedirectPage /> },
      { path: '*', element: <Navigate to={paths.notFound.getHref()} replace /> },
    ],
  },
];

/**
 * The browser router. A server-rendered page first loads the code of its matched lazy routes, so the
 * first client render matches the HTML it hydrates (React Router's advice for lazy routes with SSR).
 */
export async function createRouter(hydrationData?: HydrationState) {
  if (hydrationData) {
    const lazyMatches = (matchRoutes(routes, window.location) ?? []).filter((m) => m.route.lazy);
    await Promise.all(
      lazyMatches.map(async (m) => {
        const lazy = m.route.lazy;
        if (typeof lazy !== 'function') return;
        Object.assign(m.route, { ...(await lazy()), lazy: undefined });
      }),
    );
  }
  return createBrowserRouter(routes, { basename: '/', hydrationData });
}
