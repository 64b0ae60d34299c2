import type { QueryClient } from '@tanstack/react-query';
import {
  type HydrationState,
  type LoaderFunction,
  type RouteObject,
  type ShouldRevalidateFunction,
  createBrowserRouter,
  matchRoutes,
} from 'react-router';
import { getSiteInfoQueryOptions } from '@/api/get-site-info';
import { loadStaticPage, staticPageHead } from '@/api/get-static-page';
import { PublicLayout } from '@/components/layouts/public-layout';
import { PRODUCT_TITLE, paths } from '@/config/paths';
import { loadApplicationDetail } from '@/features/applications/api/applications';
import { applicationHead, loadApplicationList, productHead } from '@/features/applications/lib/product-head';
import { type Channel, loadArticleDetail, loadArticleList } from '@/features/articles/api/articles';
import { ARTICLE_LIST_SEARCH_PARAMS } from '@/features/articles/lib/article-format';
import { articleHead } from '@/features/articles/lib/article-head';
import { RedirectPage } from '@/features/errors/redirect-page';
import { loadHome } from '@/features/home/api/home';
import { loadMarkLookup, markHead } from '@/features/mark/lib/mark-head';
import type { PageHeadContext } from '@/lib/page-head';
import { queryClientContext, routerContext } from '@/lib/query-client';
import { PublicDialogs } from './public-dialogs';
import { RootLayout } from './root-layout';

/**
 * A route's data: the loader fills the query cache (in the browser, or per page on the server) and
 * the page reads it with the same queries. A failed call is the page's to show (its query is in
 * error, the API client toasts), not a routing error.
 */
function loads(load: (queryClient: QueryClient, search: URLSearchParams) => Promise<unknown>): LoaderFunction {
  return async ({ context, request }) => {
    await load(context.get(queryClientContext), new URL(request.url).searchParams).catch(() => undefined);
    return null;
  };
}

/** A loader whose code loads with it (with the page's own code), not with the app's first page. */
const loadedWith =
  (load: () => Promise<(queryClient: QueryClient, search: URLSearchParams) => Promise<unknown>>) =>
  async (queryClient: QueryClient, search: URLSearchParams) =>
    (await load())(queryClient, search);

/**
 * Data the server's render fetches before it renders; in the browser the page fetches it itself, as
 * it always did (an article read counts one view, a search follows the page's own rules).
 */
function loadsOnServer(load: (queryClient: QueryClient, search: URLSearchParams) => Promise<unknown>): LoaderFunction {
  return loads(import.meta.env.SSR ? load : async () => undefined);
}

/** A list's filters change its URL's query; its own queries follow them, so the loader runs again only on arrival. */
const onArrival: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  currentUrl.pathname !== nextUrl.pathname && defaultShouldRevalidate;

const articleList = (channel: Channel) => loads((queryClient, search) => loadArticleList(queryClient, channel, search));

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

/**
 * Public pages. A page's `handle` (`RouteHandle`) declares the query parameters it reads, whether the
 * server renders it (the pages a visitor lands on) and what its head tells search engines and link
 * previews. Article, application and open-service tool details are rendered by the server from the
 * body their API stored sanitised, and cleaned again in the browser.
 */
const publicPages: RouteObject[] = [
  {
    path: paths.remote.path,
    handle: { title: '远程运维', ssr: true, head: staticPageHead('/remote') },
    loader: loads(loadStaticPage('/remote')),
    lazy: () => import('@/components/static-page').then((m) => ({ Component: () => <m.StaticPage path="/remote" /> })),
  },
  {
    path: paths.privacy.path,
    handle: { title: '隐私协议', ssr: true, head: staticPageHead('/privacy') },
    loader: loads(loadStaticPage('/privacy')),
    lazy: agreement,
  },
  {
    path: paths.service.path,
    handle: { title: '服务协议', ssr: true, head: staticPageHead('/service') },
    loader: loads(loadStaticPage('/service')),
    lazy: agreement,
  },
  {
    path: paths.productDetail.path,
    handle: { title: '应用详情', ssr: true, searchParams: ['uuid'], head: applicationHead },
    loader: loads(loadApplicationDetail),
    lazy: () => import('@/features/applications/components/application-pages').then((m) => ({ Component: m.ApplicationDetailPage })),
  },
  {
    path: paths.appDownload.path,
    handle: { title: 'App 下载', ssr: true },
    lazy: () => import('@/features/app-download/components/app-download-page').then((m) => ({ Component: m.AppDownloadPage })),
  },
  // The server shows it, in the site's frame, for a page address it cannot decode (HTTP 400).
  {
    path: paths.badRequest.path,
    handle: { title: '请求地址有误', ssr: true, head: () => ({ badRequest: true }) },
    lazy: () => import('@/features/errors/bad-request-page').then((m) => ({ Component: m.BadRequestPage })),
  },
  // A user's own list: rendered in the browser only, never by the server.
  {
    path: paths.myApps.path,
    handle: { title: '我的应用' },
    lazy: () => import('@/features/my-apps/components/my-apps-page').then((m) => ({ Component: m.MyAppsPage })),
  },
];

/**
 * Public pages whose first view renders no antd component (antd's markup from `components/antd-markup`
 * instead): their first visit loads no antd and no antd provider. What they open later (a dialog, an
 * administrator's tools) brings antd with it (`lazyWithAntd`).
 */
const lightPublicPages: RouteObject[] = [
  {
    path: paths.settled.path,
    handle: {
      title: '入驻指南',
      ssr: true,
      head: () => ({
        description: '两步完成入驻：手机号注册并登录平台，提交营业执照完成企业认证，审核通过后即可使用租户管理、应用订阅与标识注册等服务。',
      }),
    },
    lazy: () => import('@/features/settled/settled-page').then((m) => ({ Component: m.SettledPage })),
  },
  {
    path: paths.news.path,
    handle: { title: '行业资讯', ssr: true, searchParams: ARTICLE_LIST_SEARCH_PARAMS },
    loader: articleList('news'),
    shouldRevalidate: onArrival,
    lazy: newsList,
  },
  {
    path: paths.knowledge.path,
    handle: { title: '行业知识', ssr: true, searchParams: ARTICLE_LIST_SEARCH_PARAMS },
    loader: articleList('knowledge'),
    shouldRevalidate: onArrival,
    lazy: knowledgeList,
  },
  {
    path: paths.product.path,
    handle: { title: '应用推荐', ssr: true, head: productHead },
    loader: loads(loadApplicationList),
    lazy: () => import('@/features/applications/components/application-list-page').then((m) => ({ Component: m.ApplicationListPage })),
  },
  {
    path: paths.mark.path,
    handle: { title: '标识查询', ssr: true, searchParams: ['keyword'], head: markHead },
    loader: loadsOnServer(loadMarkLookup),
    lazy: () => import('@/features/mark/components/mark-page').then((m) => ({ Component: m.MarkPage })),
  },
  {
    path: paths.newsDetail.path,
    handle: { title: '资讯详情', ssr: true, searchParams: ['id'], head: articleHead('news') },
    loader: loadsOnServer(loadArticleDetail),
    lazy: newsDetail,
  },
  {
    path: paths.knowledgeDetail.path,
    handle: { title: '知识详情', ssr: true, searchParams: ['id'], head: articleHead('knowledge') },
    loader: loadsOnServer(loadArticleDetail),
    lazy: knowledgeDetail,
  },
  {
    path: paths.openService.path,
    handle: { title: '开放服务', ssr: true, searchParams: ['toolId'] },
    loader: loads(loadedWith(() => import('@/features/open-service/api/open-service').then((m) => m.loadOpenService))),
    lazy: () => import('@/features/open-service/components/open-service-page').then((m) => ({ Component: m.OpenServicePage })),
  },
  {
    path: paths.openServiceApi.path,
    handle: { title: 'API 参考', ssr: true },
    loader: loads(loadedWith(() => import('@/features/open-service/api/open-service').then((m) => m.loadApiReference))),
    lazy: () => import('@/features/open-service/components/api-reference-page').then((m) => ({ Component: m.ApiReferencePage })),
  },
];

/**
 * The home page renders no antd component: its first visit does not load antd (`AntdProvider`). A link
 * to it is previewed with the site's name, not 首页.
 */
const homePage: RouteObject = {
  index: true,
  handle: {
    title: '首页',
    ssr: true,
    head: ({ queryClient }: PageHeadContext) => ({
      shareTitle: queryClient.getQueryData(getSiteInfoQueryOptions().queryKey)?.name ?? PRODUCT_TITLE,
    }),
  },
  loader: loads(loadHome),
  lazy: () => import('@/features/home/components/home-page').then((m) => ({ Component: m.HomePage })),
};

/** A layout route giving its pages antd's locale and theme; it only wraps, so it changes no path or handle. */
const withAntd = (prebuilt: boolean, children: RouteObject[]): RouteObject => ({
  lazy: () => import('@/components/antd-provider').then((m) => ({ Component: prebuilt ? m.PublicAntdOutlet : m.AntdOutlet })),
  children,
});

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
      {
        element: <PublicLayout dialogs={<PublicDialogs />} />,
        // The header and footer show the site information.
        loader: loads((queryClient) => queryClient.ensureQueryData(getSiteInfoQueryOptions())),
        children: [homePage, ...lightPublicPages, withAntd(true, publicPages)],
      },
      consoleLayout,
      withAntd(false, [
        {
          path: paths.notFound.path,
          handle: { title: '页面不存在', ssr: true, head: () => ({ notFound: true }) },
          lazy: () => import('@/features/errors/not-found-page').then((m) => ({ Component: m.NotFoundPage })),
        },
        {
          path: paths.forbidden.path,
          handle: { title: '无权限' },
          lazy: () => import('@/features/errors/forbidden-page').then((m) => ({ Component: m.ForbiddenPage })),
        },
        // Rendered by the server once, as /404, for every unknown path (HTTP 404).
        {
          path: '*',
          handle: { title: '页面不存在', ssr: true, pagePath: paths.notFound.path, head: () => ({ notFound: true }) },
          lazy: () => import('@/features/errors/not-found-page').then((m) => ({ Component: m.UnknownPathPage })),
        },
      ]),
      { path: paths.blank.path, handle: { title: '' }, element: <div className="blank-page" /> },
      // Spec section 2: replaces the route with the given path and keeps the query.
      { path: paths.redirect.path, element: <RedirectPage /> },
    ],
  },
];

/**
 * The browser router; its loaders fill `queryClient`. A server-rendered page first loads the code of
 * its matched lazy routes, so the first client render matches the HTML it hydrates (React Router's
 * advice for lazy routes with SSR), and starts from the loader data the server rendered with.
 */
export async function createRouter(queryClient: QueryClient, hydrationData?: HydrationState) {
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
  return createBrowserRouter(routes, { basename: '/', hydrationData, getContext: () => routerContext(queryClient) });
}
