import { Authority, CONSOLE_MENUS, type ConsoleMenu, Role } from '@portal/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { upsertMenu, upsertSystemRole } from './structure-repository.js';

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
      Authority.AppMachineClient,
      Authority.AppAuthorization,
      Authority.AppSubscription,
      Authority.Security,
      Authority.SecuritySetting,
      Authority.SecuritySession,
      Authority.SecurityLoginLog,
      Authority.SecurityCompliance,
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
      Authority.AppMachineClient,
      Authority.AppAuthorization,
      Authority.Security,
      Authority.SecuritySetting,
      Authority.SecuritySession,
      Authority.SecurityLoginLog,
      Authority.SecurityCompliance,
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

/** Upserts the system roles (with exactly their authorities) and the menus; safe from several instances at once. */
export async function syncAccessStructure(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const role of SYSTEM_ROLES) await upsertSystemRole(trx, role);
    let sort = 0;
    const upsert = (menu: Omit<ConsoleMenu, 'children'>, parentId: number | null) =>
      upsertMenu(trx, {
        parentId,
        authCode: menu.authCode,
        name: menu.name,
        path: menu.path,
        title: menu.title,
        icon: menu.icon,
        sort: ++sort,
      });
    for (const menu of CONSOLE_MENUS) {
      const id = await upsert(menu, null);
      for (const child of menu.children ?? []) await upsert(child, id);
    }
  });
}
