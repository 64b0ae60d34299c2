import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface LockPolicy {
  loginMaxFailures: number;
  loginLockMinutes: number;
}

/**
 * Account lockout after repeated wrong passwords (OWASP authentication cheat sheet): the counter
 * lives in the database so every server instance sees it; a success or the end of a lock resets it.
 */
export class LoginGuard {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly policy: LockPolicy,
  ) {}

  /** Minutes left on a lock of `key` (a lower-cased login), or 0. */
  async lockedMinutes(key: string, now = new Date()): Promise<number> {
    const row = await this.db.selectFrom('login_failure').select('locked_until').where('username', '=', key).executeTakeFirst();
    if (!row?.locked_until) return 0;
    const left = new Date(row.locked_until).getTime() - now.getTime();
    return left > 0 ? Math.ceil(left / 60_000) : 0;
  }

  /** Records a failure; answers the attempts left before a lock (0 = locked now). */
  async recordFailure(key: string, now = new Date()): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('login_failure').select(['failures', 'locked_until']).where('username', '=', key).executeTakeFirst();
      // A lock that has run out starts a fresh count.
      const previous = row && !(row.locked_until && row.locked_until <= now.toISOString()) ? row.failures : 0;
      const failures = previous + 1;
      const lockedUntil =
        failures >= this.policy.loginMaxFailures ? new Date(now.getTime() + this.policy.loginLockMinutes * 60_000).toISOString() : null;
      await trx
        .insertInto('login_failure')
        .values({ username: key, failures, last_failed_at: now.toISOString(), locked_until: lockedUntil })
        .onConflict((oc) => oc.column('username').doUpdateSet({ failures, last_failed_at: now.toISOString(), locked_until: lockedUntil }))
        .execute();
      return Math.max(0, this.policy.loginMaxFailures - failures);
    });
  }

  async reset(key: string): Promise<void> {
    await this.db.deleteFrom('login_failure').where('username', '=', key).execute();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    loginGuard: LoginGuard;
  }
}

export default fp(
  async (app) => {
    app.decorate('loginGuard', new LoginGuard(app.database.db, app.config.auth));
  },
  { name: 'login-guard' },
);
