import type { ChatSourceType } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { SecretBox } from '../../lib/sealed-secret.js';
import type { LoadedSource } from './directory.js';

/** Sealed secrets are bound to this purpose (lib/sealed-secret.ts). */
const SECRET_PURPOSE = 'auth_source.secret';

type SourceRow = Pick<Database['auth_source'], 'type' | 'name' | 'config'> & {
  id: number;
  enterprise_id: number;
  status: string;
  secret: string;
};

/**
 * 认证源 as stored (issue 19). Settings are JSON; the secret is sealed with AES-256-GCM under a key
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

  /** Links an account to its identity in a source (first sign-in by phone, sync); the DN for LDAP. */
  async link(trx: Kysely<Database>, accountId: number, sourceId: number, externalId: string, dn = ''): Promise<void> {
    const now = new Date().toISOString();
    await trx
      .insertInto('account_identity')
      .values({ account_id: accountId, source_id: sourceId, external_id: externalId, dn, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['source_id', 'external_id']).doUpdateSet({ account_id: accountId, dn, updated_at: now }))
      .execute();
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
