import type { PortalRouter, PortalUser } from '@portal/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

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
