import { randomUUID } from 'node:crypto';
import type { SamlNameIdFormat, SamlSettings } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';

/** A stored signing key: its certificate (PEM) and its sealed private key. */
export interface StoredSamlKey {
  generation: number;
  certificate: string;
  sealedPrivateKey: string;
  createdAt: string;
}

/** A SAML application's settings with the application they belong to. */
export interface ServiceProviderRow extends SamlSettings {
  applicationId: number;
}

/** A sign-in between a service provider's request (or 我的应用) and the response. */
export interface SamlSignInRow {
  id: string;
  applicationId: number;
  requestId: string | null;
  relayState: string;
  forceAuthn: boolean;
  /** The request's IsPassive (SAML Core §3.4.1). */
  isPassive: boolean;
  expiresAt: string;
  answeredAt: string | null;
  accountId: number | null;
  nameId: string | null;
  ticketId: string | null;
}

const NAME_ID_FORMATS: readonly string[] = ['persistent', 'email', 'unspecified'];

const toSettings = (r: {
  application_id: number;
  entity_id: string;
  acs_url: string;
  slo_url: string;
  certificate: string;
  name_id_format: string;
  sign_response: number;
  sign_assertion: number;
  want_requests_signed: number;
}): ServiceProviderRow => ({
  applicationId: r.application_id,
  entityId: r.entity_id,
  acsUrl: r.acs_url,
  sloUrl: r.slo_url,
  certificate: r.certificate,
  nameIdFormat: (NAME_ID_FORMATS.includes(r.name_id_format) ? r.name_id_format : 'persistent') as SamlNameIdFormat,
  signResponse: r.sign_response === 1,
  signAssertion: r.sign_assertion === 1,
  wantRequestsSigned: r.want_requests_signed === 1,
});

const toSignIn = (r: {
  id: string;
  application_id: number;
  request_id: string | null;
  relay_state: string;
  force_authn: number;
  is_passive: number;
  expires_at: string;
  answered_at: string | null;
  account_id: number | null;
  name_id: string | null;
  ticket_id: string | null;
}): SamlSignInRow => ({
  id: r.id,
  applicationId: r.application_id,
  requestId: r.request_id,
  relayState: r.relay_state,
  forceAuthn: r.force_authn === 1,
  isPassive: r.is_passive === 1,
  expiresAt: r.expires_at,
  answeredAt: r.answered_at,
  accountId: r.account_id,
  nameId: r.name_id,
  ticketId: r.ticket_id,
});

/** The SAML identity provider's SQL: its keys, the applications' service-provider settings, the sign-ins. */
export class SamlRepository {
  constructor(private readonly db: Kysely<Database>) {}

  // ----- signing keys

  async latestGeneration(): Promise<number> {
    const r = await this.db
      .selectFrom('saml_signing_key')
      .select((eb) => eb.fn.max('generation').as('g'))
      .executeTakeFirst();
    return Number(r?.g ?? 0);
  }

  /** Adds a generation; a twin written by another instance at the same moment wins and this one is dropped. */
  async addKey(key: Omit<StoredSamlKey, 'createdAt'>, createdAt: string): Promise<void> {
    await this.db
      .insertInto('saml_signing_key')
      .values({ generation: key.generation, certificate: key.certificate, private_key: key.sealedPrivateKey, created_at: createdAt })
      .onConflict((oc) => oc.column('generation').doNothing())
      .execute();
  }

  /** Keys still published at `now`, newest generation first. */
  async publishedKeys(now: string): Promise<StoredSamlKey[]> {
    const rows = await this.db
      .selectFrom('saml_signing_key')
      .select(['generation', 'certificate', 'private_key', 'created_at'])
      .where((eb) => eb.or([eb('retire_at', 'is', null), eb('retire_at', '>', now)]))
      .orderBy('generation', 'desc')
      .execute();
    return rows.map((r) => ({
      generation: r.generation,
      certificate: r.certificate,
      sealedPrivateKey: r.private_key,
      createdAt: r.created_at,
    }));
  }

  /** Retires every generation before `generation` at `retireAt` (one already retiring keeps its earlier time). */
  async retireBefore(generation: number, retireAt: string): Promise<void> {
    await this.db
      .updateTable('saml_signing_key')
      .set({ retire_at: retireAt })
      .where('generation', '<', generation)
      .where('retire_at', 'is', null)
      .execute();
  }

  // ----- service providers (应用列表's SAML applications)

  async providerOf(applicationId: number): Promise<ServiceProviderRow | undefined> {
    const r = await this.db.selectFrom('saml_service_provider').selectAll().where('application_id', '=', applicationId).executeTakeFirst();
    return r && toSettings(r);
  }

  /** The settings of these applications, by application id. */
  async providersOf(applicationIds: readonly number[]): Promise<Map<number, ServiceProviderRow>> {
    if (applicationIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('saml_service_provider')
      .selectAll()
      .where('application_id', 'in', [...applicationIds])
      .execute();
    return new Map(rows.map((r) => [r.application_id, toSettings(r)]));
  }

  async providerByEntityId(entityId: string): Promise<ServiceProviderRow | undefined> {
    const r = await this.db.selectFrom('saml_service_provider').selectAll().where('entity_id', '=', entityId).executeTakeFirst();
    return r && toSettings(r);
  }

  /** Whether another application holds the entity ID (inside the write's transaction). */
  async entityIdTaken(trx: Kysely<Database>, entityId: string, exceptApplicationId?: number): Promise<boolean> {
    let q = trx.selectFrom('saml_service_provider').select('application_id').where('entity_id', '=', entityId);
    if (exceptApplicationId !== undefined) q = q.where('application_id', '!=', exceptApplicationId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async saveProvider(trx: Kysely<Database>, applicationId: number, s: SamlSettings): Promise<void> {
    const values = {
      entity_id: s.entityId,
      acs_url: s.acsUrl,
      slo_url: s.sloUrl,
      certificate: s.certificate,
      name_id_format: s.nameIdFormat,
      sign_response: s.signResponse ? 1 : 0,
      sign_assertion: s.signAssertion ? 1 : 0,
      want_requests_signed: s.wantRequestsSigned ? 1 : 0,
    };
    await trx
      .insertInto('saml_service_provider')
      .values({ application_id: applicationId, ...values })
      .onConflict((oc) => oc.column('application_id').doUpdateSet(values))
      .execute();
  }

  // ----- sign-ins

  /** A new sign-in; throws a unique violation when the SP's request ID was seen before (a replay). */
  async createSignIn(row: Omit<SamlSignInRow, 'answeredAt' | 'accountId' | 'nameId' | 'ticketId'>, now: string): Promise<void> {
    await this.db
      .insertInto('saml_sign_in')
      .values({
        id: row.id,
        application_id: row.applicationId,
        request_id: row.requestId,
        relay_state: row.relayState,
        force_authn: row.forceAuthn ? 1 : 0,
        is_passive: row.isPassive ? 1 : 0,
        created_at: now,
        expires_at: row.expiresAt,
      })
      .execute();
  }

  async signIn(id: string): Promise<SamlSignInRow | undefined> {
    const r = await this.db.selectFrom('saml_sign_in').selectAll().where('id', '=', id).executeTakeFirst();
    return r && toSignIn(r);
  }

  /**
   * Marks a waiting sign-in answered for the account, once: of two callbacks at the same moment one
   * wins (a conditional update), so a request is answered by one response.
   */
  async answer(id: string, accountId: number, nameId: string, ticketId: string, now: string): Promise<boolean> {
    const r = await this.db
      .updateTable('saml_sign_in')
      .set({ answered_at: now, account_id: accountId, name_id: nameId, ticket_id: ticketId })
      .where('id', '=', id)
      .where('answered_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /**
   * Deletes at most `limit` sign-ins expired before `before` that nothing needs any more: never answered,
   * or answered and their service ticket gone (the SSO session ended) with no single-logout retry still
   * due for them (a retry reads the sign-in). Oldest first; answers how many went.
   */
  async pruneSignIns(before: string, limit: number): Promise<number> {
    const done = this.db
      .selectFrom('saml_sign_in as s')
      .select('s.id')
      .where('s.expires_at', '<', before)
      .where((eb) =>
        eb.or([
          eb('s.ticket_id', 'is', null),
          eb.not(eb.exists(eb.selectFrom('cas_st as t').select('t.id').whereRef('t.id', '=', 's.ticket_id'))),
        ]),
      )
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('logout_delivery as d')
              .select('d.id')
              .where('d.next_at', 'is not', null)
              .where('d.protocol', '=', 'saml2')
              .whereRef('d.sid', '=', 's.id'),
          ),
        ),
      )
      .orderBy('s.expires_at')
      .limit(limit);
    const r = await this.db.deleteFrom('saml_sign_in').where('id', 'in', done).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /**
   * Records an SP's LogoutRequest ID in the store that refuses replayed AuthnRequest IDs (the same
   * unique key per SP: SAML Core §1.3.4 makes a message ID unique across the issuer's messages), with the
   * RelayState its LogoutResponse carries back. The row is answered at once (no sign-in waits on it) and
   * goes with the expired sign-ins. Answers the row's id; undefined: seen before.
   */
  async recordLogoutRequest(
    applicationId: number,
    requestId: string,
    relayState: string,
    expiresAt: string,
    now: string,
  ): Promise<string | undefined> {
    const id = `logout-${randomUUID()}`;
    try {
      await this.db
        .insertInto('saml_sign_in')
        .values({
          id,
          application_id: applicationId,
          request_id: requestId,
          relay_state: relayState,
          created_at: now,
          expires_at: expiresAt,
          answered_at: now,
        })
        .execute();
      return id;
    } catch (err) {
      if (isUniqueViolation(err)) return undefined;
      throw err;
    }
  }

  /**
   * Carries out a recorded LogoutRequest once: its row takes the NameID it named (a conditional update,
   * so of two continuations at the same moment one wins). Answers its RelayState; undefined when the
   * row is gone or was carried out before.
   */
  async consumeLogoutRequest(id: string, applicationId: number, nameId: string): Promise<string | undefined> {
    const row = await this.db
      .updateTable('saml_sign_in')
      .set({ name_id: nameId })
      .where('id', '=', id)
      .where('application_id', '=', applicationId)
      .where('name_id', 'is', null)
      .returning('relay_state')
      .executeTakeFirst();
    return row?.relay_state;
  }

  /** How the SSO session was authenticated (cas_tgt.authn); undefined when not known. */
  async sessionAuthn(tgtId: string): Promise<'password' | 'mfa' | undefined> {
    const row = await this.db.selectFrom('cas_tgt').select('authn').where('id', '=', tgtId).executeTakeFirst();
    return row?.authn === 'password' || row?.authn === 'mfa' ? row.authn : undefined;
  }

  /**
   * Whether an account of the enterprise other than `accountId` holds the email (case-insensitive), a
   * deleted one aside (it keeps its address but signs in nowhere): then the email names nobody for
   * certain and may not be a NameID.
   */
  async emailHeldByOthers(enterpriseId: number, accountId: number, email: string): Promise<boolean> {
    return (await this.emailHolderStatement(enterpriseId, accountId, email).executeTakeFirst()) !== undefined;
  }

  /** The statement behind `emailHeldByOthers`, answered by the `lower(email)` index. */
  emailHolderStatement(enterpriseId: number, accountId: number, email: string) {
    return this.db
      .selectFrom('account')
      .select('id')
      .where(sql<string>`lower(email)`, '=', email.toLowerCase())
      .where('enterprise_id', '=', enterpriseId)
      .where('status', '!=', 'deleted')
      .where('id', '!=', accountId)
      .limit(1);
  }

  /** Marks a waiting sign-in answered without an account (a NoPassive answer), once, as `answer` does. */
  async answerNobody(id: string, now: string): Promise<boolean> {
    const r = await this.db
      .updateTable('saml_sign_in')
      .set({ answered_at: now })
      .where('id', '=', id)
      .where('answered_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    samlRepository: SamlRepository;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    app.decorate('samlRepository', new SamlRepository(app.database.db));
  },
  { name: 'saml-repository' },
);
