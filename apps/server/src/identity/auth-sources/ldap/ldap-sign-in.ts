import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { LdapDirectory } from './ldap-directory.js';

/**
 * The central login's side of an LDAP / AD source (登录): an account linked to an enabled
 * LDAP source signs in with its directory password (a bind as its entry), never the local one.
 */

/** What the directory made of a password. */
export type DirectoryPasswordCheck =
  | { result: 'valid' }
  | { result: 'invalid'; reason: 'bad-password' | 'unknown-account' }
  | { result: 'disabled' }
  | { result: 'unavailable' };

/**
 * The directory's verdict on `password` for an account linked to an enabled LDAP source, or undefined
 * when the account's password is the local one. A moved or renamed entry is found by its stable id,
 * and its new DN is recorded.
 */
export async function checkDirectoryPassword(
  app: FastifyInstance,
  log: FastifyBaseLogger,
  account: { id: number; username: string },
  password: string,
): Promise<DirectoryPasswordCheck | undefined> {
  const identity = await app.authSourceRepository.ldapIdentityOf(account.id);
  if (identity?.source.type !== 'ldap') return undefined;
  const { source } = identity;
  const directory = new LdapDirectory(source, { timeoutMs: app.config.auth.ldapTimeoutMs, guard: app.outbound, log });
  const outcome = await directory.authenticate(account.username, password, identity.dn, identity.externalId);
  if (outcome.ok) {
    if (outcome.user.dn !== identity.dn) await app.authSourceRepository.updateDn(account.id, source.id, outcome.user.dn);
    return { result: 'valid' };
  }
  switch (outcome.reason) {
    case 'unavailable':
      // For whoever runs the portal (the directory's own words were logged with the source id; no secret is part of either).
      log.warn({ sourceId: source.id, detail: outcome.detail }, 'LDAP source unavailable at sign-in');
      return { result: 'unavailable' };
    case 'disabled':
      return { result: 'disabled' };
    case 'not-found':
      // The person left the directory (or its filter): the account has no password that could be right.
      return { result: 'invalid', reason: 'unknown-account' };
    case 'bad-credentials':
      return { result: 'invalid', reason: 'bad-password' };
  }
}

/** Whether the account's password belongs to its directory (修改密码 and 忘记密码 refuse it). */
export async function hasDirectoryPassword(app: FastifyInstance, accountId: number): Promise<boolean> {
  return (await app.authSourceRepository.ldapIdentityOf(accountId))?.source.type === 'ldap';
}

/**
 * The account an AD user means by `user@AD域` (protocols.md: the username may be typed that way): the
 * account named by the part before '@' when it is linked to an LDAP source with that AD 域.
 */
export async function accountOfDirectoryLogin(app: FastifyInstance, login: string) {
  const at = login.lastIndexOf('@');
  if (at <= 0) return undefined;
  const account = await app.accountRepository.findForLogin(login.slice(0, at));
  if (!account) return undefined;
  const identity = await app.authSourceRepository.ldapIdentityOf(account.id);
  if (identity?.source.type !== 'ldap') return undefined;
  const domain = identity.source.config.adDomain.trim().toLowerCase();
  return domain && domain === login.slice(at + 1).toLowerCase() ? account : undefined;
}
