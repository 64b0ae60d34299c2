import { ApiPrefix, CertificationMessage, ReauthMessage, ResponseCode } from '@portal/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Actor } from '../../platform/lib/actor.js';
import { AppError, ForbiddenError, TokenError } from '../../platform/lib/errors.js';
import { requestOrigin } from '../../platform/lib/request-origin.js';

export interface Principal {
  accountId: number;
  sessionKey: string;
  /** The CAS service ticket that opened the session. */
  serviceTicket: string;
  /** When the session's user last proved who they are (its CAS login, or 验证身份 since). */
  authenticatedAt: Date;
  profile: NonNullable<Awaited<ReturnType<FastifyInstance['accountRepository']['profile']>>>;
}

/** A signed-in caller of a console service: the actor with the account's profile. */
export interface Caller extends Actor {
  accountId: number;
  /** The CAS service ticket that opened the session (接入自检 signs in with it). */
  serviceTicket: string;
  profile: Principal['profile'];
}

/** The console's API areas: 安全设置's 控制台访问 holds every signed-in call under them (the portal's own are free). */
const CONSOLE_APIS = [ApiPrefix.console, ApiPrefix.identity, ApiPrefix.cms, ApiPrefix.files].map((prefix) => `${prefix}/`);
const isConsoleApi = (request: FastifyRequest) => CONSOLE_APIS.some((prefix) => request.routeOptions.url?.startsWith(prefix));

/** The actor of `request`: its signed-in account if any, its address and its log. */
export function actorOf(request: FastifyRequest): Actor {
  const p = request.principal;
  return {
    accountId: p?.accountId ?? null,
    username: p?.profile.username ?? '',
    enterpriseId: p?.profile.enterpriseId ?? null,
    authorities: p?.profile.authorities ?? [],
    ip: request.ip,
    origin: requestOrigin(request),
    log: request.log,
  };
}

/** The caller of a route behind `authenticate`; 401 without a session (the guard ran first, so only a wiring slip gets here). */
export function callerOf(request: FastifyRequest): Caller {
  const p = request.principal;
  if (!p) throw new TokenError('missing');
  return { ...actorOf(request), accountId: p.accountId, serviceTicket: p.serviceTicket, profile: p.profile };
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * preHandler: a valid token of a live session, else 20300/20301/20302; on a console API, from an address
     * the account's enterprise allows (控制台访问), else 403.
     */
    authenticate(request: FastifyRequest): Promise<void>;
    /** preHandler: authenticated and holding at least one of `codes`, else 403. */
    requireAuthority(...codes: string[]): (request: FastifyRequest) => Promise<void>;
    /**
     * preHandler: like requireAuthority, and the account's enterprise is certified (identifier
     * management and application subscription wait for 企业认证), else 403 with the reason.
     */
    requireCertified(...codes: string[]): (request: FastifyRequest) => Promise<void>;
    /**
     * preHandler: authenticated, and the session's last proof of identity is at most REAUTH_MINUTES
     * old (a sensitive change: phone, email, two-factor), else 403 with ResponseCode.ReauthRequired.
     */
    requireRecentAuth(request: FastifyRequest): Promise<void>;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** The guards protected routes use (the server enforces the console's authority codes). */
async function auth(app: FastifyInstance) {
  app.decorateRequest('principal', null);

  app.decorate('authenticate', async (request: FastifyRequest) => {
    const check = app.accessTokenService.check(request.headers.authorization);
    if (!check.ok) throw new TokenError(check.reason);
    const session = await app.portalSessionService.byKey(check.sessionKey);
    if (!session || session.accountId !== check.accountId) throw new TokenError('invalid');
    const profile = await app.accountRepository.profile(session.accountId);
    if (!profile?.usable) throw new TokenError('invalid');
    request.principal = {
      accountId: session.accountId,
      sessionKey: session.key,
      serviceTicket: session.serviceTicket,
      authenticatedAt: session.authenticatedAt,
      profile,
    };
    // After the principal is set, so a refused console write is audited as the caller's failure.
    if (isConsoleApi(request)) await app.consoleAccessService.check(actorOf(request));
  });

  // Like GitHub's sudo mode and OIDC max_age: a stolen but idle session cannot take over the account's factors.
  app.decorate('requireRecentAuth', async (request: FastifyRequest) => {
    await app.authenticate(request);
    const at = request.principal?.authenticatedAt.getTime() ?? 0;
    if (Date.now() - at > app.config.auth.reauthMinutes * 60_000) {
      throw new AppError(ReauthMessage.required, 403, ResponseCode.ReauthRequired);
    }
  });

  app.decorate('requireAuthority', (...codes: string[]) => async (request: FastifyRequest) => {
    await app.authenticate(request);
    const held = request.principal?.profile.authorities ?? [];
    if (!codes.some((c) => held.includes(c))) throw new ForbiddenError();
    // An administrator's act outside the console's areas (申请使用 on the public site) is the console's too.
    if (!isConsoleApi(request)) await app.consoleAccessService.check(actorOf(request));
  });

  app.decorate('requireCertified', (...codes: string[]) => {
    const holdsOne = app.requireAuthority(...codes);
    return async (request: FastifyRequest) => {
      await holdsOne(request);
      if (request.principal?.profile.certificationStatus !== 'certified') {
        throw new ForbiddenError(CertificationMessage.certificationRequired);
      }
    };
  });
}

export default fp(auth, { name: 'auth', dependencies: ['portal-sessions', 'access-tokens', 'account-repository', 'console-access'] });
