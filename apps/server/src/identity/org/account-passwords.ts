import { randomInt } from 'node:crypto';
import { PASSWORD_MAX, type PasswordRules } from '@portal/shared';
import { hashPassword } from '../accounts/passwords.js';
import { newPasswordProblem } from '../security/password-policy.js';

// Letters and digits only (SMS templates refuse some symbols), without look-alikes (I, l, O, 0, 1).
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const LOWER = 'abcdefghijkmnpqrstuvwxyz';
const DIGITS = '23456789';
const ALPHABET = UPPER + LOWER + DIGITS;
/** Symbols for a policy that requires one: a few that SMS providers pass through in template variables. */
const SYMBOLS = '#%*+=';
export const RANDOM_PASSWORD_LENGTH = 10;

/** The spec's rule alone (6–18), for callers without a policy. */
const SPEC_RULES: PasswordRules = { passwordMinLength: 6, passwordClasses: [], passwordNoUsername: false };

/**
 * 随机密码并短信通知: 10 characters from a CSPRNG with upper- and lower-case letters and a digit
 * (within the spec's 6–18 rule); drawn again until it has all three, so every such password is as likely.
 */
export function randomPassword(): string {
  return randomPasswordFor(SPEC_RULES);
}

/**
 * A random password that also meets an enterprise's 安全设置: as long as its minimum when
 * that is more than 10, with a symbol when it requires one, never containing the username; drawn
 * again until every rule holds.
 */
export function randomPasswordFor(rules: PasswordRules, username?: string): string {
  const length = Math.min(PASSWORD_MAX, Math.max(RANDOM_PASSWORD_LENGTH, rules.passwordMinLength));
  const alphabet = rules.passwordClasses.includes('symbol') ? ALPHABET + SYMBOLS : ALPHABET;
  for (;;) {
    let password = '';
    for (let i = 0; i < length; i++) password += alphabet[randomInt(alphabet.length)];
    if (!/[A-Z]/.test(password) || !/[a-z]/.test(password) || !/\d/.test(password)) continue;
    if (!newPasswordProblem(password, rules, username)) return password;
  }
}

/** argon2 runs on libuv's thread pool: an import hashes a few at a time and leaves the rest of the pool to others. */
const HASHES_AT_ONCE = 3;

/**
 * Hashes of an import's initial passwords, each distinct one hashed once (a file often gives everyone
 * the same initial password, which each account must change at its first login anyway).
 */
export async function hashAll(passwords: readonly string[]): Promise<Map<string, string>> {
  const distinct = [...new Set(passwords)];
  const hashes = new Map<string, string>();
  for (let i = 0; i < distinct.length; i += HASHES_AT_ONCE) {
    const batch = distinct.slice(i, i + HASHES_AT_ONCE);
    const done = await Promise.all(batch.map((p) => hashPassword(p)));
    batch.forEach((p, j) => hashes.set(p, done[j]!));
  }
  return hashes;
}
