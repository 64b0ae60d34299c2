import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

/** An account's two-factor columns and recovery codes; the TOTP rules are `TwoFactor`'s. */
export class TwoFactorRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Secrets kept in the clear by an earlier version (before they were sealed). */
  async plainSecrets(): Promise<{ id: number; totp_secret: string | null }[]> {
    return this.db
      .selectFrom('account')
      .select(['id', 'totp_secret'])
      .where('totp_secret', 'is not', null)
      .where('totp_secret', 'not like', 'v1.%')
      .execute();
  }

  /** Replaces a secret, unless it changed meanwhile. */
  async replaceSecret(accountId: number, was: string | null, sealed: string): Promise<void> {
    await this.db.updateTable('account').set({ totp_secret: sealed }).where('id', '=', accountId).where('totp_secret', '=', was).execute();
  }

  /** Gives an account without a secret this (pending) one. */
  async setSecretIfNone(accountId: number, sealed: string): Promise<void> {
    await this.db
      .updateTable('account')
      .set({ totp_secret: sealed, totp_last_step: null })
      .where('id', '=', accountId)
      .where('totp_secret', 'is', null)
      .execute();
  }

  /** An account's sealed secret, when it was enrolled and the last accepted time step. */
  async state(accountId: number) {
    return this.db
      .selectFrom('account')
      .select(['totp_secret', 'totp_enabled_at', 'totp_last_step'])
      .where('id', '=', accountId)
      .executeTakeFirst();
  }

  /** How many of the account's recovery codes are still unused. */
  async unusedRecoveryCodes(accountId: number): Promise<number> {
    const row = await this.db
      .selectFrom('account_recovery_code')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Enrols the account with its pending secret `secret`, unless that changed or it is enrolled; answers whether it did. */
  async enable(trx: Kysely<Database>, accountId: number, secret: string | null, step: number, at: string): Promise<boolean> {
    const enabled = await trx
      .updateTable('account')
      .set({ totp_enabled_at: at, totp_last_step: step })
      .where('id', '=', accountId)
      .where('totp_secret', '=', secret)
      .where('totp_enabled_at', 'is', null)
      .executeTakeFirst();
    return enabled.numUpdatedRows > 0n;
  }

  /** The account's recovery codes become these (hashes). */
  async replaceRecoveryCodes(trx: Kysely<Database>, accountId: number, hashes: readonly string[]): Promise<void> {
    await trx.deleteFrom('account_recovery_code').where('account_id', '=', accountId).execute();
    await trx
      .insertInto('account_recovery_code')
      .values(hashes.map((h) => ({ account_id: accountId, code_hash: h, used_at: null })))
      .execute();
  }

  /** Moves the last accepted time step forward to `step` (not back, not twice); answers whether it did. */
  async advanceStep(accountId: number, step: number): Promise<boolean> {
    const moved = await this.db
      .updateTable('account')
      .set({ totp_last_step: step })
      .where('id', '=', accountId)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return moved.numUpdatedRows > 0n;
  }

  /** Spends an unused recovery code; answers whether there was one. */
  async spendRecoveryCode(accountId: number, hash: string, at: string): Promise<boolean> {
    const spent = await this.db
      .updateTable('account_recovery_code')
      .set({ used_at: at })
      .where('account_id', '=', accountId)
      .where('code_hash', '=', hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return spent.numUpdatedRows > 0n;
  }

  /** The secret, recovery codes and trusted devices go, inside the caller's transaction. */
  async clear(trx: Kysely<Database>, accountId: number): Promise<void> {
    await trx
      .updateTable('account')
      .set({ totp_secret: null, totp_enabled_at: null, totp_last_step: null })
      .where('id', '=', accountId)
      .execute();
    await trx.deleteFrom('account_recovery_code').where('account_id', '=', accountId).execute();
    // 信任此设备: trust earned with the old factors ends with them.
    await trx.deleteFrom('trusted_device').where('account_id', '=', accountId).execute();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    twoFactorRepository: TwoFactorRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('twoFactorRepository', new TwoFactorRepository(app.database.db));
  },
  { name: 'two-factor-repository' },
);
