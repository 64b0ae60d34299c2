import { AuthSourceMessage, PASSWORD_MAX, PASSWORD_MIN, PasswordChangeMessage, RegisterMessage } from '@portal/shared';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type AuditEntry, recordAudit } from '../../platform/audit/audit-log.js';
import { AppError, BadRequestError, ForbiddenError } from '../../platform/lib/errors.js';
import { hashPassword, verifyPassword } from '../accounts/passwords.js';
import { hasDirectoryPassword } from '../auth-sources/ldap/ldap-sign-in.js';
import type { EndedTickets } from '../cas/sso-sessions.js';
import type { Principal } from './auth.js';
import { validateServiceTicket } from './cas-client.js';

/** The three fields of 修改密码 as the browser sends them (RSA-OAEP, base64). */
export interface EncryptedPasswords {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** A ticket's outcome at the portal's callback: the new session's cookie value, or why none opened. */
export type PortalSignIn = { ok: true; session: string } | { ok: false; code?: string; description: string };

/**
 * The login time a CAS server gave (CAS 3.0 §2.7 `authenticationDate`): Apereo CAS may send it as a
 * list or with a zone name (`…+08:00[Asia/Shanghai]`). One that cannot be read counts as long ago, so
 * a sensitive change asks for 验证身份 rather than trusting the session as fresh.
 */
export function authenticationDateOf(value: unknown): Date {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  const date = typeof first === 'string' ? new Date(first.replace(/\[[^\]]*\]$/, '')) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : new Date(0);
}

/**
 * The portal side of login (the routes are `portal-auth-routes.ts`): a CAS ticket becomes a portal
 * session; 修改密码 with its checks, lockout, history and the end of the account's other logins.
 */
function createPortalAuthService(app: FastifyInstance) {
  const { accountRepository: accounts } = app;

  /**
   * Validates a ticket at `casServerUrl` for `service` and opens a session for its usable account,
   * ending the browser's previous one (`previous`, its cookie).
   */
  async function signIn(casServerUrl: string, service: string, ticket: string, previous: string | undefined): Promise<PortalSignIn> {
    const result = await openSession(casServerUrl, service, ticket, previous);
    app.metrics.signIn('portal', result.ok ? 'success' : 'failure');
    return result;
  }

  async function openSession(casServerUrl: string, service: string, ticket: string, previous: string | undefined): Promise<PortalSignIn> {
    const validation = await validateServiceTicket(casServerUrl, service, ticket);
    if (!validation.ok) return { ok: false, code: validation.code, description: validation.description };
    const account = await accounts.findUsableByUsername(validation.user);
    if (!account) return { ok: false, description: '该账号未在门户开通或已停用' };
    await app.portalSessionService.close(previous);
    // CAS 3.0 §2.7: when the credentials were checked; single sign-on may have been hours ago.
    const authenticatedAt = authenticationDateOf(validation.attributes.authenticationDate);
    return { ok: true, session: await app.portalSessionService.open(account.id, ticket, authenticatedAt) };
  }

  /**
   * 修改密码 (spec section 5, "Change password", checked again on the server). A wrong current
   * password counts toward the account's lockout (its enterprise's 安全设置), as a wrong password at the
   * CAS does. Answers the SSO sessions' tickets it ended, for single logout.
   */
  async function changePassword(
    principal: Principal,
    fields: EncryptedPasswords,
    client: { ip: string; log: FastifyBaseLogger },
  ): Promise<EndedTickets> {
    const { accountId, profile } = principal;
    const audit = (outcome: AuditEntry['outcome'], detail?: string): AuditEntry => ({
      accountId,
      username: profile.username,
      enterpriseId: profile.enterpriseId,
      action: 'password-change',
      target: '',
      ip: client.ip,
      outcome,
      ...(detail === undefined ? {} : { detail }),
    });
    // An account linked to an LDAP / AD source signs in with its directory password: not changed here.
    if (await hasDirectoryPassword(app, accountId)) throw new ForbiddenError(AuthSourceMessage.directoryPassword);
    const { passwordTransportService: passwordTransport } = app;
    const oldPassword = await passwordTransport.decrypt(fields.oldPassword);
    const newPassword = await passwordTransport.decrypt(fields.newPassword);
    const confirmPassword = await passwordTransport.decrypt(fields.confirmPassword);
    if (!oldPassword) throw new BadRequestError(PasswordChangeMessage.oldRequired);
    if (!newPassword) throw new BadRequestError(PasswordChangeMessage.newRequired);
    if ([...newPassword].length < PASSWORD_MIN) throw new BadRequestError(RegisterMessage.passwordTooShort);
    if ([...newPassword].length > PASSWORD_MAX) throw new BadRequestError(RegisterMessage.passwordTooLong);
    if (!confirmPassword) throw new BadRequestError(PasswordChangeMessage.confirmRequired);
    if (confirmPassword !== newPassword) throw new BadRequestError(PasswordChangeMessage.confirmMismatch);

    const key = { accountId };
    const policy = await app.securityPolicyRepository.ofEnterprise(profile.enterpriseId);
    const attempt = await app.loginGuardService.attempt(key, policy);
    if (attempt.locked) throw new AppError(`密码错误次数过多，账号已锁定，请 ${attempt.minutes} 分钟后再试`, 423);
    if (!(await verifyPassword(await accounts.passwordHash(accountId), oldPassword))) {
      const detail = attempt.left === 0 ? '原密码错误次数过多，账号已锁定' : '原密码错误';
      await app.auditRepository.record(client.log, audit('failure', detail));
      if (attempt.left === 0) throw new AppError(`密码错误次数过多，账号已锁定，请 ${policy.lockMinutes} 分钟后再试`, 423);
      throw new BadRequestError('原密码错误');
    }
    await app.loginGuardService.succeeded(key);
    if (newPassword === oldPassword) throw new BadRequestError(PasswordChangeMessage.sameAsOld);
    // 安全设置's password rules and history.
    const problem = await app.passwordPolicyService.problem({ accountId, username: profile.username, password: newPassword, policy });
    if (problem) throw new BadRequestError(problem);
    // The new password, its date and history, the end of every other login of this account (its
    // portal sessions, and with the embedded CAS its other SSO sessions) and the audit row commit together.
    const passwordHash = await hashPassword(newPassword);
    return accounts.setPasswordHash(accountId, passwordHash, async (trx) => {
      await app.passwordPolicyService.remember(trx, accountId, passwordHash);
      await app.portalSessionService.closeOthers(accountId, principal.sessionKey, trx);
      const tickets = app.config.auth.casEmbedded
        ? await app.casTicketService.destroyAccountTgts(trx, accountId, principal.serviceTicket)
        : [];
      await recordAudit(trx, client.log, audit('success'));
      await app.accountNoticeService.passwordChanged(trx, accountId, 'self');
      return tickets;
    });
  }

  return { signIn, changePassword };
}

export type PortalAuthService = ReturnType<typeof createPortalAuthService>;

declare module 'fastify' {
  interface FastifyInstance {
    portalAuthService: PortalAuthService;
  }
}

export default fp(
  async (app) => {
    app.decorate('portalAuthService', createPortalAuthService(app));
  },
  { name: 'portal-auth-service', dependencies: ['portal-sessions', 'password-policy', 'login-guard', 'cas-tickets'] },
);
