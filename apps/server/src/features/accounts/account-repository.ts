import { type PortalRouter, type PortalUser, Role } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { ConflictError } from '../../lib/errors.js';

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
  /** Role codes and the authority codes they grant, sorted, without duplicates. */
  authorities: string[];
}

export class AccountRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Login accepts a username or the account's phone number. */
  findForLogin(login: string) {
    return this.db
      .selectFrom('account')
      .select(['id', 'username', 'password_hash', 'status'])
      .where((eb) => eb.or([eb('username', '=', login), eb('phone', '=', login)]))
      .executeTakeFirst();
  }

  /** The portal opens sessions for the CAS user of that name. */
  findByUsername(username: string) {
    return this.db.selectFrom('account').select(['id', 'status']).where('username', '=', username).executeTakeFirst();
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
        .set({ password_hash: passwordHash, updated_at: new Date().toISOString() })
        .where('id', '=', accountId)
        .execute();
      return within(trx);
    });
  }

  /**
   * Registration (spec section 5): the account, and its enterprise when named, in one transaction with
   * `within` (spending the SMS code, the audit row); a taken username, phone or enterprise name refuses it all.
   */
  async register(
    input: { username: string; email: string; enterpriseName: string; phone: string; passwordHash: string },
    within: (trx: Kysely<Database>, created: { accountId: number; enterpriseId: number | null }) => Promise<void>,
  ): Promise<{ accountId: number; enterpriseId: number | null }> {
    const now = new Date().toISOString();
    try {
      return await this.db.transaction().execute(async (trx) => {
        if (await trx.selectFrom('account').select('id').where('username', '=', input.username).executeTakeFirst()) {
          throw new ConflictError('用户名已存在');
        }
        if (await trx.selectFrom('account').select('id').where('phone', '=', input.phone).executeTakeFirst()) {
          throw new ConflictError('该手机号已注册，请直接登录');
        }
        let enterpriseId: number | null = null;
        if (input.enterpriseName) {
          if (await trx.selectFrom('enterprise').select('id').where('name', '=', input.enterpriseName).executeTakeFirst()) {
            throw new ConflictError('该企业已注册，请联系企业管理员为您开通账号');
          }
          const row = await trx
            .insertInto('enterprise')
            .values({ name: input.enterpriseName, certification_status: 'pending', created_at: now })
            .returning('id')
            .executeTakeFirstOrThrow();
          enterpriseId = row.id;
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
        const roleCode = enterpriseId === null ? Role.EnterpriseStaff : Role.EnterpriseAdmin;
        const role = await trx.selectFrom('role').select('id').where('code', '=', roleCode).executeTakeFirst();
        if (role) await trx.insertInto('account_role').values({ account_id: account.id, role_id: role.id }).execute();
        const created = { accountId: account.id, enterpriseId };
        await within(trx, created);
        return created;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError('用户名或手机号已注册');
      throw err;
    }
  }

  async profile(accountId: number): Promise<AccountProfile | undefined> {
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
      ])
      .where('account.id', '=', accountId)
      .executeTakeFirst();
    if (!row) return undefined;
    const grants = await this.db
      .selectFrom('account_role')
      .innerJoin('role', 'role.id', 'account_role.role_id')
      .leftJoin('role_authority', 'role_authority.role_id', 'role.id')
      .select(['role.code', 'role_authority.authority'])
      .where('account_role.account_id', '=', accountId)
      .execute();
    const authorities = new Set<string>();
    for (const g of grants) {
      authorities.add(g.code);
      if (g.authority) authorities.add(g.authority);
    }
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
      authorities: [...authorities].sort(),
    };
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
