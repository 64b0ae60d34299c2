import {
  type MyApplication,
  RELEASABLE_ATTRIBUTES,
  type ReleasableAttribute,
  type SsoAppGrants,
  type SsoApplicationRow,
  type SsoApplicationStatus,
} from '@portal/shared';
import fp from 'fastify-plugin';
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { DialectName } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { chinaTime } from '../../lib/china-time.js';
import { containsText } from '../../lib/text-search.js';

/** 应用列表's row as stored; the routes add the integration settings (they depend on the configuration). */
export type SsoApplication = Omit<SsoApplicationRow, 'integration'>;

/** What 新建 and 编辑 write (already checked and normalised). */
export interface SsoApplicationInput {
  name: string;
  icon: string;
  category: string;
  description: string;
  servicePrefixes: string[];
  logoutUrl: string;
  attributes: ReleasableAttribute[];
  status: SsoApplicationStatus;
}

/** An application's service address, as the CAS's service registry looks it up by host. */
export interface ServiceCandidate {
  prefix: string;
  application: ServiceApplication;
}

/** What the CAS needs of an enterprise application: who owns it, whether it is on, where single logout goes, what it receives. */
export interface ServiceApplication {
  id: number;
  enterpriseId: number;
  name: string;
  status: SsoApplicationStatus;
  logoutUrl: string;
  attributes: ReleasableAttribute[];
}

/** A service address of another application, for the overlap check of 服务地址. */
export interface ExistingPrefix {
  applicationId: number;
  enterpriseId: number;
  name: string;
  prefix: string;
}

const attributeList = (stored: string): ReleasableAttribute[] => RELEASABLE_ATTRIBUTES.filter((a) => stored.split(',').includes(a));

/**
 * 应用列表 and 应用授权 (issue 17): an enterprise's applications on single sign-on, their service
 * addresses and who may sign in to them; the CAS reads them here at every login and validation, so a
 * change holds at once on every instance.
 */
export class SsoAppRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  private async withPrefixes(
    rows: {
      id: number;
      name: string;
      icon: string;
      category: string;
      description: string;
      logout_url: string;
      attributes: string;
      status: SsoApplicationStatus;
      all_members: number;
      created_at: string;
    }[],
  ): Promise<SsoApplication[]> {
    const ids = rows.map((r) => r.id);
    const prefixes = ids.length
      ? await this.db
          .selectFrom('sso_application_service')
          .select(['application_id', 'prefix'])
          .where('application_id', 'in', ids)
          .orderBy('id')
          .execute()
      : [];
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      icon: r.icon,
      category: r.category,
      description: r.description,
      protocol: 'cas3',
      servicePrefixes: prefixes.filter((p) => p.application_id === r.id).map((p) => p.prefix),
      logoutUrl: r.logout_url,
      attributes: attributeList(r.attributes),
      status: r.status,
      allMembers: r.all_members === 1,
      createdAt: chinaTime(new Date(r.created_at)),
    }));
  }

  private columns() {
    return [
      'sso_application.id',
      'sso_application.name',
      'sso_application.icon',
      'sso_application.category',
      'sso_application.description',
      'sso_application.logout_url',
      'sso_application.attributes',
      'sso_application.status',
      'sso_application.all_members',
      'sso_application.created_at',
    ] as const;
  }

  /** One page of the enterprise's applications (newest first); `keyword` is part of the name or category. */
  async page(
    enterpriseId: number,
    filter: { keyword: string; status: SsoApplicationStatus | undefined },
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: SsoApplication[] }> {
    let query = this.db.selectFrom('sso_application').where('sso_application.enterprise_id', '=', enterpriseId);
    if (filter.keyword) {
      const key = filter.keyword;
      query = query.where((eb) => eb.or([containsText('sso_application.name', key), containsText('sso_application.category', key)]));
    }
    if (filter.status) query = query.where('sso_application.status', '=', filter.status);
    const [count, rows] = await Promise.all([
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      query.select(this.columns()).orderBy('sso_application.id', 'desc').offset(offset).limit(limit).execute(),
    ]);
    return { total: Number(count.n), rows: await this.withPrefixes(rows) };
  }

  /** An application of the enterprise, or undefined (another enterprise's is not there for it). */
  async byId(enterpriseId: number, id: number): Promise<SsoApplication | undefined> {
    const row = await this.db
      .selectFrom('sso_application')
      .select(this.columns())
      .where('id', '=', id)
      .where('enterprise_id', '=', enterpriseId)
      .executeTakeFirst();
    return row ? (await this.withPrefixes([row]))[0] : undefined;
  }

  /** Another application of the enterprise has this name. */
  async nameTaken(enterpriseId: number, name: string, exceptId?: number): Promise<boolean> {
    let query = this.db.selectFrom('sso_application').select('id').where('enterprise_id', '=', enterpriseId).where('name', '=', name);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  /**
   * The service addresses of all applications on these hosts, read inside the write's transaction. On
   * PostgreSQL the hosts are locked first (advisory, in a fixed order) so two enterprises claiming the
   * same address at once are checked one after the other; SQLite runs one write transaction at a time.
   */
  async prefixesOnHosts(trx: Kysely<Database>, hosts: readonly string[]): Promise<ExistingPrefix[]> {
    const sorted = [...new Set(hosts)].sort();
    if (sorted.length === 0) return [];
    if (this.dialect === 'postgres') {
      for (const host of sorted) await sql`select pg_advisory_xact_lock(hashtext(${`sso-host|${host}`}))`.execute(trx);
    }
    const rows = await trx
      .selectFrom('sso_application_service')
      .innerJoin('sso_application', 'sso_application.id', 'sso_application_service.application_id')
      .select([
        'sso_application.id as application_id',
        'sso_application.enterprise_id',
        'sso_application.name',
        'sso_application_service.prefix',
      ])
      .where('sso_application_service.host', 'in', sorted)
      .execute();
    return rows.map((r) => ({ applicationId: r.application_id, enterpriseId: r.enterprise_id, name: r.name, prefix: r.prefix }));
  }

  async create(trx: Kysely<Database>, enterpriseId: number, input: SsoApplicationInput): Promise<number> {
    const now = new Date().toISOString();
    const { id } = await trx
      .insertInto('sso_application')
      .values({ enterprise_id: enterpriseId, ...SsoAppRepository.columnsOf(input), protocol: 'cas3', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.writePrefixes(trx, id, enterpriseId, input.servicePrefixes);
    return id;
  }

  async update(trx: Kysely<Database>, enterpriseId: number, id: number, input: SsoApplicationInput): Promise<void> {
    await trx
      .updateTable('sso_application')
      .set({ ...SsoAppRepository.columnsOf(input), updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
    await trx.deleteFrom('sso_application_service').where('application_id', '=', id).execute();
    await this.writePrefixes(trx, id, enterpriseId, input.servicePrefixes);
  }

  /** Its service addresses and grants go with it (foreign keys cascade); its tickets no longer validate. */
  async delete(trx: Kysely<Database>, id: number): Promise<void> {
    await trx.deleteFrom('sso_application').where('id', '=', id).execute();
  }

  private static columnsOf(input: SsoApplicationInput) {
    return {
      name: input.name,
      icon: input.icon,
      category: input.category,
      description: input.description,
      logout_url: input.logoutUrl,
      attributes: input.attributes.join(','),
      status: input.status,
    };
  }

  private async writePrefixes(trx: Kysely<Database>, applicationId: number, enterpriseId: number, prefixes: readonly string[]) {
    if (prefixes.length === 0) return;
    await trx
      .insertInto('sso_application_service')
      .values(
        prefixes.map((prefix) => ({ application_id: applicationId, enterprise_id: enterpriseId, prefix, host: new URL(prefix).hostname })),
      )
      .execute();
  }

  /** 应用授权 of an application: the groups, roles and accounts granted (those deleted since are left out). */
  /** Names of the applications whose 应用授权 names this group or role (a group or role in use is not deleted). */
  async grantedTo(trx: Kysely<Database>, subjectType: 'group' | 'role', subjectId: number): Promise<string[]> {
    const rows = await trx
      .selectFrom('sso_app_grant')
      .innerJoin('sso_application', 'sso_application.id', 'sso_app_grant.application_id')
      .select('sso_application.name')
      .where('sso_app_grant.subject_type', '=', subjectType)
      .where('sso_app_grant.subject_id', '=', subjectId)
      .orderBy('sso_application.name')
      .execute();
    return rows.map((r) => r.name);
  }

  async grants(applicationId: number): Promise<SsoAppGrants> {
    const subjects = (type: 'group' | 'role' | 'account') =>
      this.db.selectFrom('sso_app_grant').select('subject_id').where('application_id', '=', applicationId).where('subject_type', '=', type);
    const [app, groups, roles, accounts] = await Promise.all([
      this.db.selectFrom('sso_application').select('all_members').where('id', '=', applicationId).executeTakeFirst(),
      this.db.selectFrom('account_group').select(['id', 'name']).where('id', 'in', subjects('group')).orderBy('id').execute(),
      this.db.selectFrom('role').select(['id', 'name']).where('id', 'in', subjects('role')).orderBy('id').execute(),
      this.db
        .selectFrom('account')
        .select(['id', 'name', 'username'])
        .where('id', 'in', subjects('account'))
        .where('status', '!=', 'deleted')
        .orderBy('username')
        .execute(),
    ]);
    return { allMembers: app?.all_members === 1, groups, roles, accounts };
  }

  /** Replaces an application's grants (none: only 企业全员, if switched on, may sign in). */
  async setGrants(
    trx: Kysely<Database>,
    applicationId: number,
    grants: { allMembers: boolean; groupIds: readonly number[]; roleIds: readonly number[]; accountIds: readonly number[] },
  ): Promise<void> {
    await trx
      .updateTable('sso_application')
      .set({ all_members: grants.allMembers ? 1 : 0, updated_at: new Date().toISOString() })
      .where('id', '=', applicationId)
      .execute();
    await trx.deleteFrom('sso_app_grant').where('application_id', '=', applicationId).execute();
    const rows = [
      ...grants.groupIds.map((id) => ({ application_id: applicationId, subject_type: 'group' as const, subject_id: id })),
      ...grants.roleIds.map((id) => ({ application_id: applicationId, subject_type: 'role' as const, subject_id: id })),
      ...grants.accountIds.map((id) => ({ application_id: applicationId, subject_type: 'account' as const, subject_id: id })),
    ];
    if (rows.length) await trx.insertInto('sso_app_grant').values(rows).execute();
  }

  /** Those of `ids` that are groups of the enterprise. */
  groupsOf(enterpriseId: number, ids: readonly number[]): Promise<{ id: number; name: string }[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('account_group')
      .select(['id', 'name'])
      .where('enterprise_id', '=', enterpriseId)
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
  }

  /** Those of `ids` that are accounts of the enterprise (not deleted). */
  accountsOf(enterpriseId: number, ids: readonly number[]): Promise<{ id: number; username: string }[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('account')
      .select(['id', 'username'])
      .where('enterprise_id', '=', enterpriseId)
      .where('status', '!=', 'deleted')
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
  }

  /** The service addresses on a host with their applications (whatever their state), for the CAS's service registry. */
  async servicesOnHost(host: string): Promise<ServiceCandidate[]> {
    const rows = await this.db
      .selectFrom('sso_application_service')
      .innerJoin('sso_application', 'sso_application.id', 'sso_application_service.application_id')
      .select([
        'sso_application_service.prefix',
        'sso_application.id',
        'sso_application.enterprise_id',
        'sso_application.name',
        'sso_application.status',
        'sso_application.logout_url',
        'sso_application.attributes',
      ])
      .where('sso_application_service.host', '=', host)
      .execute();
    return rows.map((r) => ({
      prefix: r.prefix,
      application: {
        id: r.id,
        enterpriseId: r.enterprise_id,
        name: r.name,
        status: r.status,
        logoutUrl: r.logout_url,
        attributes: attributeList(r.attributes),
      },
    }));
  }

  /** An application as the CAS sees it (a ticket's, at validation). */
  async application(id: number): Promise<ServiceApplication | undefined> {
    const r = await this.db
      .selectFrom('sso_application')
      .select(['id', 'enterprise_id', 'name', 'status', 'logout_url', 'attributes'])
      .where('id', '=', id)
      .executeTakeFirst();
    return r
      ? {
          id: r.id,
          enterpriseId: r.enterprise_id,
          name: r.name,
          status: r.status,
          logoutUrl: r.logout_url,
          attributes: attributeList(r.attributes),
        }
      : undefined;
  }

  /**
   * Applications an account may sign in to (应用授权): enabled, of the account's enterprise, and open
   * to 企业全员 or granted to the account itself, to one of its groups, or to one of its roles (its own
   * or its groups').
   */
  private allowed(accountId: number) {
    return (eb: ExpressionBuilder<Database, 'sso_application'>): Expression<SqlBool> => {
      const groups = eb
        .selectFrom('account_group_member')
        .select('account_group_member.group_id')
        .where('account_group_member.account_id', '=', accountId);
      const roles = eb
        .selectFrom('account_role')
        .select('account_role.role_id')
        .where('account_role.account_id', '=', accountId)
        .union(
          eb
            .selectFrom('account_group_member')
            .innerJoin('account_group_role', 'account_group_role.group_id', 'account_group_member.group_id')
            .select('account_group_role.role_id')
            .where('account_group_member.account_id', '=', accountId),
        );
      const granted = eb
        .selectFrom('sso_app_grant')
        .select('sso_app_grant.application_id')
        .whereRef('sso_app_grant.application_id', '=', 'sso_application.id')
        .where((g) =>
          g.or([
            g.and([g('sso_app_grant.subject_type', '=', 'account'), g('sso_app_grant.subject_id', '=', accountId)]),
            g.and([g('sso_app_grant.subject_type', '=', 'group'), g('sso_app_grant.subject_id', 'in', groups)]),
            g.and([g('sso_app_grant.subject_type', '=', 'role'), g('sso_app_grant.subject_id', 'in', roles)]),
          ]),
        );
      return eb.and([
        eb('sso_application.status', '=', 'enabled'),
        eb(
          'sso_application.enterprise_id',
          '=',
          eb.selectFrom('account').select('account.enterprise_id').where('account.id', '=', accountId),
        ),
        eb.or([eb('sso_application.all_members', '=', 1), eb.exists(granted)]),
      ]);
    };
  }

  /** Whether the account may sign in to the application now (checked at every ticket and every validation). */
  async mayUse(accountId: number, applicationId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('sso_application')
      .select('sso_application.id')
      .where('sso_application.id', '=', applicationId)
      .where(this.allowed(accountId))
      .executeTakeFirst();
    return row !== undefined;
  }

  /** 我的应用: the applications the account may open, as they were created; each opens at its first service address. */
  async usableBy(accountId: number): Promise<MyApplication[]> {
    const rows = await this.db
      .selectFrom('sso_application')
      .select([
        'sso_application.id',
        'sso_application.name',
        'sso_application.icon',
        'sso_application.category',
        'sso_application.description',
      ])
      .select((eb) =>
        eb
          .selectFrom('sso_application_service')
          .select('sso_application_service.prefix')
          .whereRef('sso_application_service.application_id', '=', 'sso_application.id')
          .orderBy('sso_application_service.id')
          .limit(1)
          .as('url'),
      )
      .where(this.allowed(accountId))
      .orderBy('sso_application.id')
      .execute();
    return rows.map((r) => ({ id: r.id, name: r.name, icon: r.icon, category: r.category, description: r.description, url: r.url ?? '' }));
  }

  /** The names of an account's groups and the codes of its roles (own and its groups'), released as multi-valued attributes. */
  async groupsAndRoles(accountId: number): Promise<{ groups: string[]; roles: string[] }> {
    const [groups, roles] = await Promise.all([
      this.db
        .selectFrom('account_group')
        .innerJoin('account_group_member', 'account_group_member.group_id', 'account_group.id')
        .select('account_group.name')
        .where('account_group_member.account_id', '=', accountId)
        .orderBy('account_group.name')
        .execute(),
      this.db
        .selectFrom('role')
        .select('role.code')
        .where(
          'role.id',
          'in',
          this.db
            .selectFrom('account_role')
            .select('account_role.role_id')
            .where('account_role.account_id', '=', accountId)
            .union(
              this.db
                .selectFrom('account_group_member')
                .innerJoin('account_group_role', 'account_group_role.group_id', 'account_group_member.group_id')
                .select('account_group_role.role_id')
                .where('account_group_member.account_id', '=', accountId),
            ),
        )
        .orderBy('role.code')
        .execute(),
    ]);
    return { groups: groups.map((g) => g.name), roles: roles.map((r) => r.code) };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    ssoApps: SsoAppRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('ssoApps', new SsoAppRepository(app.database.db, app.database.dialect));
  },
  { name: 'sso-app-repository' },
);
