import type { SecurityPolicy } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { ACCOUNT_LOCK_PREFIX, type LoginFailureRepository } from './login-failure-repository.js';

// Lists of accounts (账号管理, 工作台, 统计分析) join an account's lock row by it.
export { ACCOUNT_LOCK_PREFIX, accountLockRow } from './login-failure-repository.js';

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

const TWO_FACTOR_LOCK_PREFIX = 'totp:';

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
  constructor(private readonly failures: LoginFailureRepository) {}

  /**
   * Counts an attempt for `key` under `limits`; answers whether it may be checked, and how many may
   * fail after it. A lock already running keeps its end, whatever the limits say now.
   */
  async attempt(key: LockKey, limits: LockLimits, now = new Date()): Promise<Attempt> {
    const max = Math.max(1, limits.lockMaxFailures);
    const lockUntil = new Date(now.getTime() + limits.lockMinutes * 60_000).toISOString();
    const row = await this.failures.count(keyOf(key), max, now.toISOString(), lockUntil);
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
    await this.failures.uncount(keyOf(key), Math.max(1, limits.lockMaxFailures));
  }

  /** The password was right: the count starts again (inside the caller's transaction when given). */
  async succeeded(key: LockKey, db?: Kysely<Database>): Promise<void> {
    await this.failures.remove([keyOf(key)], db);
  }

  /** Locks an account at once for the limits' minutes (its two-factor codes reached the limit): the password step refuses it too. */
  async lock(accountId: number, limits: LockLimits, now = new Date()): Promise<void> {
    const lockUntil = new Date(now.getTime() + limits.lockMinutes * 60_000).toISOString();
    await this.failures.set(keyOf({ accountId }), {
      failures: Math.max(1, limits.lockMaxFailures),
      last_failed_at: now.toISOString(),
      locked_until: lockUntil,
    });
  }

  /** A whole login succeeded (password and any code): both of the account's counts start again, inside its transaction. */
  async loginSucceeded(trx: Kysely<Database>, accountId: number): Promise<void> {
    await this.failures.remove([keyOf({ accountId }), keyOf({ twoFactorOf: accountId })], trx);
  }

  /** 解锁 (账号管理): the account's counts and lock end, inside the caller's transaction; answers whether it was locked. */
  async unlock(trx: Kysely<Database>, accountId: number, now = new Date()): Promise<boolean> {
    const ended = await this.failures.remove([keyOf({ accountId }), keyOf({ twoFactorOf: accountId })], trx);
    const account = ended.find((e) => e.username === keyOf({ accountId }));
    return !!account?.locked_until && account.locked_until > now.toISOString();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    loginGuardService: LoginGuard;
  }
}

export default fp(
  async (app) => {
    app.decorate('loginGuardService', new LoginGuard(app.loginFailureRepository));
  },
  { name: 'login-guard', dependencies: ['login-failure-repository'] },
);
