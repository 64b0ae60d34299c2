import { Authority, Role } from '@portal/shared';
import type { Kysely } from 'kysely';
import { hashPassword } from '../../features/accounts/passwords.js';
import type { Database } from '../schema.js';

/** The password of every demo account (README, "Demo accounts"). */
export const DEMO_PASSWORD = 'Portal@2026';

const ROLES: { code: string; name: string; authorities: string[] }[] = [
  {
    code: Role.PlatformOperator,
    name: '平台运营',
    authorities: [
      Authority.Dashboard,
      Authority.Content,
      Authority.ContentCategory,
      Authority.ContentArticle,
      Authority.ContentRecommend,
      Authority.ContentHome,
      Authority.Identifier,
      Authority.IdentifierTemplate,
      Authority.IdentifierRecord,
      Authority.IdentifierAll,
      Authority.Audit,
      Authority.AuditAll,
    ],
  },
  {
    code: Role.EnterpriseAdmin,
    name: '企业管理员',
    authorities: [Authority.Dashboard, Authority.Identifier, Authority.IdentifierTemplate, Authority.IdentifierRecord, Authority.Audit],
  },
  {
    code: Role.EnterpriseStaff,
    name: '企业员工',
    authorities: [Authority.Dashboard, Authority.Identifier, Authority.IdentifierRecord],
  },
  { code: Role.ServiceCustomerEmployee, name: '服务客户员工', authorities: [Authority.Dashboard] },
];

/** Console menus (path, title, icon from the spec's icon set, authority). Children follow their parent. */
const MENUS: {
  name: string;
  path: string;
  title: string;
  icon: string;
  authCode: string;
  children?: Omit<(typeof MENUS)[number], 'children'>[];
}[] = [
  { name: 'Dashboard', path: '/console/dashboard', title: '工作台', icon: 'dashboard', authCode: Authority.Dashboard },
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
    ],
  },
  { name: 'AuditLog', path: '/console/audit', title: '操作日志', icon: 'audit-operation-log', authCode: Authority.Audit },
];

const ENTERPRISES: { name: string; status: 'certified' | 'pending' }[] = [
  { name: '徐州恒岳重工机械有限公司', status: 'certified' },
  { name: '常州瑞驰液压科技有限公司', status: 'certified' },
  { name: 'Engineering e+ 平台运营中心', status: 'certified' },
];

/** Demo accounts (README): one per kind of user the spec names. */
export const DEMO_ACCOUNTS = [
  {
    username: 'admin',
    name: '张伟',
    phone: '13800000001',
    email: 'zhangwei@hengyue-hi.cn',
    number: 'HY0001',
    enterprise: 0,
    role: Role.EnterpriseAdmin,
  },
  {
    username: 'staff',
    name: '李娜',
    phone: '13800000002',
    email: 'lina@hengyue-hi.cn',
    number: 'HY0027',
    enterprise: 0,
    role: Role.EnterpriseStaff,
  },
  {
    username: 'service',
    name: '王强',
    phone: '13800000003',
    email: 'wangqiang@ruichi-hyd.cn',
    number: 'RC0105',
    enterprise: 1,
    role: Role.ServiceCustomerEmployee,
  },
  {
    username: 'operator',
    name: '陈静',
    phone: '13800000004',
    email: 'chenjing@eplus-industry.cn',
    number: 'OP0003',
    enterprise: 2,
    role: Role.PlatformOperator,
  },
] as const;

/** Roles, menus, demo enterprises and accounts. Runs once: the marker row makes it idempotent. */
export async function seedAccounts(db: Kysely<Database>, now: string): Promise<boolean> {
  const seeded = await db.selectFrom('site_setting').select('key').where('key', '=', 'seed.accounts').executeTakeFirst();
  if (seeded) return false;
  // Hash outside the transaction: argon2id is deliberately slow.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return db.transaction().execute(async (trx) => {
    const marker = await trx
      .insertInto('site_setting')
      .values({ key: 'seed.accounts', value: '1', updated_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    if (!marker.numInsertedOrUpdatedRows) return false;

    const roleIds = new Map<string, number>();
    for (const role of ROLES) {
      const { id } = await trx.insertInto('role').values({ code: role.code, name: role.name }).returning('id').executeTakeFirstOrThrow();
      roleIds.set(role.code, id);
      await trx
        .insertInto('role_authority')
        .values(role.authorities.map((authority) => ({ role_id: id, authority })))
        .execute();
    }

    let sort = 0;
    for (const menu of MENUS) {
      const { id } = await trx
        .insertInto('portal_menu')
        .values({
          parent_id: null,
          auth_code: menu.authCode,
          name: menu.name,
          path: menu.path,
          title: menu.title,
          icon: menu.icon,
          sort: ++sort,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const child of menu.children ?? []) {
        await trx
          .insertInto('portal_menu')
          .values({
            parent_id: id,
            auth_code: child.authCode,
            name: child.name,
            path: child.path,
            title: child.title,
            icon: child.icon,
            sort: ++sort,
          })
          .execute();
      }
    }

    const enterpriseIds: number[] = [];
    for (const e of ENTERPRISES) {
      const { id } = await trx
        .insertInto('enterprise')
        .values({ name: e.name, certification_status: e.status, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      enterpriseIds.push(id);
    }

    for (const a of DEMO_ACCOUNTS) {
      const { id } = await trx
        .insertInto('account')
        .values({
          username: a.username,
          name: a.name,
          phone: a.phone,
          email: a.email,
          number: a.number,
          password_hash: passwordHash,
          enterprise_id: enterpriseIds[a.enterprise] ?? null,
          status: 'active',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const roleId = roleIds.get(a.role);
      if (roleId === undefined) throw new Error(`role ${a.role} missing`);
      await trx.insertInto('account_role').values({ account_id: id, role_id: roleId }).execute();
    }
    return true;
  });
}
