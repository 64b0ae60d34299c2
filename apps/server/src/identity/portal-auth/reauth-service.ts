import { type ReauthBody, ReauthMessage } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { recordAudit } from '../../platform/audit/audit-log.js';
import { AppError, BadRequestError } from '../../platform/lib/errors.js';
import type { LoginClient } from '../cas/cas-login-service.js';
import type { Principal } from './auth.js';

/**
 * 验证身份 (docs/architecture.md, "Re-authentication"): before a sensitive change the session's user
 * proves again who they are, with the current password (checked like the central login: its
 * lockout, directory, 登录日志 and audit) or a code of their authenticator (its own count); the
 * session is then stamped, and changes pass for REAUTH_MINUTES.
 */
function createReauthService(app: FastifyInstance) {
  /** A failed check as an API refusal: a wrong password or code is bad input (400), not a missing login. */
  const refused = (status: number, error: string) => new AppError(error, status === 401 ? 400 : status);

  async function verify(principal: Principal, body: ReauthBody, client: LoginClient): Promise<void> {
    const { accountId, profile } = principal;
    const code = body.code?.trim() ?? '';
    if (!body.password && !code) throw new BadRequestError(ReauthMessage.proofRequired);
    let method: string;
    if (body.password) {
      const password = await app.passwordTransportService.decrypt(body.password);
      if (!password) throw new BadRequestError(ReauthMessage.proofRequired);
      // 仅允许通过企业身份提供方登录: a password that cannot sign in proves nothing either (an authenticator's code still does).
      const forced = await app.federationService.passwordUseRefusal(accountId);
      if (forced) throw new BadRequestError(forced);
      const outcome = await app.casLoginService.checkPassword(profile.username, password, client, ReauthMessage.wrongPassword);
      if (!outcome.ok) throw refused(outcome.status, outcome.error);
      // The username names this session's account; anything else would be a wiring slip, never a pass.
      if (outcome.accountId !== accountId) throw new BadRequestError(ReauthMessage.wrongPassword);
      await app.loginGuardService.succeeded({ accountId });
      method = '密码';
    } else {
      const policy = await app.securityPolicyRepository.ofEnterprise(profile.enterpriseId);
      const checked = await app.casLoginService.checkCode(profile, policy, code, client);
      if (!checked.ok) throw refused(checked.status, checked.error);
      method = '动态验证码';
    }
    await app.portalSessionService.stamp(principal.sessionKey);
    await recordAudit(app.database.db, client.log, {
      accountId,
      username: profile.username,
      enterpriseId: profile.enterpriseId,
      action: 'reauth',
      ip: client.ip,
      outcome: 'success',
      detail: method,
    });
  }

  return { verify };
}

export type ReauthService = ReturnType<typeof createReauthService>;

declare module 'fastify' {
  interface FastifyInstance {
    reauthService: ReauthService;
  }
}

export default fp(
  async (app) => {
    app.decorate('reauthService', createReauthService(app));
  },
  { name: 'reauth-service', dependencies: ['cas-login-service', 'portal-sessions', 'login-guard'] },
);
