import {
  type SamlSettings,
  type MyApplication,
  OIDC_APP_SCOPES,
  type OidcAppScope,
  type OidcClientType,
  RELEASABLE_ATTRIBUTES,
  type ReleasableAttribute,
  type SsoAppGrants,
  type SsoApplicationRow,
  type SsoApplicationStatus,
  type SsoProtocol,
} from '@portal/shared';
import fp from 'fastify-plugin';
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { DialectName } from '../../platform/db/database.js';
import type { Database } from '../../platform/db/schema.js';
import type { ServiceApplication, ServiceCandidate } from '../cas/cas-services.js';
import { addressList } from '../oidc/oidc-client-repository.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { containsText } from '../../platform/lib/text-search.js';

/** 应用列表's row as stored; the routes add the integration settings (they depend on the configuration). */
export type SsoApplication = Omit<SsoApplicationRow, 'integration'>;

/** An OpenID Connect application's settings as 新建 and 编辑 write them (checked). */
export interface OidcSettingsInput {
  clientId: string;
  clientType: OidcClientType;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  backchannelLogoutUri: string;
  initiateLoginUri: string;
  scopes: OidcAppScope[];
  accessTokenSeconds: number;
  idTokenSeconds: number;
  refreshTokenSeconds: number;
}

/** What 新建 and 编辑 write (already checked and normalised). */
export interface SsoApplicationInput {
  protocol: SsoProtocol;
  /** Protocol 'oidc' only. */
  oidc?: OidcSettingsInput;
  /** Protocol 'saml2' only (kept in saml_service_provider). */
  saml?: SamlSettings;
  name: string;
  icon: string;
  category: string;
  description: string;
  servicePrefixes: string[];
  logoutUrl: string;
  attributes: ReleasableAttribute[];
  status: SsoApplicationStatus;
}

/** A service address of another application, for the overlap check of 服务地址. */
export interface ExistingPrefix {
  /** A platform application's: `applicationId` is then its `app_application` id and `enterpriseId` null. */
  platform: boolean;
  applicationId: number;
  enterpriseId: number | null;
  enterpriseName: string;
  name: string;
  prefix: string;
}

/** What an enterprise's copy of a platform application takes from it (approval of 申请使用). */
export interface PlatformAppCopy {
  platformAppId: number;
  name: string;
  icon: string;
  category: string;
  description: string;
  logoutUrl: string;
  attributes: string;
}

/** The icon column's length: a longer platform icon address is left out of the copy rather than cut. */
const ICON_COLUMN_MAX = 200;
export const copyIcon = (iconPath: string) => (iconPath.length <= ICON_COLUMN_MAX ? iconPath : '');

const attributeList = (stored: string): ReleasableAttribute[] => RELEASABLE_ATTRIBUTES.filter((a) => stored.split(',').includes(a));

const scopeList = (stored: string): OidcAppScope[] => OIDC_APP_SCOPES.filter((s) => stored.split(' ').includes(s));

const SERVICE_APPLICATION_COLUMNS = ['id', 'enterprise_id', 'name', 'status', 'logout_url', 'attributes'] as const;

const toServiceApplication = (r: {
  id: number;
  enterprise_id: number;
  name: string;
  status: SsoApplicationStatus;
  logout_url: string;
  attributes: string;
}): ServiceApplication => ({
  id: r.id,
  enterpriseId: r.enterprise_id,
  name: r.name,
  status: r.status,
  logoutUrl: r.logout_url,
  attributes: attributeList(r.attributes),
});

/**
 * 应用列表 and 应用授权: an enterprise's applications on single sign-on, their service
 * addresses and who may sign in to them; the CAS reads them here at every login and validation, so a
 * change holds at once on every instance.
 */
/** An application 我的应用 lists, with what an OpenID Connect one opens at. */
export type UsableApplication = MyApplication & { oidc: { initiateLoginUri: string; redirectUris: string[] } | null; saml: boolean };

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
      platform_app_id: number | null;
      provider: string | null;
      platform_service_url: string | null;
      protocol: string;
      oidc_client_id: string | null;
      oidc_client_type: OidcClientType;
      oidc_redirect_uris: string;
      oidc_post_logout_uris: string;
      oidc_backchannel_logout_uri: string;
      oidc_initiate_login_uri: string;
      oidc_scopes: string;
      oidc_access_token_seconds: number;
      oidc_id_token_seconds: number;
      oidc_refresh_token_seconds: number;
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
      protocol: r.protocol === 'oidc' || r.protocol === 'saml2' ? r.protocol : 'cas3',
      oidc:
        r.protocol === 'oidc' && r.oidc_client_id
          ? {
              clientId: r.oidc_client_id,
              clientType: r.oidc_client_type,
              redirectUris: addressList(r.oidc_redirect_uris),
              postLogoutRedirectUris: addressList(r.oidc_post_logout_uris),
              backchannelLogoutUri: r.oidc_backchannel_logout_uri,
              initiateLoginUri: r.oidc_initiate_login_uri,
              scopes: scopeList(r.oidc_scopes),
              accessTokenSeconds: r.oidc_access_token_seconds,
              idTokenSeconds: r.oidc_id_token_seconds,
              refreshTokenSeconds: r.oidc_refresh_token_seconds,
            }
          : null,
      // A platform application's copy answers at the platform's address (it has none of its own).
      servicePrefixes:
        r.platform_app_id === null
          ? prefixes.filter((p) => p.application_id === r.id).map((p) => p.prefix)
          : r.platform_service_url
            ? [r.platform_service_url]
            : [],
      logoutUrl: r.logout_url,
      attributes: attributeList(r.attributes),
      status: r.status,
      allMembers: r.all_members === 1,
      createdAt: chinaTime(new Date(r.created_at)),
      platform: r.platform_app_id !== null,
      provider: r.provider ?? '',
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
      'sso_application.platform_app_id',
      'app_application.provider',
      'app_application.service_url as platform_service_url',
      'sso_application.protocol',
      'sso_application.oidc_client_id',
      'sso_application.oidc_client_type',
      'sso_application.oidc_redirect_uris',
      'sso_application.oidc_post_logout_uris',
      'sso_application.oidc_backchannel_logout_uri',
      'sso_application.oidc_initiate_login_uri',
      'sso_application.oidc_scopes',
      'sso_application.oidc_access_token_seconds',
      'sso_application.oidc_id_token_seconds',
      'sso_application.oidc_refresh_token_seconds',
    ] as const;
  }

  /** 应用列表's rows with their platform application, if they copy one. */
  private listed() {
    return this.db.selectFrom('sso_application').leftJoin('app_application', 'app_application.id', 'sso_application.platform_app_id');
  }

  /** One page of the enterprise's applications (newest first); `keyword` is part of the name or category. */
  async page(
    enterpriseId: number,
    filter: { keyword: string; status: SsoApplicationStatus | undefined },
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: SsoApplication[] }> {
    let query = this.listed().where('sso_application.enterprise_id', '=', enterpriseId);
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
    const row = await this.listed()
      .select(this.columns())
      .where('sso_application.id', '=', id)
      .where('sso_application.enterprise_id', '=', enterpriseId)
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
   * The service addresses of all applications on these hosts, the enterprises' and the platform
   * applications', read inside the write's transaction. On PostgreSQL the hosts are locked
   * first (advisory, in a fixed order) so two writers claiming the same address at once are checked
   * one after the other; SQLite runs one write transaction at a time.
   */
  async prefixesOnHosts(trx: Kysely<Database>, hosts: readonly string[]): Promise<ExistingPrefix[]> {
    const sorted = [...new Set(hosts)].sort();
    if (sorted.length === 0) return [];
    if (this.dialect === 'postgres') {
      for (const host of sorted) await sql`select pg_advisory_xact_lock(hashtext(${`sso-host|${host}`}))`.execute(trx);
    }
    const [own, platform] = await Promise.all([
      trx
        .selectFrom('sso_application_service')
        .innerJoin('sso_application', 'sso_application.id', 'sso_application_service.application_id')
        .innerJoin('enterprise', 'enterprise.id', 'sso_application.enterprise_id')
        .select([
          'sso_application.id as application_id',
          'sso_application.enterprise_id',
          'enterprise.name as enterprise_name',
          'sso_application.name',
          'sso_application_service.prefix',
        ])
        .where('sso_application_service.host', 'in', sorted)
        .execute(),
      trx
        .selectFrom('app_application')
        .select(['id', 'name', 'service_url'])
        .where('service_host', 'in', sorted)
        .where('service_url', '!=', '')
        .execute(),
    ]);
    return [
      ...own.map((r) => ({
        platform: false,
        applicationId: r.application_id,
        enterpriseId: r.enterprise_id,
        enterpriseName: r.enterprise_name,
        name: r.name,
        prefix: r.prefix,
      })),
      ...platform.map((r) => ({
        platform: true,
        applicationId: r.id,
        enterpriseId: null,
        enterpriseName: '',
        name: r.name,
        prefix: r.service_url,
      })),
    ];
  }

  /** `secretHash`: an OIDC confidential client's ('' for none). */
  async create(trx: Kysely<Database>, enterpriseId: number, input: SsoApplicationInput, secretHash = ''): Promise<number> {
    const now = new Date().toISOString();
    const oidc = input.oidc
      ? { oidc_client_id: input.oidc.clientId, oidc_client_type: input.oidc.clientType, oidc_secret_hash: secretHash }
      : {};
    const { id } = await trx
      .insertInto('sso_application')
      .values({
        enterprise_id: enterpriseId,
        ...SsoAppRepository.columnsOf(input),
        ...oidc,
        protocol: input.protocol,
        created_at: now,
        updated_at: now,
      })
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

  /** A confidential OIDC application's new secret (重置密钥): the old one stops working at once. */
  async setSecretHash(trx: Kysely<Database>, id: number, secretHash: string): Promise<void> {
    await trx
      .updateTable('sso_application')
      .set({ oidc_secret_hash: secretHash, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  /** What 新建 and 编辑 write; an OIDC application's client id, type and secret are written at creation only. */
  private static columnsOf(input: SsoApplicationInput) {
    const { oidc } = input;
    return {
      name: input.name,
      icon: input.icon,
      category: input.category,
      description: input.description,
      logout_url: input.logoutUrl,
      attributes: input.attributes.join(','),
      status: input.status,
      ...(oidc
        ? {
            oidc_redirect_uris: JSON.stringify(oidc.redirectUris),
            oidc_post_logout_uris: JSON.stringify(oidc.postLogoutRedirectUris),
            oidc_backchannel_logout_uri: oidc.backchannelLogoutUri,
            oidc_initiate_login_uri: oidc.initiateLoginUri,
            oidc_scopes: oidc.scopes.join(' '),
            oidc_access_token_seconds: oidc.accessTokenSeconds,
            oidc_id_token_seconds: oidc.idTokenSeconds,
            oidc_refresh_token_seconds: oidc.refreshTokenSeconds,
          }
        : {}),
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

  /**
   * The service addresses on a host with their applications (whatever their state), for the CAS's
   * service registry: the enterprises' own, and the platform applications' on single sign-on.
   */
  async servicesOnHost(host: string): Promise<ServiceCandidate[]> {
    const [own, platform] = await Promise.all([this.ownServicesOnHost(host), this.platformServicesOnHost(host)]);
    return [...own, ...platform];
  }

  private async platformServicesOnHost(host: string): Promise<ServiceCandidate[]> {
    const rows = await this.db
      .selectFrom('app_application')
      .select(['id', 'name', 'service_url', 'logout_url'])
      .where('service_host', '=', host)
      .where('service_url', '!=', '')
      .execute();
    return rows.map((r) => ({ prefix: r.service_url, platformApplication: { id: r.id, name: r.name, logoutUrl: r.logout_url } }));
  }

  private async ownServicesOnHost(host: string): Promise<ServiceCandidate[]> {
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
    const r = await this.db.selectFrom('sso_application').select(SERVICE_APPLICATION_COLUMNS).where('id', '=', id).executeTakeFirst();
    return r && toServiceApplication(r);
  }

  /**
   * The copy of a platform application held by the account's enterprise, i.e. its approved
   * subscription; undefined when the enterprise has none (or the account belongs to no enterprise).
   */
  async copyFor(accountId: number, platformAppId: number): Promise<ServiceApplication | undefined> {
    const r = await this.db
      .selectFrom('sso_application')
      .select(SERVICE_APPLICATION_COLUMNS)
      .where('platform_app_id', '=', platformAppId)
      .where('enterprise_id', '=', (eb) => eb.selectFrom('account').select('account.enterprise_id').where('account.id', '=', accountId))
      .executeTakeFirst();
    return r && toServiceApplication(r);
  }

  /**
   * An approved subscription's copy in the enterprise's 应用列表: the platform application's
   * name, icon, category, description, logout address and attributes; enabled; nobody authorized yet.
   */
  async createCopy(trx: Kysely<Database>, enterpriseId: number, copy: PlatformAppCopy): Promise<number> {
    const now = new Date().toISOString();
    const { id } = await trx
      .insertInto('sso_application')
      .values({
        enterprise_id: enterpriseId,
        platform_app_id: copy.platformAppId,
        name: copy.name,
        icon: copyIcon(copy.icon),
        category: copy.category,
        description: copy.description,
        protocol: 'cas3',
        logout_url: copy.logoutUrl,
        attributes: copy.attributes,
        all_members: 0,
        status: 'enabled',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  /** A revoked subscription's copy goes, with its grants (foreign keys cascade); its tickets no longer validate. */
  /** Answers the removed copy's id (its tickets get a single logout), undefined when there was none. */
  async deleteCopy(trx: Kysely<Database>, enterpriseId: number, platformAppId: number): Promise<number | undefined> {
    const removed = await trx
      .deleteFrom('sso_application')
      .where('enterprise_id', '=', enterpriseId)
      .where('platform_app_id', '=', platformAppId)
      .returning('id')
      .executeTakeFirst();
    return removed?.id;
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

  /**
   * 我的应用: the applications the account may open, as they were created; each opens at its first
   * service address (a platform application's copy at the platform's).
   */
  async usableBy(accountId: number): Promise<UsableApplication[]> {
    const rows = await this.db
      .selectFrom('sso_application')
      .leftJoin('app_application', 'app_application.id', 'sso_application.platform_app_id')
      .select([
        'app_application.service_url as platform_service_url',
        'sso_application.id',
        'sso_application.name',
        'sso_application.icon',
        'sso_application.category',
        'sso_application.description',
        'sso_application.protocol',
        'sso_application.oidc_initiate_login_uri',
        'sso_application.oidc_redirect_uris',
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
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      icon: r.icon,
      category: r.category,
      description: r.description,
      url: r.url ?? r.platform_service_url ?? '',
      oidc: r.protocol === 'oidc' ? { initiateLoginUri: r.oidc_initiate_login_uri, redirectUris: addressList(r.oidc_redirect_uris) } : null,
      saml: r.protocol === 'saml2',
    }));
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
    ssoAppRepository: SsoAppRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('ssoAppRepository', new SsoAppRepository(app.database.db, app.database.dialect));
  },
  { name: 'sso-app-repository' },
);
