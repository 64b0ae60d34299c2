/** Every route path of the app in one place (bulletproof-react style). */
export const paths = {
  home: { path: '/', getHref: () => '/' },
  mark: { path: '/mark', getHref: (keyword?: string) => (keyword ? `/mark?keyword=${encodeURIComponent(keyword)}` : '/mark') },
  settled: { path: '/settled', getHref: () => '/settled' },
  news: { path: '/news', getHref: () => '/news' },
  newsDetail: { path: '/news/detail', getHref: (id: string) => `/news/detail?id=${encodeURIComponent(id)}` },
  knowledge: { path: '/knowledge', getHref: () => '/knowledge' },
  knowledgeDetail: { path: '/knowledge/detail', getHref: (id: string) => `/knowledge/detail?id=${encodeURIComponent(id)}` },
  remote: { path: '/remote', getHref: () => '/remote' },
  privacy: { path: '/privacy', getHref: () => '/privacy' },
  service: { path: '/service', getHref: () => '/service' },
  product: { path: '/product', getHref: () => '/product' },
  productDetail: { path: '/product/center/detail', getHref: (uuid: string) => `/product/center/detail?uuid=${encodeURIComponent(uuid)}` },
  /** 开放服务: the centre, or a tool's detail (`?toolId=01`…`06`, spec section 9). */
  openService: {
    path: '/open-service',
    getHref: (toolId?: string) => (toolId ? `/open-service?toolId=${encodeURIComponent(toolId)}` : '/open-service'),
  },
  /** The developers' API reference of the open-service centre. */
  openServiceApi: { path: '/open-service/api', getHref: () => '/open-service/api' },
  /** The platform's mobile app: platforms, versions and download (the footer's 扫码下载 App). */
  appDownload: { path: '/app-download', getHref: () => '/app-download' },
  /** 我的应用: a logged-in user's applications on single sign-on. */
  myApps: { path: '/my-apps', getHref: () => '/my-apps' },
  console: { path: '/console/*', getHref: () => '/console' },
  /** 企业信息 in the console; `certification` opens its 企业认证 tab. */
  enterprise: {
    path: '/console/enterprise',
    getHref: (tab?: 'certification') => (tab ? `/console/enterprise?tab=${tab}` : '/console/enterprise'),
  },
  /** 应用列表 and 应用授权 in the console; a subscribed platform application is authorized there. */
  appList: { path: '/console/app/list', getHref: () => '/console/app/list' },
  appAuthorization: { path: '/console/app/authorization', getHref: () => '/console/app/authorization' },
  /** 安全设置 in the console: 安全合规's remedies link there. */
  securitySetting: { path: '/console/security/setting', getHref: () => '/console/security/setting' },
  /** 消息中心 in the console: a hidden route, opened from the navbar's bell. */
  messages: { path: '/console/message', getHref: () => '/console/message' },
  consoleRedirect: { path: '/redirect/console/*', getHref: (fullPath: string) => `/redirect${fullPath}` },
  forbidden: { path: '/403', getHref: () => '/403' },
  blank: { path: '/blank', getHref: () => '/blank' },
  notFound: { path: '/404', getHref: () => '/404' },
  /** What a page address the server cannot decode (a broken %-escape) shows, with HTTP 400. */
  badRequest: { path: '/400', getHref: () => '/400' },
  redirect: { path: '/redirect/*', getHref: (fullPath: string) => `/redirect${fullPath}` },
} as const;

/** Product title; the page title is this plus the route title (spec section 1). */
export const PRODUCT_TITLE = 'Engineering e+';

export function pageTitle(routeTitle?: string): string {
  return routeTitle ? `${routeTitle} - ${PRODUCT_TITLE}` : PRODUCT_TITLE;
}
