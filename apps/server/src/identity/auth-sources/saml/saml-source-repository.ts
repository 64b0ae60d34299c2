import type { Kysely } from 'kysely';
import type { Database } from '../../../platform/db/schema.js';
import { isUniqueViolation } from '../../../platform/lib/db-errors.js';

/** A federated sign-in as single logout needs it. */
export interface SamlSourceSession {
  id: number;
  sourceId: number;
  accountId: number;
  nameId: string;
  nameIdFormat: string;
  sessionIndex: string;
}

/**
 * A SAML source's state on the service-provider side: the assertion IDs taken (a replay is refused; the
 * AuthnRequest's single use is the federated sign-in's state) and the federated sign-ins (NameID,
 * SessionIndex) for single logout.
 */
export class SamlSourceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records an assertion taken; false when it was taken before (a replayed assertion). */
  async assertionTaken(sourceId: number, assertionId: string, expiresAt: Date): Promise<boolean> {
    try {
      await this.db
        .insertInto('saml_source_message')
        .values({ source_id: sourceId, kind: 'assertion', message_id: assertionId, expires_at: expiresAt.toISOString() })
        .execute();
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  /** A federated sign-in: who the IdP said it was, kept until `expiresAt` (the SSO session's longest life). */
  async signedIn(session: Omit<SamlSourceSession, 'id'>, expiresAt: Date, now = new Date()): Promise<number> {
    const row = await this.db
      .insertInto('saml_source_session')
      .values({
        source_id: session.sourceId,
        account_id: session.accountId,
        name_id: session.nameId,
        name_id_format: session.nameIdFormat,
        session_index: session.sessionIndex,
        created_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** The federated sign-in a browser holds, while it lasts. */
  async session(id: number, now = new Date()): Promise<SamlSourceSession | undefined> {
    const row = await this.db
      .selectFrom('saml_source_session')
      .select(['id', 'source_id', 'account_id', 'name_id', 'name_id_format', 'session_index'])
      .where('id', '=', id)
      .where('expires_at', '>', now.toISOString())
      .executeTakeFirst();
    return row
      ? {
          id: row.id,
          sourceId: row.source_id,
          accountId: row.account_id,
          nameId: row.name_id,
          nameIdFormat: row.name_id_format,
          sessionIndex: row.session_index,
        }
      : undefined;
  }

  /** The accounts an IdP's LogoutRequest names (its NameID, and its SessionIndex when it gives one), their sign-ins forgotten. */
  async endSignIns(sourceId: number, nameId: string, sessionIndex: string): Promise<number[]> {
    let query = this.db
      .selectFrom('saml_source_session')
      .select(['id', 'account_id'])
      .where('source_id', '=', sourceId)
      .where('name_id', '=', nameId);
    if (sessionIndex) query = query.where('session_index', '=', sessionIndex);
    const rows = await query.execute();
    if (rows.length) {
      await this.db
        .deleteFrom('saml_source_session')
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
    }
    return [...new Set(rows.map((r) => r.account_id))];
  }

  async enterpriseActive(enterpriseId: number): Promise<boolean> {
    const row = await this.db.selectFrom('enterprise').select('status').where('id', '=', enterpriseId).executeTakeFirst();
    return row?.status === 'active';
  }

  /** Forgets one federated sign-in (the browser signed out). */
  async forget(id: number): Promise<void> {
    await this.db.deleteFrom('saml_source_session').where('id', '=', id).execute();
  }
}
