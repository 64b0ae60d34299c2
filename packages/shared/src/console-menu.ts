import { Authority } from './auth.js';

export interface ConsoleMenu {
  name: string;
  path: string;
  title: string;
  /** A name from the spec's icon set (section 2, "Admin shell"). */
  icon: string;
  authCode: string;
  children?: Omit<ConsoleMenu, 'children'>[];
}

/**
 * The console menu tree in display order (spec sections 3 and 4): the menus the menus call answers,
 * and the console's sidebar, breadcrumb and routes.
 */
export const CONSOLE_MENUS: readonly ConsoleMenu[] = [
  { name: 'Dashboard', path: '/console/dashboard', title: '工作台', icon: 'dashboard', authCode: Authority.Dashboard },
  { name: 'Enterprise', path: '/console/enterprise', title: '企业信息', icon: 'setup', authCode: Authority.Enterprise },
  {
    name: 'Org',
    path: '/console/org',
    title: '组织与账号',
    icon: 'account-group',
    authCode: Authority.Org,
    children: [
      { name: 'OrgAccount', path: '/console/org/account', title: '账号管理', icon: 'account-manage', authCode: Authority.OrgAccount },
      { name: 'OrgGroup', path: '/console/org/group', title: '账号组', icon: 'account-group', authCode: Authority.OrgGroup },
      { name: 'OrgRole', path: '/console/org/role', title: '角色管理', icon: 'role', authCode: Authority.OrgRole },
    ],
  },
  {
    name: 'App',
    path: '/console/app',
    title: '应用管理',
    icon: 'application-list',
    authCode: Authority.App,
    children: [
      { name: 'AppList', path: '/console/app/list', title: '应用列表', icon: 'application-list', authCode: Authority.AppList },
      {
        name: 'AppMachineClient',
        path: '/console/app/machine-client',
        title: '机器客户端',
        icon: 'application-list',
        authCode: Authority.AppMachineClient,
      },
      {
        name: 'AppAuthorization',
        path: '/console/app/authorization',
        title: '应用授权',
        icon: 'app-authorization',
        authCode: Authority.AppAuthorization,
      },
      {
        name: 'AppSubscription',
        path: '/console/app/subscription',
        title: '应用订阅',
        icon: 'app-authorization',
        authCode: Authority.AppSubscription,
      },
    ],
  },
  {
    name: 'Security',
    path: '/console/security',
    title: '安全中心',
    icon: 'security-setting',
    authCode: Authority.Security,
    children: [
      {
        name: 'SecuritySetting',
        path: '/console/security/setting',
        title: '安全设置',
        icon: 'security-setting',
        authCode: Authority.SecuritySetting,
      },
      { name: 'SecuritySession', path: '/console/security/session', title: '在线会话', icon: 'sync', authCode: Authority.SecuritySession },
      {
        name: 'SecurityLoginLog',
        path: '/console/security/login-log',
        title: '登录日志',
        icon: 'audit-operation-log',
        authCode: Authority.SecurityLoginLog,
      },
      {
        name: 'SecurityCompliance',
        path: '/console/security/compliance',
        title: '安全合规',
        icon: 'security-setting',
        authCode: Authority.SecurityCompliance,
      },
    ],
  },
  {
    name: 'Auth',
    path: '/console/auth',
    title: '认证与同步',
    icon: 'authentication-source',
    authCode: Authority.Auth,
    children: [
      { name: 'AuthSource', path: '/console/auth/source', title: '认证源', icon: 'authentication-source', authCode: Authority.AuthSource },
      { name: 'AuthSync', path: '/console/auth/sync', title: '同步', icon: 'sync', authCode: Authority.AuthSync },
    ],
  },
  { name: 'Statistics', path: '/console/statistics', title: '统计分析', icon: 'statistics', authCode: Authority.Statistics },
  { name: 'Tenant', path: '/console/tenant', title: '租户管理', icon: 'kanban', authCode: Authority.Tenant },
  {
    name: 'Certification',
    path: '/console/certification',
    title: '认证审核',
    icon: 'app-authorization',
    authCode: Authority.Certification,
  },
  {
    name: 'Content',
    path: '/console/content',
    title: '内容管理',
    icon: 'manage',
    authCode: Authority.Content,
    children: [
      {
        name: 'ContentCategory',
        path: '/console/content/category',
        title: '栏目管理',
        icon: 'kanban',
        authCode: Authority.ContentCategory,
      },
      {
        name: 'ContentArticle',
        path: '/console/content/article',
        title: '文章管理',
        icon: 'statistics',
        authCode: Authority.ContentArticle,
      },
      {
        name: 'ContentRecommend',
        path: '/console/content/recommend',
        title: '推荐应用',
        icon: 'application-list',
        authCode: Authority.ContentRecommend,
      },
      { name: 'ContentHome', path: '/console/content/home', title: '首页配置', icon: 'setup', authCode: Authority.ContentHome },
      {
        name: 'ContentOpenService',
        path: '/console/content/open-service',
        title: '开放服务',
        icon: 'application-list',
        authCode: Authority.ContentOpenService,
      },
    ],
  },
  {
    name: 'Identifier',
    path: '/console/identifier',
    title: '标识管理',
    icon: 'authentication-source',
    authCode: Authority.Identifier,
    children: [
      {
        name: 'IdentifierTemplate',
        path: '/console/identifier/template',
        title: '前缀与模板',
        icon: 'sync',
        authCode: Authority.IdentifierTemplate,
      },
      {
        name: 'IdentifierRecord',
        path: '/console/identifier/record',
        title: '标识记录',
        icon: 'app-authorization',
        authCode: Authority.IdentifierRecord,
      },
      {
        name: 'IdentifierStats',
        path: '/console/identifier/stats',
        title: '标识统计',
        icon: 'statistics',
        authCode: Authority.IdentifierStats,
      },
    ],
  },
  { name: 'AuditLog', path: '/console/audit', title: '操作日志', icon: 'audit-operation-log', authCode: Authority.Audit },
];
