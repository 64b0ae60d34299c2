import { Authority, Role } from '@portal/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * The system roles and console menus are part of the product, not demo data: they are brought up to
 * date after the migrations at every start (also with SEED_DEMO=0), so a new menu or authority
 * reaches existing installations. Enterprises' custom roles are theirs and never touched here.
 */

export const SYSTEM_ROLES: { code: string; name: string; description: string; authorities: string[] }[] = [
  {
    code: Role.PlatformOperator,
    name: '平台运营',
    description: '平台运营人员：租户、内容、标识节点与全平台日志',
    authorities: [
      Authority.Dashboard,
      Authority.Message,
      Authority.Enterprise,
      Authority.EnterpriseManage,
      Authority.Org,
      Authority.OrgAccount,
      Authority.OrgGroup,
      Authority.OrgRole,
      Authority.App,
      Authority.AppList,
      Authority.AppAuthorization,
      Authority.AppSubscription,
      Authority.Security,
      Authority.SecuritySetting,
      Authority.SecuritySession,
      Authority.SecurityLoginLog,
      Authority.Auth,
      Authority.AuthSource,
      Authority.AuthSync,
      Authority.Statistics,
      Authority.Tenant,
      Authority.Certification,
      Authority.Content,
      Authority.ContentCategory,
      Authority.ContentArticle,
      Authority.ContentRecommend,
      Authority.ContentHome,
      Authority.ContentOpenService,
      Authority.Identifier,
      Authority.IdentifierTemplate,
      Authority.IdentifierRecord,
      Authority.IdentifierRecordManage,
      Authority.IdentifierStats,
      Authority.IdentifierAll,
      Authority.Audit,
      Authority.AuditAll,
    ],
  },
  {
    code: Role.EnterpriseAdmin,
    name: '企业管理员',
    description: '管理本企业的账号、角色、应用、安全设置、标识与操作日志',
    authorities: [
      Authority.Dashboard,
      Authority.Message,
      Authority.Enterprise,
      Authority.EnterpriseManage,
      Authority.Org,
      Authority.OrgAccount,
      Authority.OrgGroup,
      Authority.OrgRole,
      Authority.App,
      Authority.AppList,
      Authority.AppAuthorization,
      Authority.Security,
      Authority.SecuritySetting,
      Authority.SecuritySession,
      Authority.SecurityLoginLog,
      Authority.Auth,
      Authority.AuthSource,
      Authority.AuthSync,
      Authority.Statistics,
      Authority.Identifier,
      Authority.IdentifierTemplate,
      Authority.IdentifierRecord,
      Authority.IdentifierRecordManage,
      Authority.IdentifierStats,
      Authority.Audit,
    ],
  },
  {
    code: Role.EnterpriseStaff,
    name: '普通员工',
    description: '查看工作台，查看、新增和编辑本企业的标识记录',
    authorities: [Authority.Dashboard, Authority.Message, Authority.Enterprise, Authority.Identifier, Authority.IdentifierRecord],
  },
  {
    code: Role.CertificationReviewer,
    name: '认证审核员',
    description: '平台审核人员：审核企业认证申请及其材料',
    authorities: [Authority.Dashboard, Authority.Message, Authority.Certification],
  },
  // Spec section 6: customers' employees use the portal and its applications, never the console.
  { code: Role.ServiceCustomerEmployee, name: '客户员工', description: '企业为其客户开通的账号，不使用控制台', authorities: [] },
];

interface MenuDefinition {
  name: string;
  path: string;
  title: string;
  /** A name from the spec's icon set (section 2, "Admin shell"). */
  icon: string;
  authCode: string;
  children?: Omit<MenuDefinition, 'children'>[];
}

/** Console menus in display order; children follow their parent. */
export const MENUS: MenuDefinition[] = [
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

/** Upserts the system roles (with exactly their authorities) and the menus; safe from several instances at once. */
export async function syncAccessStructure(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const role of SYSTEM_ROLES) {
      await trx
        .insertInto('role')
        .values({ enterprise_id: null, code: role.code, name: role.name, description: role.description })
        .onConflict((oc) => oc.doNothing())
        .execute();
      const { id } = await trx
        .selectFrom('role')
        .select('id')
        .where('enterprise_id', 'is', null)
        .where('code', '=', role.code)
        .executeTakeFirstOrThrow();
      await trx.updateTable('role').set({ name: role.name, description: role.description }).where('id', '=', id).execute();
      let stale = trx.deleteFrom('role_authority').where('role_id', '=', id);
      if (role.authorities.length) stale = stale.where('authority', 'not in', role.authorities);
      await stale.execute();
      if (role.authorities.length) {
        await trx
          .insertInto('role_authority')
          .values(role.authorities.map((authority) => ({ role_id: id, authority })))
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
    }

    let sort = 0;
    const upsert = async (menu: Omit<MenuDefinition, 'children'>, parentId: number | null) => {
      const values = {
        parent_id: parentId,
        auth_code: menu.authCode,
        name: menu.name,
        path: menu.path,
        title: menu.title,
        icon: menu.icon,
        sort: ++sort,
      };
      await trx
        .insertInto('portal_menu')
        .values(values)
        .onConflict((oc) => oc.column('name').doUpdateSet({ ...values }))
        .execute();
      const { id } = await trx.selectFrom('portal_menu').select('id').where('name', '=', menu.name).executeTakeFirstOrThrow();
      return id;
    };
    for (const menu of MENUS) {
      const id = await upsert(menu, null);
      for (const child of menu.children ?? []) await upsert(child, id);
    }
  });
}
