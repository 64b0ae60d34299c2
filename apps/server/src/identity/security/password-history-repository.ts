import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

/** An account's current password hash and the hashes of the passwords it chose before (`password_history`). */
export class PasswordHistoryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async currentHash(accountId: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('account').select('password_hash').where('id', '=', accountId).executeTakeFirst();
    return row?.password_hash;
  }

  /** The hashes of the account's last `count` chosen passwords, newest first. */
  async recent(accountId: number, count: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('password_history')
      .select('password_hash')
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(count)
      .execute();
    return rows.map((r) => r.password_hash);
  }

  /** The account's password changed at `at` to `passwordHash`: its date, and the history keeps the newest `kept`. */
  async add(trx: Kysely<Database>, accountId: number, passwordHash: string, at: string, kept: number): Promise<void> {
    await trx.updateTable('account').set({ password_changed_at: at }).where('id', '=', accountId).execute();
    await trx.insertInto('password_history').values({ account_id: accountId, password_hash: passwordHash, created_at: at }).execute();
    await trx
      .deleteFrom('password_history')
      .where('account_id', '=', accountId)
      .where('id', 'not in', (eb) =>
        eb
          .selectFrom('password_history as kept')
          .select('kept.id')
          .where('kept.account_id', '=', accountId)
          .orderBy('kept.created_at', 'desc')
          .orderBy('kept.id', 'desc')
          .limit(kept),
      )
      .execute();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    passwordHistoryRepository: PasswordHistoryRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('passwordHistoryRepository', new PasswordHistoryRepository(app.database.db));
  },
  { name: 'password-history-repository' },
);
