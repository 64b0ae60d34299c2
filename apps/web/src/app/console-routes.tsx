import { Authority } from '@portal/shared';
import { lazy } from 'react';
import { paths } from '@/config/paths';
import type { ConsoleRoute } from '@/features/console/console-route';

/**
 * The console's service routes (spec sections 4 and 6). Paths, names and authority codes match the
 * server's menus (`db/seed/accounts-seed.ts`); the server's titles override these when they differ.
 */
export const consoleRoutes: ConsoleRoute[] = [
  {
    path: '/console/dashboard',
    name: 'Dashboard',
    authCode: Authority.Dashboard,
    title: '工作台',
    icon: 'dashboard',
    affix: true,
    component: lazy(() => import('@/features/dashboard/components/dashboard-page').then((m) => ({ default: m.DashboardPage }))),
  },
  {
    path: paths.enterprise.path,
    name: 'Enterprise',
    authCode: Authority.Enterprise,
    title: '企业信息',
    icon: 'setup',
    component: lazy(() => import('@/features/enterprise/components/enterprise-page').then((m) => ({ default: m.EnterprisePage }))),
  },
  {
    path: '/console/org',
    name: 'Org',
    authCode: Authority.Org,
    title: '组织与账号',
    icon: 'account-group',
    children: [
      {
        path: '/console/org/account',
        name: 'OrgAccount',
        authCode: Authority.OrgAccount,
        title: '账号管理',
        icon: 'account-manage',
        component: lazy(() =>
          import('@/features/org-accounts/components/account-admin-page').then((m) => ({ default: m.AccountAdminPage })),
        ),
      },
      {
        path: '/console/org/group',
        name: 'OrgGroup',
        authCode: Authority.OrgGroup,
        title: '账号组',
        icon: 'account-group',
        component: lazy(() => import('@/features/org-groups/components/group-admin-page').then((m) => ({ default: m.GroupAdminPage }))),
      },
      {
        path: '/console/org/role',
        name: 'OrgRole',
        authCode: Authority.OrgRole,
        title: '角色管理',
        icon: 'role',
        component: lazy(() => import('@/features/org-roles/components/role-admin-page').then((m) => ({ default: m.RoleAdminPage }))),
      },
    ],
  },
  {
    path: '/console/app',
    name: 'App',
    authCode: Authority.App,
    title: '应用管理',
    icon: 'application-list',
    children: [
      {
        path: paths.appList.path,
        name: 'AppList',
        authCode: Authority.AppList,
        title: '应用列表',
        icon: 'application-list',
        component: lazy(() => import('@/features/sso-apps/components/sso-app-list-page').then((m) => ({ default: m.SsoAppListPage }))),
      },
      {
        path: paths.appAuthorization.path,
        name: 'AppAuthorization',
        authCode: Authority.AppAuthorization,
        title: '应用授权',
        icon: 'app-authorization',
        component: lazy(() =>
          import('@/features/sso-apps/components/app-authorization-page').then((m) => ({ default: m.AppAuthorizationPage })),
        ),
      },
      {
        path: '/console/app/subscription',
        name: 'AppSubscription',
        authCode: Authority.AppSubscription,
        title: '应用订阅',
        icon: 'app-authorization',
        component: lazy(() =>
          import('@/features/app-subscriptions/components/subscription-review-page').then((m) => ({ default: m.SubscriptionReviewPage })),
        ),
      },
    ],
  },
  {
    path: '/console/security',
    name: 'Security',
    authCode: Authority.Security,
    title: '安全中心',
    icon: 'security-setting',
    children: [
      {
        path: '/console/security/setting',
        name: 'SecuritySetting',
        authCode: Authority.SecuritySetting,
        title: '安全设置',
        icon: 'security-setting',
        component: lazy(() =>
          import('@/features/security/components/security-setting-page').then((m) => ({ default: m.SecuritySettingPage })),
        ),
      },
      {
        path: '/console/security/session',
        name: 'SecuritySession',
        authCode: Authority.SecuritySession,
        title: '在线会话',
        icon: 'sync',
        component: lazy(() => import('@/features/security/components/session-page').then((m) => ({ default: m.SessionPage }))),
      },
      {
        path: '/console/security/login-log',
        name: 'SecurityLoginLog',
        authCode: Authority.SecurityLoginLog,
        title: '登录日志',
        icon: 'audit-operation-log',
        component: lazy(() => import('@/features/security/components/login-log-page').then((m) => ({ default: m.LoginLogPage }))),
      },
    ],
  },
  {
    path: '/console/auth',
    name: 'Auth',
    authCode: Authority.Auth,
    title: '认证与同步',
    icon: 'authentication-source',
    children: [
      {
        path: '/console/auth/source',
        name: 'AuthSource',
        authCode: Authority.AuthSource,
        title: '认证源',
        icon: 'authentication-source',
        component: lazy(() => import('@/features/auth-sources/components/auth-source-page').then((m) => ({ default: m.AuthSourcePage }))),
      },
      {
        path: '/console/auth/sync',
        name: 'AuthSync',
        authCode: Authority.AuthSync,
        title: '同步',
        icon: 'sync',
        component: lazy(() => import('@/features/directory-sync/components/sync-page').then((m) => ({ default: m.SyncPage }))),
      },
    ],
  },
  {
    path: '/console/statistics',
    name: 'Statistics',
    authCode: Authority.Statistics,
    title: '统计分析',
    icon: 'statistics',
    component: lazy(() => import('@/features/statistics/components/statistics-page').then((m) => ({ default: m.StatisticsPage }))),
  },
  {
    path: '/console/tenant',
    name: 'Tenant',
    authCode: Authority.Tenant,
    title: '租户管理',
    icon: 'kanban',
    component: lazy(() => import('@/features/tenants/components/tenant-admin-page').then((m) => ({ default: m.TenantAdminPage }))),
  },
  {
    path: '/console/certification',
    name: 'Certification',
    authCode: Authority.Certification,
    title: '认证审核',
    icon: 'app-authorization',
    component: lazy(() =>
      import('@/features/certification-review/components/certification-review-page').then((m) => ({ default: m.CertificationReviewPage })),
    ),
  },
  {
    path: '/console/content',
    name: 'Content',
    authCode: Authority.Content,
    title: '内容管理',
    icon: 'manage',
    children: [
      {
        path: '/console/content/category',
        name: 'ContentCategory',
        authCode: Authority.ContentCategory,
        title: '栏目管理',
        icon: 'kanban',
        component: lazy(() =>
          import('@/features/content-admin/components/category-admin-page').then((m) => ({ default: m.CategoryAdminPage })),
        ),
      },
      {
        path: '/console/content/article',
        name: 'ContentArticle',
        authCode: Authority.ContentArticle,
        title: '文章管理',
        icon: 'statistics',
        component: lazy(() =>
          import('@/features/content-admin/components/article-admin-page').then((m) => ({ default: m.ArticleAdminPage })),
        ),
      },
      {
        path: '/console/content/recommend',
        name: 'ContentRecommend',
        authCode: Authority.ContentRecommend,
        title: '推荐应用',
        icon: 'application-list',
        component: lazy(() =>
          import('@/features/content-admin/components/recommend-admin-page').then((m) => ({ default: m.RecommendAdminPage })),
        ),
      },
      {
        path: '/console/content/home',
        name: 'ContentHome',
        authCode: Authority.ContentHome,
        title: '首页配置',
        icon: 'setup',
        component: lazy(() =>
          import('@/features/content-admin/components/home-blocks-admin-page').then((m) => ({ default: m.HomeBlocksAdminPage })),
        ),
      },
      {
        path: '/console/content/open-service',
        name: 'ContentOpenService',
        authCode: Authority.ContentOpenService,
        title: '开放服务',
        icon: 'application-list',
        component: lazy(() =>
          import('@/features/content-admin/components/open-service-admin-page').then((m) => ({ default: m.OpenServiceAdminPage })),
        ),
      },
    ],
  },
  {
    path: '/console/identifier',
    name: 'Identifier',
    authCode: Authority.Identifier,
    title: '标识管理',
    icon: 'authentication-source',
    children: [
      {
        path: '/console/identifier/template',
        name: 'IdentifierTemplate',
        authCode: Authority.IdentifierTemplate,
        title: '前缀与模板',
        icon: 'sync',
        component: lazy(() =>
          import('@/features/identifier-admin/components/template-admin-page').then((m) => ({ default: m.TemplateAdminPage })),
        ),
      },
      {
        path: '/console/identifier/record',
        name: 'IdentifierRecord',
        authCode: Authority.IdentifierRecord,
        title: '标识记录',
        icon: 'app-authorization',
        component: lazy(() =>
          import('@/features/identifier-admin/components/record-admin-page').then((m) => ({ default: m.RecordAdminPage })),
        ),
      },
      {
        path: '/console/identifier/stats',
        name: 'IdentifierStats',
        authCode: Authority.IdentifierStats,
        title: '标识统计',
        icon: 'statistics',
        component: lazy(() =>
          import('@/features/identifier-stats/components/identifier-stats-page').then((m) => ({ default: m.IdentifierStatsPage })),
        ),
      },
    ],
  },
  {
    path: '/console/audit',
    name: 'AuditLog',
    authCode: Authority.Audit,
    title: '操作日志',
    icon: 'audit-operation-log',
    component: lazy(() => import('@/features/audit-log/components/audit-log-page').then((m) => ({ default: m.AuditLogPage }))),
  },
  {
    // Opened from the navbar's bell, not from the sidebar.
    path: paths.messages.path,
    name: 'Message',
    authCode: Authority.Message,
    title: '消息中心',
    hidden: true,
    component: lazy(() => import('@/features/messages/components/message-center-page').then((m) => ({ default: m.MessageCenterPage }))),
  },
];
