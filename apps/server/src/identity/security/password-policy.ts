import { type PasswordRules, SECURITY_POLICY_LIMITS, type SecurityPolicy, passwordProblem } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { verifyPassword } from '../accounts/passwords.js';
import { isCommonPassword } from './common-passwords.js';
import type { PasswordHistoryRepository } from './password-history-repository.js';

/** Passwords kept per account: as many as the longest history a policy may ask for. */
const HISTORY_KEPT = SECURITY_POLICY_LIMITS.passwordHistory.max;

export const PasswordReuseMessage = {
  current: '新密码不能与当前密码相同',
  history: (count: number) => `新密码不能与最近${count}次使用过的密码相同`,
} as const;

/** What a password expiry asks for: when the password was set, and the policy's days (0: never). */
export function passwordExpired(changedAt: string | null, expiryDays: number, now = new Date()): boolean {
  // Passwords set before expiry was tracked carry no date: they count from now (nothing expires at an upgrade).
  if (expiryDays <= 0 || !changedAt) return false;
  return new Date(changedAt).getTime() + expiryDays * 86_400_000 <= now.getTime();
}

/**
 * The one check of a new password wherever one is set (registration, 修改密码, first-login change,
 * 密码已过期, 忘记密码, an administrator's 新增, 重置密码 and 导入): the policy's rules and the
 * common-password list.
 */
export function newPasswordProblem(password: string, rules: PasswordRules, username?: string): string | undefined {
  return passwordProblem(password, rules, username, isCommonPassword);
}

/**
 * 安全设置's password rules where a password is set: the policy's length, classes and
 * username rule (shared with the console), not a common password, a password different from the current one, and none of
 * the last N the holder chose (password_history keeps their hashes).
 */
export class PasswordPolicy {
  constructor(private readonly passwords: PasswordHistoryRepository) {}

  /** The first problem of `password` as an account's new password under `policy`, or undefined. */
  async problem(input: { accountId: number; username: string; password: string; policy: SecurityPolicy }): Promise<string | undefined> {
    const { accountId, password, policy } = input;
    const rule = newPasswordProblem(password, policy, input.username);
    if (rule) return rule;
    const current = await this.passwords.currentHash(accountId);
    if (current !== undefined && (await verifyPassword(current, password))) return PasswordReuseMessage.current;
    if (policy.passwordHistory <= 0) return undefined;
    const history = await this.passwords.recent(accountId, policy.passwordHistory);
    const matches = await Promise.all(history.map((hash) => verifyPassword(hash, password)));
    return matches.includes(true) ? PasswordReuseMessage.history(policy.passwordHistory) : undefined;
  }

  /**
   * A password the holder chose (first-login change, 修改密码, expiry, 忘记密码, registration), inside
   * its transaction: expiry counts from now, and it joins the history (the newest ones are kept).
   * Passwords an administrator sets are temporary (changed at the next login) and not kept.
   */
  async remember(trx: Kysely<Database>, accountId: number, passwordHash: string, now = new Date()): Promise<void> {
    await this.passwords.add(trx, accountId, passwordHash, now.toISOString(), HISTORY_KEPT);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    passwordPolicyService: PasswordPolicy;
  }
}

export default fp(
  async (app) => {
    app.decorate('passwordPolicyService', new PasswordPolicy(app.passwordHistoryRepository));
  },
  { name: 'password-policy', dependencies: ['password-history-repository'] },
);
