import { type AuthSourceConfig, type AuthSourceSummary, CHAT_SOURCE_TYPES, type ChatSourceType, type SyncRunStatus } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { lockEnterprise } from '../../platform/db/transaction.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { SecretBox } from '../../platform/lib/sealed-secret.js';
import type { LoadedSource } from './directory.js';

/** A row of 认证源's list; the routes add the last run's summary (同步's repository owns runs). */
export type SourceListRow = Omit<AuthSourceSummary, 'lastSync'> & { lastRunId: number | null };

/** Sealed secrets are bound to this purpose (platform/lib/sealed-secret.ts). */
const SECRET_PURPOSE = 'auth_source.secret';

/** Runs that ended: what 认证源 and the operators' view show as the last sync (a preview or an expired one never ran). */
const FINISHED: SyncRunStatus[] = ['succeeded', 'partial', 'failed'];

/** A source as the console edits it: its settings, never its secret (only whether one is kept). */
export type StoredSource = AuthSourceConfig & {
  id: number;
  name: string;
  enabled: boolean;
  hasSecret: boolean;
  updatedAt: string;
};

/** What 新建 and 编辑 write, checked and normalised; `secret` is plain ('' on 编辑 keeps the sealed one). */
export type AuthSourceWrite = AuthSourceConfig & { name: string; enabled: boolean; secret: string };

/** The settings column read back as the union its type names (written only by create/update below). */
const settingsOf = (type: AuthSourceConfig['type'], config: string) => ({ type, config: JSON.parse(config) }) as AuthSourceConfig;

/** What identifies a source at a glance in a list: its address, or the corp / app id. */
export function endpointOf(source: AuthSourceConfig): string {
  switch (source.type) {
    case 'ldap':
      return source.config.url;
    case 'wecom':
      return source.config.corpId;
    case 'dingtalk':
      return source.config.appKey;
    case 'feishu':
      return source.config.appId;
    case 'oidc':
      return source.config.issuer;
    case 'saml':
      return source.config.idpEntityId;
  }
}

type SourceRow = Pick<Database['auth_source'], 'type' | 'name' | 'config'> & {
  id: number;
  enterprise_id: number;
  status: string;
  secret: string;
};

/**
 * 认证源 as stored. Settings are JSON; the secret is sealed with AES-256-GCM under a key
 * shared through system_secret and opened only on the server, for a bind or a token request.
 */
export class AuthSourceRepository {
  constructor(
    protected readonly db: Kysely<Database>,
    protected readonly box: SecretBox,
  ) {}

  sealSecret(plain: string): string {
    return plain ? this.box.seal(plain, SECRET_PURPOSE) : '';
  }

  protected toLoaded(row: SourceRow): LoadedSource {
    return {
      id: row.id,
      enterpriseId: row.enterprise_id,
      name: row.name,
      enabled: row.status === 'enabled',
      type: row.type,
      config: JSON.parse(row.config),
      secret: row.secret ? (this.box.open(row.secret, SECRET_PURPOSE) ?? '') : '',
    } as LoadedSource;
  }

  private select() {
    return this.db.selectFrom('auth_source').select(['id', 'enterprise_id', 'type', 'name', 'status', 'config', 'secret']);
  }

  /** The enterprise's source with its secret opened, or undefined (another enterprise's id included). */
  async load(enterpriseId: number, id: number): Promise<LoadedSource | undefined> {
    const row = await this.select().where('id', '=', id).where('enterprise_id', '=', enterpriseId).executeTakeFirst();
    return row ? this.toLoaded(row) : undefined;
  }

  /** A source by id whatever its enterprise (sign-in callbacks, the scheduler). */
  async loadAny(id: number): Promise<LoadedSource | undefined> {
    const row = await this.select().where('id', '=', id).executeTakeFirst();
    return row ? this.toLoaded(row) : undefined;
  }

  /** The enabled chat-platform sources of a type with their enterprise's name (the central login's QR sign-in). */
  async enabledChatSources(type: ChatSourceType): Promise<{ id: number; enterpriseId: number; enterpriseName: string }[]> {
    const rows = await this.db
      .selectFrom('auth_source')
      .innerJoin('enterprise', 'enterprise.id', 'auth_source.enterprise_id')
      .select(['auth_source.id', 'auth_source.enterprise_id', 'enterprise.name'])
      .where('auth_source.type', '=', type)
      .where('auth_source.status', '=', 'enabled')
      .where('enterprise.status', '=', 'active')
      .orderBy('enterprise.name')
      .execute();
    return rows.map((r) => ({ id: r.id, enterpriseId: r.enterprise_id, enterpriseName: r.name }));
  }

  /** The chat platforms some active enterprise has an enabled source of (the login page's 其他登录方式), in one query. */
  async enabledChatTypes(): Promise<ChatSourceType[]> {
    const rows = await this.db
      .selectFrom('auth_source')
      .innerJoin('enterprise', 'enterprise.id', 'auth_source.enterprise_id')
      .select('auth_source.type')
      .distinct()
      .where('auth_source.type', 'in', CHAT_SOURCE_TYPES)
      .where('auth_source.status', '=', 'enabled')
      .where('enterprise.status', '=', 'active')
      .execute();
    const enabled = new Set<string>(rows.map((r) => r.type));
    return CHAT_SOURCE_TYPES.filter((type) => enabled.has(type));
  }

  /** The enabled LDAP source an account is linked to, with its identity (sign-in binds there instead of the local password). */
  async ldapIdentityOf(accountId: number): Promise<{ source: LoadedSource; externalId: string; dn: string } | undefined> {
    const row = await this.db
      .selectFrom('account_identity')
      .innerJoin('auth_source', 'auth_source.id', 'account_identity.source_id')
      .select([
        'auth_source.id',
        'auth_source.enterprise_id',
        'auth_source.type',
        'auth_source.name',
        'auth_source.status',
        'auth_source.config',
        'auth_source.secret',
        'account_identity.external_id',
        'account_identity.dn',
      ])
      .where('account_identity.account_id', '=', accountId)
      .where('auth_source.type', '=', 'ldap')
      .where('auth_source.status', '=', 'enabled')
      .executeTakeFirst();
    return row ? { source: this.toLoaded(row), externalId: row.external_id, dn: row.dn } : undefined;
  }

  /** The account linked to an external id in a source. */
  async accountOf(sourceId: number, externalId: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('account_identity')
      .select('account_id')
      .where('source_id', '=', sourceId)
      .where('external_id', '=', externalId)
      .executeTakeFirst();
    return row?.account_id;
  }

  /**
   * First-sign-in linking's candidates: up to `limit` active accounts of the source's enterprise whose `field`
   * is `value` and that no identity of the source holds yet.
   */
  async unlinkedAccounts(
    db: Kysely<Database>,
    source: { id: number; enterpriseId: number },
    field: 'email' | 'phone',
    value: string,
    limit: number,
  ): Promise<number[]> {
    const rows = await db
      .selectFrom('account')
      .select('account.id')
      .where(`account.${field}`, '=', value)
      .where('account.enterprise_id', '=', source.enterpriseId)
      .where('account.status', '=', 'active')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('account_identity')
              .select('account_identity.id')
              .whereRef('account_identity.account_id', '=', 'account.id')
              .where('account_identity.source_id', '=', source.id),
          ),
        ),
      )
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Links an account to its identity in a source (first sign-in by phone, sync); the DN for LDAP. False when another account holds it. */
  async link(trx: Kysely<Database>, accountId: number, sourceId: number, externalId: string, dn = ''): Promise<boolean> {
    const now = new Date().toISOString();
    // An identity already linked to another account stays with it (two jobs of one source, a race):
    // the caller is told, never a silent move that would leave a second account for the same person.
    await trx
      .insertInto('account_identity')
      .values({ account_id: accountId, source_id: sourceId, external_id: externalId, dn, created_at: now, updated_at: now })
      .onConflict((oc) =>
        oc.columns(['source_id', 'external_id']).doUpdateSet({ dn, updated_at: now }).where('account_identity.account_id', '=', accountId),
      )
      .execute();
    const row = await trx
      .selectFrom('account_identity')
      .select('account_id')
      .where('source_id', '=', sourceId)
      .where('external_id', '=', externalId)
      .executeTakeFirst();
    return row?.account_id === accountId;
  }

  /** Records where an LDAP entry now is (after a sign-in found it moved). */
  async updateDn(accountId: number, sourceId: number, dn: string): Promise<void> {
    await this.db
      .updateTable('account_identity')
      .set({ dn, updated_at: new Date().toISOString() })
      .where('account_id', '=', accountId)
      .where('source_id', '=', sourceId)
      .execute();
  }

  // ------------------------------------------------------------------------------ console (认证源)

  /** Whether the enterprise exists (租户管理's 详情 lists another enterprise's sources). */
  /** Those of `ids` that are 账号组 of the enterprise. */
  async groupsOfEnterprise(enterpriseId: number, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('account_group')
      .select('id')
      .where('enterprise_id', '=', enterpriseId)
      .where('id', 'in', ids)
      .execute();
    return rows.map((r) => r.id);
  }

  async enterpriseExists(enterpriseId: number): Promise<boolean> {
    const row = await this.db.selectFrom('enterprise').select('id').where('id', '=', enterpriseId).executeTakeFirst();
    return row !== undefined;
  }

  /** The enterprise's sources in the order they were added, with their linked accounts and the id of their last finished sync run. */
  /**
   * When the accounts each source links last signed in (ISO, by source id): the operator's sign that a
   * source is in use. Read through the login log's enterprise index, so another enterprise's rows never count.
   */
  async lastSignIns(enterpriseId: number): Promise<Map<number, string>> {
    const rows = await this.db
      .selectFrom('account_identity')
      .innerJoin('auth_source', 'auth_source.id', 'account_identity.source_id')
      .innerJoin('login_log', 'login_log.account_id', 'account_identity.account_id')
      .select((eb) => ['account_identity.source_id as sourceId', eb.fn.max('login_log.created_at').as('at')])
      .where('auth_source.enterprise_id', '=', enterpriseId)
      .where('login_log.enterprise_id', '=', enterpriseId)
      .where('login_log.result', '=', 'success')
      .groupBy('account_identity.source_id')
      .execute();
    return new Map(rows.map((r) => [r.sourceId, String(r.at)]));
  }

  async list(enterpriseId: number): Promise<SourceListRow[]> {
    const rows = await this.db
      .selectFrom('auth_source')
      .select((eb) => [
        'auth_source.id',
        'auth_source.type',
        'auth_source.name',
        'auth_source.status',
        'auth_source.config',
        'auth_source.updated_at',
        eb
          .selectFrom('account_identity')
          .innerJoin('account', 'account.id', 'account_identity.account_id')
          .select((sub) => sub.fn.countAll<number>().as('n'))
          .whereRef('account_identity.source_id', '=', 'auth_source.id')
          .where('account.status', '!=', 'deleted')
          .as('linked_accounts'),
        eb
          .selectFrom('sync_run')
          .innerJoin('sync_job', 'sync_job.id', 'sync_run.job_id')
          .select('sync_run.id')
          .whereRef('sync_job.source_id', '=', 'auth_source.id')
          .where('sync_run.status', 'in', FINISHED)
          .where('sync_run.finished_at', 'is not', null)
          .orderBy('sync_run.finished_at', 'desc')
          .orderBy('sync_run.id', 'desc')
          .limit(1)
          .as('last_run_id'),
      ])
      .where('auth_source.enterprise_id', '=', enterpriseId)
      .orderBy('auth_source.id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      type: r.type,
      name: r.name,
      enabled: r.status === 'enabled',
      endpoint: endpointOf(settingsOf(r.type, r.config)),
      linkedAccounts: Number(r.linked_accounts ?? 0),
      lastRunId: r.last_run_id,
      updatedAt: chinaTime(new Date(r.updated_at)),
    }));
  }

  /** A source of the enterprise with its settings (no secret), or undefined (another enterprise's id included). */
  async detail(enterpriseId: number, id: number): Promise<StoredSource | undefined> {
    const row = await this.db
      .selectFrom('auth_source')
      .select(['id', 'type', 'name', 'status', 'config', 'secret', 'updated_at'])
      .where('id', '=', id)
      .where('enterprise_id', '=', enterpriseId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      ...settingsOf(row.type, row.config),
      id: row.id,
      name: row.name,
      enabled: row.status === 'enabled',
      hasSecret: row.secret !== '',
      updatedAt: chinaTime(new Date(row.updated_at)),
    };
  }

  /** Whether another source of the enterprise has this name (names are unique per enterprise). */
  async nameTaken(enterpriseId: number, name: string, exceptId?: number): Promise<boolean> {
    let query = this.db.selectFrom('auth_source').select('id').where('enterprise_id', '=', enterpriseId).where('name', '=', name);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  /**
   * Inside a write's transaction: whether the enterprise already has a source of this chat type (one
   * each: the QR sign-in picks the enterprise's only one). On PostgreSQL the enterprise's row is locked
   * first, so two such writes at once are checked one after the other; SQLite runs one write at a time.
   */
  async chatTypeTaken(trx: Kysely<Database>, enterpriseId: number, type: ChatSourceType, exceptId?: number): Promise<boolean> {
    await lockEnterprise(trx, enterpriseId);
    let query = trx.selectFrom('auth_source').select('id').where('enterprise_id', '=', enterpriseId).where('type', '=', type);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async create(trx: Kysely<Database>, enterpriseId: number, input: AuthSourceWrite): Promise<number> {
    const now = new Date().toISOString();
    const row = await trx
      .insertInto('auth_source')
      .values({
        enterprise_id: enterpriseId,
        type: input.type,
        name: input.name,
        status: input.enabled ? 'enabled' : 'disabled',
        config: JSON.stringify(input.config),
        secret: this.sealSecret(input.secret),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Saves the settings; the type never changes, and an empty `secret` keeps the sealed one. */
  async update(trx: Kysely<Database>, enterpriseId: number, id: number, input: AuthSourceWrite): Promise<void> {
    await trx
      .updateTable('auth_source')
      .set({
        name: input.name,
        status: input.enabled ? 'enabled' : 'disabled',
        config: JSON.stringify(input.config),
        ...(input.secret ? { secret: this.sealSecret(input.secret) } : {}),
        updated_at: new Date().toISOString(),
      })
      .where('id', '=', id)
      .where('enterprise_id', '=', enterpriseId)
      .where('type', '=', input.type)
      .execute();
  }

  /** Every account's link to the source ends (its provider changed); answers how many there were. */
  async unlinkAll(trx: Kysely<Database>, id: number): Promise<number> {
    const result = await trx.deleteFrom('account_identity').where('source_id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** What keeps a source from being deleted: accounts (not deleted) linked to it, and sync jobs reading it. */
  async usage(trx: Kysely<Database>, id: number): Promise<{ linkedAccounts: number; jobs: number }> {
    const [linked, jobs] = await Promise.all([
      trx
        .selectFrom('account_identity')
        .innerJoin('account', 'account.id', 'account_identity.account_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_identity.source_id', '=', id)
        .where('account.status', '!=', 'deleted')
        .executeTakeFirstOrThrow(),
      trx
        .selectFrom('sync_job')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('source_id', '=', id)
        .executeTakeFirstOrThrow(),
    ]);
    return { linkedAccounts: Number(linked.n), jobs: Number(jobs.n) };
  }

  /** Deletes a source no account uses any more: deleted accounts' identities and the links of its former 账号组 go with it (the groups stay). */
  async delete(trx: Kysely<Database>, enterpriseId: number, id: number): Promise<void> {
    await trx.deleteFrom('account_identity').where('source_id', '=', id).execute();
    await trx.deleteFrom('group_identity').where('source_id', '=', id).execute();
    await trx.deleteFrom('auth_source').where('id', '=', id).where('enterprise_id', '=', enterpriseId).execute();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    authSourceRepository: AuthSourceRepository;
  }
}

export default fp(
  async (app) => {
    const box = new SecretBox(await app.systemRepository.sharedKey('auth-source-secret'));
    app.decorate('authSourceRepository', new AuthSourceRepository(app.database.db, box));
  },
  { name: 'auth-source-repository', dependencies: ['system-repository'] },
);
