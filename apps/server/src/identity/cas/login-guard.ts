import type { SecurityPolicy } from '@portal/shared';
import fp from 'fastify-plugin';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

/** 安全设置's lockout: failures before a lock and its length (the account's enterprise policy, or the platform's). */
export type LockLimits = Pick<SecurityPolicy, 'lockMaxFailures' | 'lockMinutes'>;

/**
 * Whose wrong passwords are counted: an account (whatever login named it, username or phone), or,
 * for names that match no account, the client IP; and, apart from them, an account's wrong
 * two-factor codes (a right password must not restart that count, or it would guess codes forever).
 */
export type LockKey = { accountId: number } | { ip: string } | { twoFactorOf: number };

/** A password attempt: refused while locked, else how many more may fail before the lock. */
export type Attempt = { locked: true; minutes: number } | { locked: false; left: number };

/**
 * The table's key column is named `username` from before accounts were the key; it holds this
 * prefix and the account's id (账号管理 reads an account's lock by it), or `ip:` and an address.
 */
export const ACCOUNT_LOCK_PREFIX = 'account:';
const TWO_FACTOR_LOCK_PREFIX = 'totp:';

/** Join condition of an account (`account.id`) and its lock row (`login_failure` under `alias`), for 锁定 in lists. */
export function accountLockRow(alias: string) {
  return sql<boolean>`${sql.ref(`${alias}.username`)} = cast(${ACCOUNT_LOCK_PREFIX} as varchar(16)) || cast(account.id as varchar(20))`;
}
const keyOf = (key: LockKey) =>
  'accountId' in key
    ? `${ACCOUNT_LOCK_PREFIX}${key.accountId}`
    : 'twoFactorOf' in key
      ? `${TWO_FACTOR_LOCK_PREFIX}${key.twoFactorOf}`
      : `ip:${key.ip}`.slice(0, 64);

/**
 * Account lockout after repeated wrong passwords (OWASP authentication cheat sheet): the counter
 * lives in the database so every server instance sees it. Each attempt is counted before its
 * password is checked, in one statement, so parallel guesses cannot get past the limit; a verified
 * password or the end of a lock starts a fresh count.
 */
export class LoginGuard {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Counts an attempt for `key` under `limits`; answers whether it may be checked, and how many may
   * fail after it. A lock already running keeps its end, whatever the limits say now.
   */
  async attempt(key: LockKey, limits: LockLimits, now = new Date()): Promise<Attempt> {
    const max = Math.max(1, limits.lockMaxFailures);
    const iso = now.toISOString();
    const lockUntil = new Date(now.getTime() + limits.lockMinutes * 60_000).toISOString();
    const row = await this.db
      .insertInto('login_failure')
      .values({ username: keyOf(key), failures: 1, last_failed_at: iso, locked_until: max <= 1 ? lockUntil : null })
      .onConflict((oc) =>
        oc.column('username').doUpdateSet((eb) => {
          // A lock that has run out starts a fresh count.
          const next = eb
            .case()
            .when('login_failure.locked_until', '<=', iso)
            .then(1)
            .else(eb('login_failure.failures', '+', 1))
            .end();
          return {
            failures: next,
            last_failed_at: iso,
            locked_until: eb
              .case()
              .when('login_failure.locked_until', '>', iso)
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
    if (row.failures > max && row.locked_until) {
      return { locked: true, minutes: Math.max(1, Math.ceil((new Date(row.locked_until).getTime() - now.getTime()) / 60_000)) };
    }
    return { locked: false, left: Math.max(0, max - row.failures) };
  }

  /**
   * An attempt whose password could not be checked (its LDAP server was out of reach) does
   * not count: the failure `attempt` added is taken back, and the lock it set when it reached the limit.
   */
  async refund(key: LockKey, limits: LockLimits): Promise<void> {
    const max = Math.max(1, limits.lockMaxFailures);
    await this.db
      .updateTable('login_failure')
      .set((eb) => ({
        failures: eb('failures', '-', 1),
        // SET reads the row as it was: more than `max` failures before means at least `max` after.
        locked_until: eb.case().when('failures', '>', max).then(eb.ref('locked_until')).else(null).end(),
      }))
      .where('username', '=', keyOf(key))
      .where('failures', '>', 0)
      .execute();
  }

  /** The password was right: the count starts again (inside the caller's transaction when given). */
  async succeeded(key: LockKey, db: Kysely<Database> = this.db): Promise<void> {
    await db.deleteFrom('login_failure').where('username', '=', keyOf(key)).execute();
  }

  /** Locks an account at once for the limits' minutes (its two-factor codes reached the limit): the password step refuses it too. */
  async lock(accountId: number, limits: LockLimits, now = new Date()): Promise<void> {
    const iso = now.toISOString();
    const lockUntil = new Date(now.getTime() + limits.lockMinutes * 60_000).toISOString();
    const row = { failures: Math.max(1, limits.lockMaxFailures), last_failed_at: iso, locked_until: lockUntil };
    await this.db
      .insertInto('login_failure')
      .values({ username: keyOf({ accountId }), ...row })
      .onConflict((oc) => oc.column('username').doUpdateSet(row))
      .execute();
  }

  /** A whole login succeeded (password and any code): both of the account's counts start again, inside its transaction. */
  async loginSucceeded(trx: Kysely<Database>, accountId: number): Promise<void> {
    await trx
      .deleteFrom('login_failure')
      .where('username', 'in', [keyOf({ accountId }), keyOf({ twoFactorOf: accountId })])
      .execute();
  }

  /** 解锁 (账号管理): the account's counts and lock end, inside the caller's transaction; answers whether it was locked. */
  async unlock(trx: Kysely<Database>, accountId: number, now = new Date()): Promise<boolean> {
    const ended = await trx
      .deleteFrom('login_failure')
      .where('username', 'in', [keyOf({ accountId }), keyOf({ twoFactorOf: accountId })])
      .returning(['username', 'locked_until'])
      .execute();
    const account = ended.find((e) => e.username === keyOf({ accountId }));
    return !!account?.locked_until && account.locked_until > now.toISOString();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    loginGuard: LoginGuard;
  }
}

export default fp(
  async (app) => {
    app.decorate('loginGuard', new LoginGuard(app.database.db));
  },
  { name: 'login-guard' },
);
