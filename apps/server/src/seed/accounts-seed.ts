import { Role } from '@portal/shared';
import type { Kysely } from 'kysely';
import { hashPassword } from '../identity/accounts/passwords.js';
import type { Database } from '../platform/db/schema.js';

/** The password of every demo account (README, "Demo accounts"). */
export const DEMO_PASSWORD = 'Portal@2026';

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

/** Demo enterprises and accounts (the system roles exist already: platform/db/structure). Runs once: the marker row makes it idempotent. */
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

    const roleIds = new Map(
      (await trx.selectFrom('role').select(['id', 'code']).where('enterprise_id', 'is', null).execute()).map((r) => [r.code, r.id]),
    );

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

/** Demo colleagues of the demo enterprises (README, "Demo accounts"): groups, a custom role, a join request. */
const ORG_ACCOUNTS = [
  {
    username: 'wangfang',
    name: '王芳',
    phone: '13800000011',
    email: 'wangfang@hengyue-hi.cn',
    number: 'HY0031',
    enterprise: '徐州恒岳重工机械有限公司',
    status: 'active',
  },
  {
    username: 'liuyang',
    name: '刘洋',
    phone: '13800000012',
    email: 'liuyang@hengyue-hi.cn',
    number: 'HY0045',
    enterprise: '徐州恒岳重工机械有限公司',
    status: 'active',
  },
  {
    username: 'zhoujie',
    name: '周杰',
    phone: '13800000013',
    email: '',
    number: 'HY0052',
    enterprise: '徐州恒岳重工机械有限公司',
    status: 'active',
  },
  {
    username: 'chenming',
    name: '陈明',
    phone: '13800000014',
    email: 'chenming@hengyue-hi.cn',
    number: 'HY0008',
    enterprise: '徐州恒岳重工机械有限公司',
    status: 'disabled',
  },
  {
    username: 'rcadmin',
    name: '孙丽',
    phone: '13800000021',
    email: 'sunli@ruichi-hyd.cn',
    number: 'RC0001',
    enterprise: '常州瑞驰液压科技有限公司',
    status: 'active',
  },
  // Registered naming 恒岳: a pending 加入申请 its administrators see in 账号管理.
  { username: 'sunhao', name: 'sunhao', phone: '13800000015', email: 'sunhao@163.com', number: '', enterprise: null, status: 'active' },
] as const;

const ORG_ROLES: Record<string, string> = {
  wangfang: Role.EnterpriseStaff,
  liuyang: Role.EnterpriseStaff,
  zhoujie: Role.EnterpriseStaff,
  chenming: Role.EnterpriseStaff,
  rcadmin: Role.EnterpriseAdmin,
  // As registration gives it (identity/accounts/account-repository.ts, register).
  sunhao: Role.EnterpriseStaff,
};

const HENGYUE_GROUPS = [
  { name: '质量部', description: '来料检验、过程质量与出厂检验', members: ['wangfang', 'zhoujie'], roles: ['ROLE_QUALITY'] },
  { name: '生产部', description: '装配车间与生产计划', members: ['liuyang', 'staff'], roles: [] },
  { name: '信息中心', description: '企业信息化与标识解析系统运维', members: ['admin'], roles: [] },
] as const;

/** 组织与账号 demo data; runs once (its own marker, so installations seeded before it get it too). */
export async function seedOrganisation(db: Kysely<Database>, now: string): Promise<boolean> {
  const seeded = await db.selectFrom('site_setting').select('key').where('key', '=', 'seed.org').executeTakeFirst();
  if (seeded) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return db.transaction().execute(async (trx) => {
    const marker = await trx
      .insertInto('site_setting')
      .values({ key: 'seed.org', value: '1', updated_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    if (!marker.numInsertedOrUpdatedRows) return false;
    const enterprises = new Map((await trx.selectFrom('enterprise').select(['id', 'name']).execute()).map((e) => [e.name, e.id]));
    const hengyue = enterprises.get('徐州恒岳重工机械有限公司');
    // An installation whose demo enterprises were removed gets no demo colleagues.
    if (hengyue === undefined) return true;
    const systemRoles = new Map(
      (await trx.selectFrom('role').select(['id', 'code']).where('enterprise_id', 'is', null).execute()).map((r) => [r.code, r.id]),
    );
    const accountIds = new Map((await trx.selectFrom('account').select(['id', 'username']).execute()).map((a) => [a.username, a.id]));
    for (const a of ORG_ACCOUNTS) {
      if (accountIds.has(a.username)) continue;
      const enterpriseId = a.enterprise === null ? null : (enterprises.get(a.enterprise) ?? null);
      const { id } = await trx
        .insertInto('account')
        .values({
          username: a.username,
          name: a.name,
          phone: a.phone,
          email: a.email,
          number: a.number,
          password_hash: passwordHash,
          enterprise_id: enterpriseId,
          status: a.status,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      accountIds.set(a.username, id);
      const roleId = systemRoles.get(ORG_ROLES[a.username] ?? '');
      if (roleId !== undefined) await trx.insertInto('account_role').values({ account_id: id, role_id: roleId }).execute();
    }
    const { id: qualityRole } = await trx
      .insertInto('role')
      .values({ enterprise_id: hengyue, code: 'ROLE_QUALITY', name: '质检员', description: '查看工作台与标识记录，维护产品质量追溯标识' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('role_authority')
      .values(['dashboard', 'identifier', 'identifier:record'].map((authority) => ({ role_id: qualityRole, authority })))
      .execute();
    for (const g of HENGYUE_GROUPS) {
      const { id } = await trx
        .insertInto('account_group')
        .values({ enterprise_id: hengyue, name: g.name, description: g.description, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      const members = g.members.flatMap((u) => {
        const accountId = accountIds.get(u);
        return accountId === undefined ? [] : [{ group_id: id, account_id: accountId, created_at: now }];
      });
      if (members.length) await trx.insertInto('account_group_member').values(members).execute();
      if (g.roles.length) await trx.insertInto('account_group_role').values({ group_id: id, role_id: qualityRole }).execute();
    }
    const applicant = accountIds.get('sunhao');
    if (applicant !== undefined) {
      await trx
        .insertInto('join_request')
        .values({ enterprise_id: hengyue, account_id: applicant, status: 'pending', created_at: now })
        .execute();
    }
    return true;
  });
}
