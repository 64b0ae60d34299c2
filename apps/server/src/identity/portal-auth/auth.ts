import { CertificationMessage } from '@portal/shared';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { type AuditActionCode, type AuditEntry, recordAudit } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/schema.js';
import { ForbiddenError, TokenError } from '../../platform/lib/errors.js';

export interface Principal {
  accountId: number;
  sessionKey: string;
  /** The CAS service ticket that opened the session. */
  serviceTicket: string;
  profile: NonNullable<Awaited<ReturnType<FastifyInstance['accountRepository']['profile']>>>;
}

/** Who made a request, as its audit row names them: services take it instead of the request. */
export interface Actor {
  accountId: number | null;
  username: string;
  enterpriseId: number | null;
  ip: string;
  log: FastifyBaseLogger;
}

export function actorOf(request: FastifyRequest): Actor {
  const p = request.principal;
  return {
    accountId: p?.accountId ?? null,
    username: p?.profile.username ?? '',
    enterpriseId: p?.profile.enterpriseId ?? null,
    ip: request.ip,
    log: request.log,
  };
}

/** Records an action of `actor` inside the write's transaction `db`. */
export function auditBy(
  db: Kysely<Database>,
  actor: Actor,
  action: AuditActionCode,
  target: string,
  outcome: AuditEntry['outcome'] = 'success',
  detail?: string,
): Promise<void> {
  const { log, ...who } = actor;
  return recordAudit(db, log, { ...who, action, target, outcome, ...(detail === undefined ? {} : { detail }) });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler: a valid token of a live session, else 20300/20301/20302. */
    authenticate(request: FastifyRequest): Promise<void>;
    /** preHandler: authenticated and holding at least one of `codes`, else 403. */
    requireAuthority(...codes: string[]): (request: FastifyRequest) => Promise<void>;
    /**
     * preHandler: like requireAuthority, and the account's enterprise is certified (identifier
     * management and application subscription wait for 企业认证), else 403 with the reason.
     */
    requireCertified(...codes: string[]): (request: FastifyRequest) => Promise<void>;
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
    request.principal = { accountId: session.accountId, sessionKey: session.key, serviceTicket: session.serviceTicket, profile };
  });

  app.decorate('requireAuthority', (...codes: string[]) => async (request: FastifyRequest) => {
    await app.authenticate(request);
    const held = request.principal?.profile.authorities ?? [];
    if (!codes.some((c) => held.includes(c))) throw new ForbiddenError();
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

export default fp(auth, { name: 'auth', dependencies: ['portal-sessions', 'access-tokens', 'account-repository'] });
