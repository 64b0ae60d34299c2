import { Authority, type CertificationStatus, type PortalRouter, type PortalUser, Role } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { lockEnterprise } from '../../platform/db/transaction.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { BadRequestError, ConflictError } from '../../platform/lib/errors.js';

export interface AccountProfile {
  id: number;
  username: string;
  name: string;
  phone: string;
  email: string;
  number: string;
  status: string;
  enterpriseId: number | null;
  enterpriseName: string;
  /** The enterprise's 企业认证 status; 'none' for an account without an enterprise. */
  certificationStatus: CertificationStatus;
  /** Active, in an active enterprise (or none): may log in and use sessions. */
  usable: boolean;
  /** Set by 新增 and 重置密码: the central login asks for a new password first. */
  mustChangePassword: boolean;
  /** Role codes and the authority codes they grant (own roles and the account's groups' roles), sorted, without duplicates. */
  authorities: string[];
}

/** What the central login's steps after the password depend on. */
export interface LoginState {
  username: string;
  mustChangePassword: boolean;
  /** When the holder last set the password (null: set before password expiry was tracked). */
  passwordChangedAt: string | null;
  twoFactorEnrolled: boolean;
  /**
   * The password, the two-factor secret, enrolment and last accepted code, and the last login: a
   * login step's proof is tied to it, so any of them changing spends the proof.
   */
  proofState: string;
}

/** A registered account: its enterprise, or the existing enterprise it asks to join. */
export interface RegisteredAccount {
  accountId: number;
  enterpriseId: number | null;
  requested: { id: number; name: string } | null;
}

/** Guard rails: what an administrator is told who tries to disable, delete or demote themself. */
export const SELF_DEMOTION_REFUSED = '不能停用、删除或降级自己的账号';

/** An account may log in and keep sessions when it is active and its enterprise (if any) is too (停用). */
export function isUsable(status: string, enterpriseStatus: string | null): boolean {
  return status === 'active' && (enterpriseStatus ?? 'active') === 'active';
}

export class AccountRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Login accepts a username or the account's phone number; a deleted account is no longer found. */
  async findForLogin(login: string) {
    const row = await this.db
      .selectFrom('account')
      .leftJoin('enterprise', 'enterprise.id', 'account.enterprise_id')
      .select([
        'account.id',
        'account.username',
        'account.password_hash',
        'account.status',
        'account.must_change_password',
        'account.name',
        'account.enterprise_id',
        'enterprise.status as enterprise_status',
      ])
      .where((eb) => eb.or([eb('account.username', '=', login), eb('account.phone', '=', login)]))
      .where('account.status', '!=', 'deleted')
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      id: row.id,
      username: row.username,
      password_hash: row.password_hash,
      mustChangePassword: row.must_change_password === 1,
      usable: isUsable(row.status, row.enterprise_status),
      name: row.name,
      enterpriseId: row.enterprise_id,
      /** Why an unusable account may not log in (登录日志's reason). */
      refusal:
        row.status !== 'active' ? ('disabled' as const) : row.enterprise_status === 'disabled' ? ('enterprise-disabled' as const) : null,
    };
  }

  /** The portal opens sessions for the CAS user of that name, if it may still log in. */
  async findUsableByUsername(username: string): Promise<{ id: number } | undefined> {
    const row = await this.db
      .selectFrom('account')
      .leftJoin('enterprise', 'enterprise.id', 'account.enterprise_id')
      .select(['account.id', 'account.status', 'enterprise.status as enterprise_status'])
      .where('account.username', '=', username)
      .executeTakeFirst();
    return row && isUsable(row.status, row.enterprise_status) ? { id: row.id } : undefined;
  }

  async passwordHash(accountId: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('account').select('password_hash').where('id', '=', accountId).executeTakeFirst();
    return row?.password_hash;
  }

  /** A new password; `within` (what the change ends, its audit row) commits with it. */
  async setPasswordHash<T>(accountId: number, passwordHash: string, within: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('account')
        // A password the account holder chose ends the must-change state of an initial one.
        .set({ password_hash: passwordHash, must_change_password: 0, updated_at: new Date().toISOString() })
        .where('id', '=', accountId)
        .execute();
      // 信任此设备: a new password ends every browser's trust (whoever knew the old one may have been trusted).
      await trx.deleteFrom('trusted_device').where('account_id', '=', accountId).execute();
      return within(trx);
    });
  }

  /** The last successful login (账号管理's 最近登录, the dashboard's active accounts), inside the login's transaction. */
  async markLoggedIn(trx: Kysely<Database>, accountId: number): Promise<void> {
    await trx.updateTable('account').set({ last_login_at: new Date().toISOString() }).where('id', '=', accountId).execute();
  }

  /**
   * Registration (spec section 5), in one transaction with `within` (spending the SMS code or
   * the invitation, the audit rows); a taken username or phone refuses it all. Naming a new enterprise
   * creates it, administered by the new account. Naming an existing one makes an account without an
   * enterprise whose 加入申请 the caller records (`requested`), unless the code was that enterprise's
   * invitation (`invitedTo`): then the account joins it at once as staff.
   */
  async register(
    input: { username: string; email: string; enterpriseName: string; phone: string; passwordHash: string; invitedTo?: number | undefined },
    within: (trx: Kysely<Database>, created: RegisteredAccount) => Promise<void>,
  ): Promise<RegisteredAccount> {
    const now = new Date().toISOString();
    try {
      return await this.db.transaction().execute(async (trx) => {
        if (await trx.selectFrom('account').select('id').where('username', '=', input.username).executeTakeFirst()) {
          throw new ConflictError('用户名已存在');
        }
        if (await trx.selectFrom('account').select('id').where('phone', '=', input.phone).executeTakeFirst()) {
          throw new ConflictError('该手机号已注册，请直接登录');
        }
        let enterpriseId: number | null = input.invitedTo ?? null;
        let requested: RegisteredAccount['requested'] = null;
        let founded = false;
        if (enterpriseId === null && input.enterpriseName) {
          const existing = await trx
            .selectFrom('enterprise')
            .select(['id', 'name'])
            .where('name', '=', input.enterpriseName)
            .executeTakeFirst();
          if (existing) {
            requested = existing;
          } else {
            const row = await trx
              .insertInto('enterprise')
              .values({ name: input.enterpriseName, certification_status: 'none', created_at: now })
              .returning('id')
              .executeTakeFirstOrThrow();
            enterpriseId = row.id;
            founded = true;
          }
        }
        const account = await trx
          .insertInto('account')
          .values({
            username: input.username,
            name: input.username,
            phone: input.phone,
            email: input.email,
            number: '',
            password_hash: input.passwordHash,
            enterprise_id: enterpriseId,
            status: 'active',
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        // Whoever registers an enterprise administers it (pending certification); others start as staff.
        const roleCode = founded ? Role.EnterpriseAdmin : Role.EnterpriseStaff;
        const role = await trx
          .selectFrom('role')
          .select('id')
          .where('enterprise_id', 'is', null)
          .where('code', '=', roleCode)
          .executeTakeFirst();
        if (role) await trx.insertInto('account_role').values({ account_id: account.id, role_id: role.id }).execute();
        const created = { accountId: account.id, enterpriseId, requested };
        await within(trx, created);
        return created;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError('用户名或手机号已注册');
      throw err;
    }
  }

  /** The ids of the roles the account holds, its own and its groups' (安全设置's 按角色). */
  async roleIds(accountId: number): Promise<number[]> {
    const direct = this.db.selectFrom('account_role').select('account_role.role_id').where('account_role.account_id', '=', accountId);
    const viaGroups = this.db
      .selectFrom('account_group_member')
      .innerJoin('account_group_role', 'account_group_role.group_id', 'account_group_member.group_id')
      .select('account_group_role.role_id')
      .where('account_group_member.account_id', '=', accountId);
    return (await direct.union(viaGroups).execute()).map((r) => r.role_id);
  }

  async profile(accountId: number): Promise<AccountProfile | undefined> {
    const person = await this.person(accountId);
    if (!person) return undefined;
    // Spec section 6 and 账号组: an account holds its own roles and those of its groups.
    const direct = this.db.selectFrom('account_role').select('account_role.role_id').where('account_role.account_id', '=', accountId);
    const viaGroups = this.db
      .selectFrom('account_group_member')
      .innerJoin('account_group_role', 'account_group_role.group_id', 'account_group_member.group_id')
      .select('account_group_role.role_id')
      .where('account_group_member.account_id', '=', accountId);
    const grants = await this.db
      .selectFrom('role')
      .leftJoin('role_authority', 'role_authority.role_id', 'role.id')
      .select(['role.code', 'role_authority.authority'])
      .where('role.id', 'in', direct.union(viaGroups))
      .execute();
    const authorities = new Set<string>();
    for (const g of grants) {
      authorities.add(g.code);
      if (g.authority) authorities.add(g.authority);
    }
    return { ...person, authorities: [...authorities].sort() };
  }

  /**
   * The profile without the roles and authorities, in one read: what an OpenID Connect token's claims
   * and its usability check need (the roles claim is read on its own, only when asked for).
   */
  async person(accountId: number): Promise<Omit<AccountProfile, 'authorities'> | undefined> {
    const row = await this.db
      .selectFrom('account')
      .leftJoin('enterprise', 'enterprise.id', 'account.enterprise_id')
      .select([
        'account.id',
        'account.username',
        'account.name',
        'account.phone',
        'account.email',
        'account.number',
        'account.status',
        'account.enterprise_id',
        'enterprise.name as enterprise_name',
        'enterprise.status as enterprise_status',
        'enterprise.certification_status',
        'account.must_change_password',
      ])
      .where('account.id', '=', accountId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      id: row.id,
      username: row.username,
      name: row.name,
      phone: row.phone,
      email: row.email,
      number: row.number,
      status: row.status,
      enterpriseId: row.enterprise_id,
      enterpriseName: row.enterprise_name ?? '',
      certificationStatus: row.certification_status ?? 'none',
      // A disabled enterprise's accounts are as good as disabled (租户管理).
      usable: isUsable(row.status, row.enterprise_status),
      mustChangePassword: row.must_change_password === 1,
    };
  }

  /**
   * The accounts of an enterprise that administer it: active and holding `org:account` through one of
   * their roles or their groups' roles (guard rails).
   */
  administrators(enterpriseId: number, db: Kysely<Database> = this.db): Promise<number[]> {
    return this.holders(Authority.OrgAccount, enterpriseId, db);
  }

  /** Which of `accountIds` hold one of `roleIds`, their own or through a group (安全合规's 按角色 coverage). */
  async holdingRoles(accountIds: readonly number[], roleIds: readonly number[]): Promise<number[]> {
    if (accountIds.length === 0 || roleIds.length === 0) return [];
    const direct = this.db
      .selectFrom('account_role')
      .select('account_role.account_id')
      .where('account_role.account_id', 'in', [...accountIds])
      .where('account_role.role_id', 'in', [...roleIds]);
    const viaGroups = this.db
      .selectFrom('account_group_member')
      .innerJoin('account_group_role', 'account_group_role.group_id', 'account_group_member.group_id')
      .select('account_group_member.account_id')
      .where('account_group_member.account_id', 'in', [...accountIds])
      .where('account_group_role.role_id', 'in', [...roleIds]);
    return (await direct.union(viaGroups).execute()).map((r) => r.account_id);
  }

  /**
   * Active accounts holding `authority` through one of their roles or their groups' roles: of one
   * enterprise, or of any when `enterpriseId` is null (platform reviewers).
   */
  async holders(authority: string, enterpriseId: number | null, db: Kysely<Database> = this.db): Promise<number[]> {
    const direct = db
      .selectFrom('account_role')
      .innerJoin('role_authority', 'role_authority.role_id', 'account_role.role_id')
      .select('account_role.account_id')
      .where('role_authority.authority', '=', authority);
    const viaGroups = db
      .selectFrom('account_group_member')
      .innerJoin('account_group_role', 'account_group_role.group_id', 'account_group_member.group_id')
      .innerJoin('role_authority', 'role_authority.role_id', 'account_group_role.role_id')
      .select('account_group_member.account_id')
      .where('role_authority.authority', '=', authority);
    let query = db.selectFrom('account').select('id').where('status', '=', 'active').where('id', 'in', direct.union(viaGroups));
    if (enterpriseId !== null) query = query.where('enterprise_id', '=', enterpriseId);
    const rows = await query.orderBy('id').execute();
    return rows.map((r) => r.id);
  }

  /**
   * Guard rails of every write that changes who administers an enterprise, called inside its
   * transaction before the commit: the enterprise keeps an administrator and the acting administrator
   * stays one (no one disables, deletes or demotes themself). Throwing rolls the write back.
   * `actorWasAdministrator` false: the actor manages groups or roles without org:account, so has no
   * administration of its own to lose.
   */
  async assertAdministratorsRemain(
    trx: Kysely<Database>,
    enterpriseId: number,
    actorAccountId: number,
    actorWasAdministrator = true,
  ): Promise<void> {
    // Two such writes at once (two administrators disabling each other): on PostgreSQL the second waits
    // here for the first to commit and then counts with its result; SQLite runs one write transaction at a time.
    await lockEnterprise(trx, enterpriseId);
    const admins = await this.administrators(enterpriseId, trx);
    if (admins.length === 0) throw new ConflictError('企业至少需要保留一名启用的管理员');
    if (!actorWasAdministrator) return;
    const actor = await trx.selectFrom('account').select('enterprise_id').where('id', '=', actorAccountId).executeTakeFirst();
    // Operators acting on another enterprise are not its administrators to begin with.
    if (actor?.enterprise_id === enterpriseId && !admins.includes(actorAccountId)) {
      throw new BadRequestError(SELF_DEMOTION_REFUSED);
    }
  }

  /** The console menus the holder of `authorities` may see (spec section 6: a parent without permitted children is dropped). */
  async routers(authorities: readonly string[]): Promise<PortalRouter[]> {
    const rows = await this.db.selectFrom('portal_menu').selectAll().orderBy('sort').orderBy('id').execute();
    const held = new Set(authorities);
    const build = (parentId: number | null): PortalRouter[] =>
      rows
        .filter((r) => r.parent_id === parentId && held.has(r.auth_code))
        .flatMap((r) => {
          const isParent = rows.some((c) => c.parent_id === r.id);
          const children = build(r.id);
          if (isParent && children.length === 0) return [];
          return [{ authCode: r.auth_code, name: r.name, path: r.path, meta: { title: r.title, icon: r.icon }, children }];
        });
    return build(null);
  }

  async loginState(accountId: number): Promise<LoginState | undefined> {
    const row = await this.db
      .selectFrom('account')
      .select([
        'username',
        'password_hash',
        'must_change_password',
        'password_changed_at',
        'totp_secret',
        'totp_enabled_at',
        'totp_last_step',
        'last_login_at',
      ])
      .where('id', '=', accountId)
      .where('status', '!=', 'deleted')
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      username: row.username,
      mustChangePassword: row.must_change_password === 1,
      passwordChangedAt: row.password_changed_at,
      twoFactorEnrolled: !!row.totp_enabled_at,
      // bigint arrives as a string on PostgreSQL: String() makes both databases agree.
      proofState: JSON.stringify([
        row.password_hash,
        row.totp_secret,
        row.totp_enabled_at,
        row.totp_last_step === null ? null : String(row.totp_last_step),
        row.last_login_at,
      ]),
    };
  }

  /** The top-level console applications, for visitors (spec section 4, "portal app menus"). */
  appMenus() {
    return this.db
      .selectFrom('portal_menu')
      .select(['name', 'path', 'title', 'icon'])
      .where('parent_id', 'is', null)
      .orderBy('sort')
      .execute();
  }
}

export function portalUser(p: AccountProfile): PortalUser {
  return {
    name: p.name,
    username: p.username,
    telephone: p.phone,
    number: p.number,
    enterpriseName: p.enterpriseName,
    enterpriseId: p.enterpriseId,
    certificationStatus: p.certificationStatus,
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    accountRepository: AccountRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('accountRepository', new AccountRepository(app.database.db));
  },
  { name: 'account-repository' },
);
