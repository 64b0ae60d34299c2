import { type RoleRow, TENANT_SYSTEM_ROLES } from '@portal/shared';
import fp from 'fastify-plugin';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

/** What 角色管理 writes of a custom role (its code is set once, at creation). */
export interface RoleInput {
  name: string;
  description: string;
  /** Tenant-grantable codes, already checked and completed with their parents. */
  authorities: string[];
}

export interface RoleRef {
  id: number;
  code: string;
  name: string;
  /** A system role (read-only); else a custom role of the enterprise. */
  system: boolean;
}

const TENANT_SYSTEM_CODES: readonly string[] = TENANT_SYSTEM_ROLES;

/** The roles an enterprise sees and grants: the tenant system roles and its own custom roles. */
const visibleTo = (enterpriseId: number) => (eb: ExpressionBuilder<Database, 'role'>) =>
  eb.or([
    eb('role.enterprise_id', '=', enterpriseId),
    eb.and([eb('role.enterprise_id', 'is', null), eb('role.code', 'in', TENANT_SYSTEM_CODES)]),
  ]);

/** System roles first, in TENANT_SYSTEM_ROLES order, then custom roles as they were created. */
const displayOrder = (r: { code: string; system: boolean; id: number }) =>
  r.system ? TENANT_SYSTEM_CODES.indexOf(r.code) : TENANT_SYSTEM_CODES.length + r.id;

/** 角色管理: an enterprise's roles, their authorities and holders. */
export class RoleRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The enterprise's roles with their authorities and the number of its accounts holding each, directly or through a group. */
  async list(enterpriseId: number): Promise<RoleRow[]> {
    const roles = await this.db
      .selectFrom('role')
      .select(['id', 'code', 'name', 'description', 'enterprise_id'])
      .where(visibleTo(enterpriseId))
      .execute();
    if (roles.length === 0) return [];
    const ids = roles.map((r) => r.id);
    const [grants, holders] = await Promise.all([
      this.db.selectFrom('role_authority').select(['role_id', 'authority']).where('role_id', 'in', ids).orderBy('authority').execute(),
      this.holderCounts(enterpriseId, ids),
    ]);
    return roles
      .map((r) => ({
        id: r.id,
        code: r.code,
        name: r.name,
        description: r.description,
        system: r.enterprise_id === null,
        authorities: grants.filter((g) => g.role_id === r.id).map((g) => g.authority),
        accountCount: holders.get(r.id) ?? 0,
      }))
      .sort((a, b) => displayOrder(a) - displayOrder(b));
  }

  /** Accounts of the enterprise (not deleted) holding each role, on their own or through a group. */
  private async holderCounts(enterpriseId: number, roleIds: number[]): Promise<Map<number, number>> {
    const direct = this.db.selectFrom('account_role').select(['account_role.role_id', 'account_role.account_id']);
    const viaGroups = this.db
      .selectFrom('account_group_member')
      .innerJoin('account_group_role', 'account_group_role.group_id', 'account_group_member.group_id')
      .select(['account_group_role.role_id', 'account_group_member.account_id']);
    const rows = await this.db
      .selectFrom(direct.union(viaGroups).as('holder'))
      .innerJoin('account', 'account.id', 'holder.account_id')
      .select((eb) => ['holder.role_id', eb.fn.count<number>('holder.account_id').distinct().as('n')])
      .where('account.enterprise_id', '=', enterpriseId)
      .where('account.status', '!=', 'deleted')
      .where('holder.role_id', 'in', roleIds)
      .groupBy('holder.role_id')
      .execute();
    return new Map(rows.map((r) => [r.role_id, Number(r.n)]));
  }

  /** A role the enterprise sees, or undefined (another enterprise's role is not there for it). */
  async byId(enterpriseId: number, id: number, db: Kysely<Database> = this.db): Promise<RoleRef | undefined> {
    const row = await db
      .selectFrom('role')
      .select(['id', 'code', 'name', 'enterprise_id'])
      .where('id', '=', id)
      .where(visibleTo(enterpriseId))
      .executeTakeFirst();
    return row && { id: row.id, code: row.code, name: row.name, system: row.enterprise_id === null };
  }

  /** Those of `ids` the enterprise may grant (to an account or a group). */
  async grantable(enterpriseId: number, ids: readonly number[], db: Kysely<Database> = this.db): Promise<RoleRef[]> {
    if (ids.length === 0) return [];
    const rows = await db
      .selectFrom('role')
      .select(['id', 'code', 'name', 'enterprise_id'])
      .where('id', 'in', ids)
      .where(visibleTo(enterpriseId))
      .execute();
    return rows.map((r) => ({ id: r.id, code: r.code, name: r.name, system: r.enterprise_id === null }));
  }

  /** A system role's code (any, the platform's included) or one of the enterprise's is taken. */
  async codeTaken(enterpriseId: number, code: string, db: Kysely<Database> = this.db): Promise<boolean> {
    const row = await db
      .selectFrom('role')
      .select('id')
      .where('code', '=', code)
      .where((eb) => eb.or([eb('enterprise_id', 'is', null), eb('enterprise_id', '=', enterpriseId)]))
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Another role the enterprise sees has this name. */
  async nameTaken(enterpriseId: number, name: string, exceptId?: number, db: Kysely<Database> = this.db): Promise<boolean> {
    let query = db.selectFrom('role').select('id').where('name', '=', name).where(visibleTo(enterpriseId));
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async create(trx: Kysely<Database>, enterpriseId: number, code: string, input: RoleInput): Promise<number> {
    const { id } = await trx
      .insertInto('role')
      .values({ enterprise_id: enterpriseId, code, name: input.name, description: input.description })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.grant(trx, id, input.authorities);
    return id;
  }

  async update(trx: Kysely<Database>, id: number, input: RoleInput): Promise<void> {
    await trx.updateTable('role').set({ name: input.name, description: input.description }).where('id', '=', id).execute();
    await trx.deleteFrom('role_authority').where('role_id', '=', id).execute();
    await this.grant(trx, id, input.authorities);
  }

  /** Its grants to accounts and groups go with it (foreign keys cascade). */
  async delete(trx: Kysely<Database>, id: number): Promise<void> {
    await trx.deleteFrom('role').where('id', '=', id).execute();
  }

  private async grant(trx: Kysely<Database>, roleId: number, authorities: readonly string[]): Promise<void> {
    if (authorities.length === 0) return;
    await trx
      .insertInto('role_authority')
      .values(authorities.map((authority) => ({ role_id: roleId, authority })))
      .execute();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    roleRepository: RoleRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('roleRepository', new RoleRepository(app.database.db));
  },
  { name: 'role-repository' },
);
