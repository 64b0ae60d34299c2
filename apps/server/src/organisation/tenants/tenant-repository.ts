import { type CertificationStatus, type EnterpriseStatus, Role, type TenantRow } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { containsText } from '../../platform/lib/text-search.js';

export interface TenantFilters {
  keyword: string;
  status?: EnterpriseStatus | undefined;
  certificationStatus?: CertificationStatus | undefined;
}

/** 租户管理: the enterprises of the platform, their people and their state. */
export class TenantRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** One page of enterprises (newest first), with their accounts (not deleted) and active administrators. */
  async page(filters: TenantFilters, offset: number, limit: number): Promise<{ total: number; rows: TenantRow[] }> {
    let query = this.db.selectFrom('enterprise');
    if (filters.keyword) query = query.where(containsText('enterprise.name', filters.keyword));
    if (filters.status) query = query.where('enterprise.status', '=', filters.status);
    if (filters.certificationStatus) query = query.where('enterprise.certification_status', '=', filters.certificationStatus);
    const [count, enterprises] = await Promise.all([
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      query
        .select((eb) => [
          'enterprise.id',
          'enterprise.name',
          'enterprise.certification_status',
          'enterprise.status',
          'enterprise.created_at',
          eb
            .selectFrom('account')
            .select(eb.fn.countAll<number>().as('n'))
            .whereRef('account.enterprise_id', '=', 'enterprise.id')
            .where('account.status', '!=', 'deleted')
            .as('account_count'),
        ])
        .orderBy('enterprise.id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute(),
    ]);
    const admins = await this.administratorNames(enterprises.map((e) => e.id));
    return {
      total: Number(count.n),
      rows: enterprises.map((e) => ({
        id: e.id,
        name: e.name,
        certificationStatus: e.certification_status,
        status: e.status,
        accountCount: Number(e.account_count ?? 0),
        admins: admins.filter((a) => a.enterprise_id === e.id).map((a) => a.name),
        createdAt: chinaTime(new Date(e.created_at)),
      })),
    };
  }

  /** Active holders of 企业管理员 (on their own or through a group) of each enterprise. */
  private async administratorNames(enterpriseIds: readonly number[]) {
    if (enterpriseIds.length === 0) return [];
    const adminRole = this.db
      .selectFrom('role')
      .select('role.id')
      .where('role.enterprise_id', 'is', null)
      .where('role.code', '=', Role.EnterpriseAdmin);
    const direct = this.db.selectFrom('account_role').select('account_role.account_id').where('account_role.role_id', 'in', adminRole);
    const viaGroups = this.db
      .selectFrom('account_group_member')
      .innerJoin('account_group_role', 'account_group_role.group_id', 'account_group_member.group_id')
      .select('account_group_member.account_id')
      .where('account_group_role.role_id', 'in', adminRole);
    return this.db
      .selectFrom('account')
      .select(['enterprise_id', 'name'])
      .where('enterprise_id', 'in', enterpriseIds)
      .where('status', '=', 'active')
      .where('id', 'in', direct.union(viaGroups))
      .orderBy('id')
      .execute();
  }

  byId(id: number) {
    return this.db.selectFrom('enterprise').select(['id', 'name', 'status']).where('id', '=', id).executeTakeFirst();
  }

  /** Which of a new enterprise's name and credit code another enterprise already has. */
  async taken(name: string, creditCode: string, db: Kysely<Database> = this.db): Promise<{ name: boolean; creditCode: boolean }> {
    const rows = await db
      .selectFrom('enterprise')
      .select(['name', 'credit_code'])
      .where((eb) => eb.or([eb('name', '=', name), eb('credit_code', '=', creditCode)]))
      .execute();
    return { name: rows.some((r) => r.name === name), creditCode: rows.some((r) => r.credit_code === creditCode) };
  }

  /**
   * 新建企业: an enterprise as registration creates one (未认证), with its credit code and its first
   * administrator as the contact. Answers its id and the 企业管理员 system role's.
   */
  async create(
    trx: Kysely<Database>,
    input: { name: string; creditCode: string; contactName: string; contactPhone: string },
  ): Promise<{ id: number; adminRoleId: number }> {
    const now = new Date().toISOString();
    const { id } = await trx
      .insertInto('enterprise')
      .values({
        name: input.name,
        credit_code: input.creditCode,
        certification_status: 'none',
        contact_name: input.contactName,
        contact_phone: input.contactPhone,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const role = await trx
      .selectFrom('role')
      .select('id')
      .where('enterprise_id', 'is', null)
      .where('code', '=', Role.EnterpriseAdmin)
      .executeTakeFirstOrThrow();
    return { id, adminRoleId: role.id };
  }

  /** Sets the state; answers the enterprise's accounts, whose sessions a disabling ends. */
  async setStatus(trx: Kysely<Database>, id: number, status: EnterpriseStatus): Promise<number[]> {
    await trx.updateTable('enterprise').set({ status }).where('id', '=', id).execute();
    const accounts = await trx.selectFrom('account').select('id').where('enterprise_id', '=', id).execute();
    return accounts.map((a) => a.id);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    tenantRepository: TenantRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('tenantRepository', new TenantRepository(app.database.db));
  },
  { name: 'tenant-repository' },
);
