import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database, WebauthnChallengeTable } from '../../platform/db/schema.js';

/** A stored passkey, as the WebAuthn checks need it. */
export interface StoredPasskey {
  id: number;
  accountId: number;
  enterpriseId: number | null;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export type ChallengePurpose = WebauthnChallengeTable['purpose'];

const COLUMNS = [
  'id',
  'account_id',
  'enterprise_id',
  'credential_id',
  'public_key',
  'counter',
  'transports',
  'name',
  'created_at',
  'last_used_at',
] as const;

interface Row {
  id: number;
  account_id: number;
  enterprise_id: number | null;
  credential_id: string;
  public_key: string;
  counter: number | string;
  transports: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

const toPasskey = (r: Row): StoredPasskey => ({
  id: r.id,
  accountId: r.account_id,
  enterpriseId: r.enterprise_id,
  credentialId: r.credential_id,
  publicKey: r.public_key,
  // bigint arrives as a string on PostgreSQL.
  counter: Number(r.counter),
  transports: r.transports ? r.transports.split(',') : [],
  name: r.name,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
});

/** Accounts' passkeys (WebAuthn credentials) and the challenges of ceremonies under way; the rules are `Passkeys`'. */
export class PasskeyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The account's passkeys, oldest first. */
  async ofAccount(accountId: number): Promise<StoredPasskey[]> {
    const rows = await this.db
      .selectFrom('webauthn_credential')
      .select(COLUMNS)
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute();
    return rows.map(toPasskey);
  }

  /** The account's passkeys usable where it belongs now: those added under its current enterprise. */
  async count(accountId: number, enterpriseId: number | null): Promise<number> {
    const row = await this.db
      .selectFrom('webauthn_credential')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .where('enterprise_id', enterpriseId === null ? 'is' : '=', enterpriseId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async byCredentialId(credentialId: string): Promise<StoredPasskey | undefined> {
    const row = await this.db
      .selectFrom('webauthn_credential')
      .select(COLUMNS)
      .where('credential_id', '=', credentialId)
      .executeTakeFirst();
    return row && toPasskey(row);
  }

  async add(trx: Kysely<Database>, passkey: Omit<StoredPasskey, 'id' | 'lastUsedAt'>): Promise<number> {
    const row = await trx
      .insertInto('webauthn_credential')
      .values({
        account_id: passkey.accountId,
        enterprise_id: passkey.enterpriseId,
        credential_id: passkey.credentialId,
        public_key: passkey.publicKey,
        counter: passkey.counter,
        transports: passkey.transports.join(',').slice(0, 200),
        name: passkey.name,
        created_at: passkey.createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /**
   * Records a sign-in with the passkey: its new counter (only forward, so two racing uses of one
   * counter value cannot both pass) and when. Answers whether it did.
   */
  async used(id: number, was: number, counter: number, at: string): Promise<boolean> {
    const updated = await this.db
      .updateTable('webauthn_credential')
      .set({ counter, last_used_at: at })
      .where('id', '=', id)
      .where('counter', '=', was)
      .executeTakeFirst();
    return updated.numUpdatedRows > 0n;
  }

  async rename(trx: Kysely<Database>, accountId: number, id: number, name: string): Promise<boolean> {
    const updated = await trx
      .updateTable('webauthn_credential')
      .set({ name })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return updated.numUpdatedRows > 0n;
  }

  /** Removes one passkey of the account; answers its name, or undefined when it has none with that id. */
  async remove(trx: Kysely<Database>, accountId: number, id: number): Promise<string | undefined> {
    const row = await trx
      .deleteFrom('webauthn_credential')
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .returning('name')
      .executeTakeFirst();
    return row?.name;
  }

  /** Removes every passkey of the account; answers how many there were. */
  async removeAll(trx: Kysely<Database>, accountId: number): Promise<number> {
    const deleted = await trx.deleteFrom('webauthn_credential').where('account_id', '=', accountId).executeTakeFirst();
    return Number(deleted.numDeletedRows);
  }

  /** Keeps a new challenge, dropping the expired ones on the way. */
  async addChallenge(
    challenge: string,
    purpose: ChallengePurpose,
    accountId: number | null,
    expiresAt: string,
    now: string,
  ): Promise<void> {
    await this.db.deleteFrom('webauthn_challenge').where('expires_at', '<', now).execute();
    await this.db.insertInto('webauthn_challenge').values({ challenge, purpose, account_id: accountId, expires_at: expiresAt }).execute();
  }

  /**
   * Spends a challenge issued for `purpose` (and `accountId`, when one was named) that has not
   * expired; answers whether there was one. One conditional delete, so it is spent once even when two
   * instances race.
   */
  async spendChallenge(challenge: string, purpose: ChallengePurpose, accountId: number | null, now: string): Promise<boolean> {
    const deleted = await this.db
      .deleteFrom('webauthn_challenge')
      .where('challenge', '=', challenge)
      .where('purpose', '=', purpose)
      .where((eb) => (accountId === null ? eb('account_id', 'is', null) : eb('account_id', '=', accountId)))
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return deleted.numDeletedRows > 0n;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    passkeyRepository: PasskeyRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('passkeyRepository', new PasskeyRepository(app.database.db));
  },
  { name: 'passkey-repository' },
);
