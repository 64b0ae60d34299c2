import { FEDERATED_SOURCE_TYPES, Role } from '@portal/shared';
import { type Kysely, sql } from 'kysely';
import type { Database, FederationDomainStatus } from '../../platform/db/schema.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import type { AuthSourceRepository } from '../auth-sources/auth-source-repository.js';

/** A pending sign-in as stored between the redirect and the provider's answer. */
export interface PendingFederation {
  sourceId: number;
  purpose: 'login' | 'test';
  browserHash: string;
  service: string;
  renew: boolean;
  pending: Record<string, string>;
  expiresAt: string;
}

/** An enabled federated source of an active enterprise, as the login page offers it. */
export interface FederatedLoginSource {
  id: number;
  type: string;
  name: string;
  enterpriseId: number;
  enterpriseName: string;
  /** The settings JSON (domains, enforce…). */
  config: string;
}

/**
 * Federation's tables (migration 0041): the email domains sources claim and the pending sign-ins.
 * Sources themselves are auth_source rows (AuthSourceRepository).
 */
export class FederationRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly sources: AuthSourceRepository,
  ) {}

  /**
   * The enterprise's one active account with `email` that no identity of the source holds yet;
   * undefined when none or several qualify.
   */
  async accountOfEmail(
    source: { id: number; enterpriseId: number },
    email: string,
    db: Kysely<Database> = this.db,
  ): Promise<number | undefined> {
    const found = await this.sources.unlinkedAccounts(db, source, 'email', email, 2);
    return found.length === 1 ? found[0] : undefined;
  }

  /**
   * A verified email's first sign-in: links the subject to `candidate` (accountOfEmail's answer, which
   * the caller vetted) when it is still the one account qualifying; undefined otherwise.
   */
  async linkByEmail(
    source: { id: number; enterpriseId: number },
    email: string,
    subject: string,
    candidate: number,
  ): Promise<number | undefined> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        if ((await this.accountOfEmail(source, email, trx)) !== candidate) return undefined;
        return (await this.sources.link(trx, candidate, source.id, subject)) ? candidate : undefined;
      });
    } catch (err) {
      if (isUniqueViolation(err)) return undefined;
      throw err;
    }
  }

  /** 普通员工's authorities (the platform role's): anything beyond them is a console authority. */
  async staffAuthorities(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('role_authority')
      .innerJoin('role', 'role.id', 'role_authority.role_id')
      .select('role_authority.authority')
      .where('role.code', '=', Role.EnterpriseStaff)
      .where('role.enterprise_id', 'is', null)
      .execute();
    return rows.map((r) => r.authority);
  }

  /** The enabled federated sources of active enterprises (login page buttons, forced provider). */
  async enabledSources(enterpriseId?: number): Promise<FederatedLoginSource[]> {
    let query = this.db
      .selectFrom('auth_source')
      .innerJoin('enterprise', 'enterprise.id', 'auth_source.enterprise_id')
      .select([
        'auth_source.id',
        'auth_source.type',
        'auth_source.name',
        'auth_source.config',
        'auth_source.enterprise_id',
        'enterprise.name as enterprise_name',
      ])
      .where('auth_source.type', 'in', FEDERATED_SOURCE_TYPES)
      .where('auth_source.status', '=', 'enabled')
      .where('enterprise.status', '=', 'active');
    if (enterpriseId !== undefined) query = query.where('auth_source.enterprise_id', '=', enterpriseId);
    const rows = await query.orderBy('enterprise.name').orderBy('auth_source.id').execute();
    return rows.map((r) => ({
      id: r.id,
      type: r.type,
      name: r.name,
      enterpriseId: r.enterprise_id,
      enterpriseName: r.enterprise_name,
      config: r.config,
    }));
  }

  /** The enabled federated sources of an account's enterprise (while it is active): the forced-provider check, one query. */
  async sourcesOfAccount(accountId: number): Promise<FederatedLoginSource[]> {
    const rows = await this.db
      .selectFrom('account')
      .innerJoin('enterprise', 'enterprise.id', 'account.enterprise_id')
      .innerJoin('auth_source', 'auth_source.enterprise_id', 'enterprise.id')
      .select([
        'auth_source.id',
        'auth_source.type',
        'auth_source.name',
        'auth_source.config',
        'auth_source.enterprise_id',
        'enterprise.name as enterprise_name',
      ])
      .where('account.id', '=', accountId)
      .where('auth_source.type', 'in', FEDERATED_SOURCE_TYPES)
      .where('auth_source.status', '=', 'enabled')
      .where('enterprise.status', '=', 'active')
      .orderBy('auth_source.id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      type: r.type,
      name: r.name,
      enterpriseId: r.enterprise_id,
      enterpriseName: r.enterprise_name,
      config: r.config,
    }));
  }

  /** The enabled source (of an active enterprise) claiming `domain`, once an operator approved the claim. */
  async sourceOfDomain(domain: string): Promise<{ id: number; enterpriseId: number } | undefined> {
    const row = await this.db
      .selectFrom('federation_domain')
      .innerJoin('auth_source', 'auth_source.id', 'federation_domain.source_id')
      .innerJoin('enterprise', 'enterprise.id', 'auth_source.enterprise_id')
      .select(['auth_source.id', 'auth_source.enterprise_id'])
      .where('federation_domain.domain', '=', domain)
      .where('federation_domain.status', '=', 'approved')
      .where('auth_source.status', '=', 'enabled')
      .where('enterprise.status', '=', 'active')
      .executeTakeFirst();
    return row ? { id: row.id, enterpriseId: row.enterprise_id } : undefined;
  }

  /** Whether an account of another enterprise than `enterpriseId` holds `email` (any case). */
  async emailOfOtherEnterprise(email: string, enterpriseId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('account')
      .select('id')
      .where(sql<string>`lower(email)`, '=', email.toLowerCase())
      .where('enterprise_id', '!=', enterpriseId)
      .where('status', '!=', 'deleted')
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * The first of `domains` another enterprise's people use: an AD 域 of its LDAP source (UPN sign-in)
   * or the domain of an email one of its accounts holds.
   */
  async domainUsedElsewhere(trx: Kysely<Database>, enterpriseId: number, domains: readonly string[]): Promise<string | undefined> {
    if (domains.length === 0) return undefined;
    const ldap = await trx
      .selectFrom('auth_source')
      .select('config')
      .where('type', '=', 'ldap')
      .where('enterprise_id', '!=', enterpriseId)
      .execute();
    const adDomains = new Set(
      ldap
        .map((r) =>
          String((JSON.parse(r.config) as { adDomain?: unknown }).adDomain ?? '')
            .trim()
            .toLowerCase(),
        )
        .filter(Boolean),
    );
    for (const domain of [...domains].sort()) {
      if (adDomains.has(domain)) return domain;
      // Domains are DNS names (letters, digits, hyphens, dots): nothing in them is a LIKE wildcard but `_`, checked again below.
      const emails = await trx
        .selectFrom('account')
        .select('email')
        .where(sql<string>`lower(email)`, 'like', `%@${domain}`)
        .where('enterprise_id', '!=', enterpriseId)
        .where('status', '!=', 'deleted')
        .limit(20)
        .execute();
      if (emails.some((r) => (r.email ?? '').toLowerCase().endsWith(`@${domain}`))) return domain;
    }
    return undefined;
  }

  /** A source's claimed domains with their review state (the source form, 租户管理). */
  async domainsOf(sourceIds: readonly number[]): Promise<{ sourceId: number; domain: string; status: FederationDomainStatus }[]> {
    if (sourceIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('federation_domain')
      .select(['source_id', 'domain', 'status'])
      .where('source_id', 'in', sourceIds)
      .orderBy('domain')
      .execute();
    return rows.map((r) => ({ sourceId: r.source_id, domain: r.domain, status: r.status }));
  }

  /** An operator's decision on one enterprise's claimed domain; false when the enterprise claims no such domain. */
  async review(trx: Kysely<Database>, enterpriseId: number, domain: string, status: FederationDomainStatus): Promise<boolean> {
    const result = await trx
      .updateTable('federation_domain')
      .set({ status })
      .where('enterprise_id', '=', enterpriseId)
      .where('domain', '=', domain)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The first of `domains` another source (of any enterprise) claims. */
  async domainTaken(trx: Kysely<Database>, domains: readonly string[], exceptSourceId?: number): Promise<string | undefined> {
    if (domains.length === 0) return undefined;
    let query = trx.selectFrom('federation_domain').select('domain').where('domain', 'in', domains);
    if (exceptSourceId !== undefined) query = query.where('source_id', '!=', exceptSourceId);
    return (await query.orderBy('domain').executeTakeFirst())?.domain;
  }

  /**
   * A source's domains become exactly `domains` (inside the source's write): the ones it kept keep their
   * review state, new ones wait for an operator (待审核).
   */
  async replaceDomains(trx: Kysely<Database>, enterpriseId: number, sourceId: number, domains: readonly string[]): Promise<void> {
    const current = await trx.selectFrom('federation_domain').select('domain').where('source_id', '=', sourceId).execute();
    const kept = new Set(current.map((r) => r.domain));
    let removing = trx.deleteFrom('federation_domain').where('source_id', '=', sourceId);
    if (domains.length > 0) removing = removing.where('domain', 'not in', domains);
    await removing.execute();
    const added = domains.filter((d) => !kept.has(d));
    if (added.length === 0) return;
    await trx
      .insertInto('federation_domain')
      .values(added.map((domain) => ({ enterprise_id: enterpriseId, source_id: sourceId, domain })))
      .execute();
  }

  async saveSignIn(stateHash: string, row: PendingFederation): Promise<void> {
    const now = new Date().toISOString();
    // Sign-ins nobody finished go when the next one starts: the table holds only the last minutes'.
    await this.db.deleteFrom('federation_sign_in').where('expires_at', '<', now).execute();
    await this.db
      .insertInto('federation_sign_in')
      .values({
        state_hash: stateHash,
        browser_hash: row.browserHash,
        source_id: row.sourceId,
        purpose: row.purpose,
        service: row.service,
        renew: row.renew ? 1 : 0,
        pending: JSON.stringify(row.pending),
        expires_at: row.expiresAt,
      })
      .execute();
  }

  /**
   * Takes a pending sign-in by its state's hash and the browser's: deleted (so each state is used once)
   * only when both match, so someone who learnt a state cannot burn the real browser's sign-in.
   */
  async takeSignIn(stateHash: string, browserHash: string): Promise<PendingFederation | undefined> {
    const row = await this.db
      .deleteFrom('federation_sign_in')
      .where('state_hash', '=', stateHash)
      .where('browser_hash', '=', browserHash)
      .returning(['source_id', 'purpose', 'browser_hash', 'service', 'renew', 'pending', 'expires_at'])
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      sourceId: row.source_id,
      purpose: row.purpose,
      browserHash: row.browser_hash,
      service: row.service,
      renew: row.renew === 1,
      pending: JSON.parse(row.pending) as Record<string, string>,
      expiresAt: row.expires_at,
    };
  }

  /** A source's pending sign-ins end (its provider changed: what they started there answers for another). */
  async dropSignIns(trx: Kysely<Database>, sourceId: number): Promise<void> {
    await trx.deleteFrom('federation_sign_in').where('source_id', '=', sourceId).execute();
  }

  /**
   * A provider's one-time message (a logout token's jti) taken: false when it was seen before. Kept with
   * the SAML assertion IDs, in the same table, until it could no longer pass its checks (retention prunes it).
   */
  async messageTaken(sourceId: number, kind: 'logout-jti', id: string, until: Date): Promise<boolean> {
    try {
      await this.db
        .insertInto('saml_source_message')
        .values({ source_id: sourceId, kind, message_id: id, expires_at: until.toISOString() })
        .execute();
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  /** Accounts that hold a username or a phone already (any enterprise, deleted ones too). */
  async taken(trx: Kysely<Database>, username: string, phone: string): Promise<{ username: boolean; phone: boolean }> {
    const rows = await trx
      .selectFrom('account')
      .select(['username', 'phone'])
      .where((eb) => eb.or([eb('username', '=', username), eb('phone', '=', phone)]))
      .execute();
    return { username: rows.some((r) => r.username === username), phone: rows.some((r) => r.phone === phone) };
  }

  /** The enterprise's 账号组 among `ids` (JIT's default groups: another enterprise's are left out). */
  async groupsOf(trx: Kysely<Database>, enterpriseId: number, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await trx
      .selectFrom('account_group')
      .select('id')
      .where('enterprise_id', '=', enterpriseId)
      .where('id', 'in', ids)
      .execute();
    return rows.map((r) => r.id);
  }

  /** A JIT account asks for no password at its first login: it has none anyone knows, and signs in at its provider. */
  async clearInitialPassword(trx: Kysely<Database>, accountId: number): Promise<void> {
    await trx.updateTable('account').set({ must_change_password: 0 }).where('id', '=', accountId).execute();
  }
}
