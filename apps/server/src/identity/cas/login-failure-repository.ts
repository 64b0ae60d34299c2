import fp from 'fastify-plugin';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

/**
 * The table's key column is named `username` from before accounts were the key; it holds this
 * prefix and the account's id (账号管理 reads an account's lock by it), or `ip:` and an address.
 */
export const ACCOUNT_LOCK_PREFIX = 'account:';

/** Join condition of an account (`account.id`) and its lock row (`login_failure` under `alias`), for 锁定 in lists. */
export function accountLockRow(alias: string) {
  return sql<boolean>`${sql.ref(`${alias}.username`)} = cast(${ACCOUNT_LOCK_PREFIX} as varchar(16)) || cast(account.id as varchar(20))`;
}

/** A count's row after a change: its failures and the end of its lock, if any. */
export interface FailureCount {
  failures: number;
  locked_until: string | null;
}

/** The login guard's counts of wrong passwords and codes (`login_failure`), one row per key. */
export class LoginFailureRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Adds a failure to `key`'s count in one statement (parallel attempts cannot get past `max`): a
   * lock that has run out at `at` starts a fresh count; a lock still running keeps its end; reaching
   * `max` locks until `lockUntil`.
   */
  async count(key: string, max: number, at: string, lockUntil: string): Promise<FailureCount> {
    return this.db
      .insertInto('login_failure')
      .values({ username: key, failures: 1, last_failed_at: at, locked_until: max <= 1 ? lockUntil : null })
      .onConflict((oc) =>
        oc.column('username').doUpdateSet((eb) => {
          const next = eb
            .case()
            .when('login_failure.locked_until', '<=', at)
            .then(1)
            .else(eb('login_failure.failures', '+', 1))
            .end();
          return {
            failures: next,
            last_failed_at: at,
            locked_until: eb
              .case()
              .when('login_failure.locked_until', '>', at)
              .then(eb.ref('login_failure.locked_until'))
              .when(next, '>=', max)
              .then(lockUntil)
              .else(null)
              .end(),
          };
        }),
      )
      .returning(['failures', 'locked_until'])
      .executeTakeFirstOrThrow();
  }

  /** Takes one failure back from `key`'s count, and the lock it set when it reached `max`. */
  async uncount(key: string, max: number): Promise<void> {
    await this.db
      .updateTable('login_failure')
      .set((eb) => ({
        failures: eb('failures', '-', 1),
        // SET reads the row as it was: more than `max` failures before means at least `max` after.
        locked_until: eb.case().when('failures', '>', max).then(eb.ref('locked_until')).else(null).end(),
      }))
      .where('username', '=', key)
      .where('failures', '>', 0)
      .execute();
  }

  /** Sets `key`'s count and lock, whatever it was. */
  async set(key: string, row: { failures: number; last_failed_at: string; locked_until: string }): Promise<void> {
    await this.db
      .insertInto('login_failure')
      .values({ username: key, ...row })
      .onConflict((oc) => oc.column('username').doUpdateSet(row))
      .execute();
  }

  /** Ends these keys' counts; answers the rows that were there. */
  async remove(keys: readonly string[], db: Kysely<Database> = this.db): Promise<{ username: string; locked_until: string | null }[]> {
    return db.deleteFrom('login_failure').where('username', 'in', keys).returning(['username', 'locked_until']).execute();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    loginFailureRepository: LoginFailureRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('loginFailureRepository', new LoginFailureRepository(app.database.db));
  },
  { name: 'login-failure-repository' },
);
