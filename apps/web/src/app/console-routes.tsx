import { Authority, CONSOLE_MENUS, type ConsoleMenu } from '@portal/shared';
import { lazy } from 'react';
import { paths } from '@/config/paths';
import type { ConsoleRoute } from '@/features/console/console-route';

type ConsolePage = Pick<ConsoleRoute, 'component' | 'affix' | 'noCache'>;

/** The page of each console menu, by its name (menus that only hold children have none). */
const pages: Record<string, ConsolePage> = {
  Dashboard: {
    affix: true,
    component: lazy(() => import('@/features/dashboard/components/dashboard-page').then((m) => ({ default: m.DashboardPage }))),
  },
  Enterprise: {
    component: lazy(() => import('@/features/enterprise/components/enterprise-page').then((m) => ({ default: m.EnterprisePage }))),
  },
  OrgAccount: {
    component: lazy(() => import('@/features/org-accounts/components/account-admin-page').then((m) => ({ default: m.AccountAdminPage }))),
  },
  OrgGroup: {
    component: lazy(() => import('@/features/org-groups/components/group-admin-page').then((m) => ({ default: m.GroupAdminPage }))),
  },
  OrgRole: { component: lazy(() => import('@/features/org-roles/components/role-admin-page').then((m) => ({ default: m.RoleAdminPage }))) },
  AppList: {
    component: lazy(() => import('@/features/sso-apps/components/sso-app-list-page').then((m) => ({ default: m.SsoAppListPage }))),
  },
  AppMachineClient: {
    component: lazy(() =>
      import('@/features/machine-clients/components/machine-client-page').then((m) => ({ default: m.MachineClientPage })),
    ),
  },
  AppAuthorization: {
    component: lazy(() =>
      import('@/features/sso-apps/components/app-authorization-page').then((m) => ({ default: m.AppAuthorizationPage })),
    ),
  },
  AppSubscription: {
    component: lazy(() =>
      import('@/features/app-subscriptions/components/subscription-review-page').then((m) => ({ default: m.SubscriptionReviewPage })),
    ),
  },
  SecuritySetting: {
    component: lazy(() => import('@/features/security/components/security-setting-page').then((m) => ({ default: m.SecuritySettingPage }))),
  },
  SecuritySession: {
    component: lazy(() => import('@/features/security/components/session-page').then((m) => ({ default: m.SessionPage }))),
  },
  SecurityLoginLog: {
    component: lazy(() => import('@/features/security/components/login-log-page').then((m) => ({ default: m.LoginLogPage }))),
  },
  SecurityCompliance: {
    component: lazy(() => import('@/features/security/components/compliance-page').then((m) => ({ default: m.CompliancePage }))),
  },
  AuthSource: {
    component: lazy(() => import('@/features/auth-sources/components/auth-source-page').then((m) => ({ default: m.AuthSourcePage }))),
  },
  AuthSync: { component: lazy(() => import('@/features/directory-sync/components/sync-page').then((m) => ({ default: m.SyncPage }))) },
  Statistics: {
    component: lazy(() => import('@/features/statistics/components/statistics-page').then((m) => ({ default: m.StatisticsPage }))),
  },
  Tenant: {
    component: lazy(() => import('@/features/tenants/components/tenant-admin-page').then((m) => ({ default: m.TenantAdminPage }))),
  },
  Certification: {
    component: lazy(() =>
      import('@/features/certification-review/components/certification-review-page').then((m) => ({ default: m.CertificationReviewPage })),
    ),
  },
  ContentCategory: {
    component: lazy(() =>
      import('@/features/content-admin/components/category-admin-page').then((m) => ({ default: m.CategoryAdminPage })),
    ),
  },
  ContentArticle: {
    component: lazy(() => import('@/features/content-admin/components/article-admin-page').then((m) => ({ default: m.ArticleAdminPage }))),
  },
  ContentRecommend: {
    component: lazy(() =>
      import('@/features/content-admin/components/recommend-admin-page').then((m) => ({ default: m.RecommendAdminPage })),
    ),
  },
  ContentHome: {
    component: lazy(() =>
      import('@/features/content-admin/components/home-blocks-admin-page').then((m) => ({ default: m.HomeBlocksAdminPage })),
    ),
  },
  ContentOpenService: {
    component: lazy(() =>
      import('@/features/content-admin/components/open-service-admin-page').then((m) => ({ default: m.OpenServiceAdminPage })),
    ),
  },
  IdentifierTemplate: {
    component: lazy(() =>
      import('@/features/identifier-admin/components/template-admin-page').then((m) => ({ default: m.TemplateAdminPage })),
    ),
  },
  IdentifierRecord: {
    component: lazy(() => import('@/features/identifier-admin/components/record-admin-page').then((m) => ({ default: m.RecordAdminPage }))),
  },
  IdentifierStats: {
    component: lazy(() =>
      import('@/features/identifier-stats/components/identifier-stats-page').then((m) => ({ default: m.IdentifierStatsPage })),
    ),
  },
  AuditLog: { component: lazy(() => import('@/features/audit-log/components/audit-log-page').then((m) => ({ default: m.AuditLogPage }))) },
};

const toRoute = (menu: ConsoleMenu): ConsoleRoute => ({
  path: menu.path,
  name: menu.name,
  authCode: menu.authCode,
  title: menu.title,
  icon: menu.icon,
  ...pages[menu.name],
  ...(menu.children ? { children: menu.children.map(toRoute) } : {}),
});

/**
 * The console's service routes (spec sections 4 and 6): the shared menu tree, which the server also
 * stores as the menus, with each page; the server's titles override these when they differ.
 */
export const consoleRoutes: ConsoleRoute[] = [
  ...CONSOLE_MENUS.map(toRoute),
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
